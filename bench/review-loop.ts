/**
 * `npm run bench:review-loop`: does reviewing make a topic better, and how fast? A topic is
 * trained on one labelled source (--train), then a simulated reviewer answers the topic's review
 * queue on a second source (--stream) from that source's own labels, batch by batch; after every
 * 50 reviews the topic is retrained on the first source plus the answers (what `topics feedback`
 * does) and evaluated on a held-out third part (--test). The same with random picks from the
 * stream is the baseline: the difference is what the queue's choice is worth.
 *
 *   npm run bench:review-loop -- --train FILE --stream FILE --test FILE --relevant LABEL[,LABEL]
 *       [--stream-relevant LABEL,…] [--reviews 300] [--batch 50] [--seed 1] [--pool 10000]
 *       [--test-size 3000] [--threshold 0.5] [--classifier nb|nb-chi2|nb-nbsvm] [--review-weight W]
 *       [--self-train N] [--calibrate 0|1] [--target-precision P] [--verbose] [--json]
 *
 * --relevant names the on-topic labels of --train; --stream-relevant those of the stream and
 * test files (their labels are another source's: LilyBBS boards, say), default --relevant. When
 * --test is the same file as --stream, the bench splits it itself with --seed: a shuffled
 * --test-size lines are the test part (default 3,000, or a third of a smaller file: 200 of the
 * 599 Weibo posts), the next --pool lines the stream. Corpus files are read
 * where they are (../shared/corpus) and never copied into the repository.
 *
 * Each answer counts as W samples, as the product counts a review (crawler/classify/review-weight.ts:
 * CAMPUSWATCH_REVIEW_WEIGHT, else by the number of --train texts); --review-weight W overrides it.
 *
 * Each training also self-trains on the stream texts not yet reviewed (crawler/classify/self-train.ts,
 * the unlabelled crawled posts of the product: at most CAMPUSWATCH_SELF_TRAIN_POSTS, 10,000), as a
 * topic's full training does; --self-train 0 turns it off, and the first line says what the model
 * trained on the --train texts alone scores (the topic before any post was crawled).
 *
 * F1 is that of the classifier decision P(on-topic) ≥ the topic's threshold, its flag rule. The
 * threshold starts at --threshold and, as a topic's full training does (./crawler/classify/probe.ts,
 * ./crawler/classify/calibrate.ts), each retrain chooses it again on the answers a probe model was
 * not trained on (a fifth of them): maximum F1, or the lowest threshold reaching
 * --target-precision. --calibrate 0 keeps --threshold throughout (a topic whose calibration is off).
 * Retraining reuses each text's segmentation (trainPrepared), so the loop measures the model, not jieba.
 */
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { binaryMetrics, prepareText, selectScored, type BinaryMetrics, type PreparedText, type Sample } from "../crawler/classify";
import { trainPrepared, type TopicModel } from "../crawler/classify/model";
import { shuffled } from "../crawler/classify/random";
import { reviewWeight as productReviewWeight } from "../crawler/classify/review-weight";
import { MIN_SELF_TRAIN_POSTS, SELF_TRAIN_KINDS, selfTrainPostsFromEnv, selfTrainPrepared } from "../crawler/classify/self-train";
import { DEFAULT_CLASSIFIER, isClassifierKind, type ClassifierKind } from "../lib/classifiers";
import { calibrateThreshold, MIN_CALIBRATION_SAMPLES } from "../crawler/classify/calibrate";
import { calibrationInput, probeSplit, trainProbe } from "../crawler/classify/probe";
import { DEFAULT_THRESHOLDS } from "../crawler/classify/relevance-rule";
import { pct } from "./classify-support";

const { values } = parseArgs({
  options: {
    train: { type: "string" },
    stream: { type: "string" },
    test: { type: "string" },
    relevant: { type: "string" },
    "stream-relevant": { type: "string" },
    reviews: { type: "string", default: "300" },
    batch: { type: "string", default: "50" },
    seed: { type: "string", default: "1" },
    pool: { type: "string", default: "10000" },
    "test-size": { type: "string" },
    threshold: { type: "string", default: String(DEFAULT_THRESHOLDS.nbThreshold) },
    classifier: { type: "string", default: DEFAULT_CLASSIFIER },
    "review-weight": { type: "string" },
    "self-train": { type: "string" },
    calibrate: { type: "string", default: "1" },
    "target-precision": { type: "string" },
    json: { type: "boolean", default: false },
    verbose: { type: "boolean", default: false },
  },
});

function fail(message: string): never {
  console.error(`bench:review-loop: ${message}`);
  process.exit(2);
}

function intArg(name: string, min: number): number {
  const n = Number(values[name as keyof typeof values]);
  if (!Number.isInteger(n) || n < min) fail(`--${name} must be an integer >= ${min}`);
  return n;
}

function list(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

function readJsonl(file: string): Sample[] {
  if (!fs.existsSync(file)) fail(`${file} not found (the shared corpora are in ../shared/corpus)`);
  const out: Sample[] = [];
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    if (!line.trim()) continue;
    const r = JSON.parse(line) as { label?: unknown; text?: unknown };
    if (typeof r.label === "string" && typeof r.text === "string" && r.text.trim() !== "") out.push({ label: r.label, text: r.text });
  }
  return out;
}

if (!values.train || !values.stream || !values.test || !values.relevant) fail("--train, --stream, --test and --relevant are required");
const relevant = list(values.relevant);
const streamRelevant = new Set(values["stream-relevant"] ? list(values["stream-relevant"]) : relevant);
const reviews = intArg("reviews", 1);
const batch = intArg("batch", 1);
const seed = intArg("seed", 0);
const poolSize = intArg("pool", 1);
/** Test lines: --test-size, else 3,000 (for a file split in two, at most a third of it, see below). */
const testSizeGiven = values["test-size"] !== undefined ? intArg("test-size", 1) : null;
const threshold = Number(values.threshold);
if (!(threshold >= 0 && threshold <= 1)) fail("--threshold must be a number from 0 to 1");
if (values.calibrate !== "0" && values.calibrate !== "1") fail("--calibrate must be 0 or 1");
const calibrate = values.calibrate === "1";
const targetPrecision = values["target-precision"] === undefined ? null : Number(values["target-precision"]);
if (targetPrecision !== null && !(targetPrecision > 0 && targetPrecision < 1)) fail("--target-precision must be a number between 0 and 1");
const classifier: ClassifierKind = isClassifierKind(values.classifier) ? values.classifier : fail(`unknown --classifier ${values.classifier}`);
/** The label a reviewer's "relevant" answer stores, as `topics feedback` does: the first relevant label. */
const onLabel = relevant[0] as string;
const EVERY = 50;

const trainSet = readJsonl(values.train);
let streamSet: Sample[];
let testSet: Sample[];
if (path.resolve(values.stream) === path.resolve(values.test)) {
  const all = shuffled(readJsonl(values.stream), seed);
  // A small file (the 599 Weibo posts) would otherwise be all test and no stream: a third is the test part.
  const testSize = testSizeGiven ?? Math.min(3000, Math.round(all.length / 3));
  testSet = all.slice(0, testSize);
  streamSet = all.slice(testSize, testSize + poolSize);
} else {
  streamSet = shuffled(readJsonl(values.stream), seed).slice(0, poolSize);
  testSet = shuffled(readJsonl(values.test), seed + 1).slice(0, testSizeGiven ?? 3000);
}
const isOn = (s: Sample) => streamRelevant.has(s.label);
// The product's weight depends on how many texts the topic is trained on, so it is chosen after reading them.
const reviewWeight = values["review-weight"] === undefined ? productReviewWeight(trainSet.length) : intArg("review-weight", 1);
// Unlabelled stream texts a training pseudo-labels, as the product's CAMPUSWATCH_SELF_TRAIN_POSTS.
const selfTrainPosts = values["self-train"] === undefined ? selfTrainPostsFromEnv() : intArg("self-train", 0);

const started = Date.now();
const prep = (s: Sample) => prepareText(s.text);
const trainPrep = trainSet.map(prep);
const streamPrep = streamSet.map(prep);
const testPrep = testSet.map(prep);
const segmentSeconds = (Date.now() - started) / 1000;

/** A topic as the loop sees it: its model and its threshold (calibrated after each retrain unless --calibrate 0). */
interface Topic {
  model: TopicModel;
  threshold: number;
}

/** A full training on the --train texts plus the answers `extra` (stream positions), from the topic's threshold `current`. */
function fit(extra: readonly number[], current: number): Topic {
  // Answers as `topics feedback` stores them: on-topic → the first relevant label, else off-topic.
  // Each answer weighs W samples, the uploaded (--train) texts one each, as trainTopic weighs them.
  const answers = extra.map((i) => ({ text: (streamSet[i] as Sample).text, label: isOn(streamSet[i] as Sample) ? onLabel : "off-topic" }));
  // The unlabelled in-domain texts: the stream minus what was reviewed (the product leaves out reviewed posts too).
  const reviewedSet = new Set(extra);
  const unlabelled = streamPrep.filter((_, i) => !reviewedSet.has(i)).slice(0, selfTrainPosts);
  const samples = [...trainSet, ...answers];
  const prepared = [...trainPrep, ...extra.map((i) => streamPrep[i] as PreparedText)];
  const options = {
    relevantLabels: relevant,
    classifier,
    sampleWeights: [...trainSet.map(() => 1), ...extra.map(() => reviewWeight)],
    // Answers are the platform's own posts (in-domain), as a topic's reviews are (topic-train.ts).
    inDomain: [...trainSet.map(() => false), ...extra.map(() => true)],
  };
  const selfTrain = { uploaded: trainSet.length };
  let threshold = current;
  // The product's calibration (topic-train.ts): a probe without a fifth of the answers chooses the threshold on them.
  const split = calibrate ? probeSplit(trainSet.length, extra.length, 1) : null;
  if (split && split.heldOutReviews.length >= MIN_CALIBRATION_SAMPLES) {
    const probe = trainProbe(samples, prepared, unlabelled, split, options, selfTrain);
    // Held-out answers and the unreviewed stream texts (the product's crawled posts), as in the product.
    const { heldOut, population } = calibrationInput(probe, samples, prepared, unlabelled, split, relevant);
    const calibration = calibrateThreshold(heldOut, { current, targetPrecision, population });
    if (values.verbose) console.log(`  calibration after ${extra.length} answers: ${calibration.reason}`);
    threshold = calibration.threshold;
  }
  return { model: selfTrainPrepared(samples, prepared, unlabelled, options, selfTrain).model, threshold };
}

function evaluate(topic: Topic): BinaryMetrics {
  const actual = testSet.map(isOn);
  const predicted = testPrep.map((p) => topic.model.predictPrepared(p).score >= topic.threshold);
  return binaryMetrics(actual, predicted);
}

interface Row {
  strategy: "uncertain" | "random";
  reviews: number;
  onTopicAnswers: number;
  /** The topic's threshold after the retrain. */
  threshold: number;
  precision: number;
  recall: number;
  f1: number;
}

/** Review `reviews` stream texts in batches chosen by `strategy`, evaluating every {@link EVERY}. */
function loop(strategy: "uncertain" | "random"): Row[] {
  const rows: Row[] = [];
  const reviewed: number[] = [];
  const taken = new Set<number>();
  const randomOrder = shuffled(
    streamSet.map((_, i) => i),
    seed + 2,
  );
  let topic = fit([], threshold);
  const record = () => {
    const m = evaluate(topic);
    const onTopicAnswers = reviewed.filter((i) => isOn(streamSet[i] as Sample)).length;
    rows.push({ strategy, reviews: reviewed.length, onTopicAnswers, threshold: topic.threshold, precision: m.precision, recall: m.recall, f1: m.f1 });
    if (!values.json)
      console.log(
        `${strategy.padEnd(9)} ${String(reviewed.length).padStart(4)} reviews (${onTopicAnswers} on-topic): F1 ${pct(m.f1)} (precision ${pct(m.precision)}, recall ${pct(m.recall)}), threshold ${topic.threshold}`,
      );
  };
  record();
  let nextReport = EVERY;
  while (reviewed.length < reviews && taken.size < streamSet.length) {
    const want = Math.min(batch, reviews - reviewed.length);
    let picks: number[];
    if (strategy === "random") {
      picks = randomOrder.filter((i) => !taken.has(i)).slice(0, want);
    } else {
      const open = streamSet.flatMap((_, i) => (taken.has(i) ? [] : [i]));
      const scored = open.map((i) => {
        const p = topic.model.predictPrepared(streamPrep[i] as PreparedText);
        return { text: (streamSet[i] as Sample).text, score: p.score, cosine: p.cosine };
      });
      picks = selectScored(scored, { limit: want, threshold: topic.threshold }).map((p) => open[p.index] as number);
      // Everything left is a near-duplicate of this batch: take the rest in stream order.
      if (picks.length === 0) picks = open.slice(0, want);
    }
    for (const i of picks) {
      taken.add(i);
      reviewed.push(i);
    }
    topic = fit(reviewed, topic.threshold);
    if (reviewed.length >= nextReport || reviewed.length >= reviews) {
      record();
      while (nextReport <= reviewed.length) nextReport += EVERY;
    }
  }
  return rows;
}

if (!values.json) {
  console.log(
    `train ${values.train}: ${trainSet.length} texts (on-topic: ${relevant.join(",")}); stream ${streamSet.length} and test ${testSet.length} texts of ${values.stream}` +
      ` (on-topic: ${[...streamRelevant].join(",")}; test ${testSet.filter(isOn).length} on-topic), seed ${seed}, classifier ${classifier}, threshold ${threshold}${calibrate ? ` calibrated after each retrain${targetPrecision === null ? " (maximum F1)" : ` (precision ${targetPrecision})`}` : " kept"}, batch ${batch}, review weight ${reviewWeight}; segmented in ${segmentSeconds.toFixed(1)} s`,
  );
}
const selfTrainNote = !SELF_TRAIN_KINDS.includes(classifier)
  ? `${classifier} does not self-train`
  : Math.min(selfTrainPosts, streamSet.length) < MIN_SELF_TRAIN_POSTS
    ? `no self-training (${Math.min(selfTrainPosts, streamSet.length)} unlabelled stream texts, under ${MIN_SELF_TRAIN_POSTS})`
    : `self-training below on up to ${selfTrainPosts} unlabelled stream texts`;
// The topic before any post was crawled: the --train texts alone (no self-training, no reviews).
const uploadsOnly = evaluate({ model: trainPrepared(trainSet, trainPrep, { relevantLabels: relevant, classifier }), threshold });
if (!values.json)
  console.log(
    `uploads only   (no crawled posts, no reviews): F1 ${pct(uploadsOnly.f1)} (precision ${pct(uploadsOnly.precision)}, recall ${pct(uploadsOnly.recall)}); ${selfTrainNote}`,
  );
const uncertain = loop("uncertain");
const random = loop("random");
const before = uncertain[0] as Row;
const after = uncertain.at(-1) as Row;
const summary = {
  uploadsOnly: uploadsOnly.f1,
  before: before.f1,
  after: after.f1,
  gain: after.f1 - before.f1,
  randomAfter: (random.at(-1) as Row).f1,
  targetMet: after.f1 - before.f1 >= 0.15 && after.f1 >= 0.8,
  /** The same target measured from the topic before any post was crawled (uploads only). */
  targetMetFromUploadsOnly: after.f1 - uploadsOnly.f1 >= 0.15 && after.f1 >= 0.8,
  seconds: (Date.now() - started) / 1000,
};
if (values.json) console.log(JSON.stringify({ rows: [...uncertain, ...random], ...summary }));
else
  console.log(
    `F1 ${pct(summary.before)} → ${pct(summary.after)} after ${after.reviews} queue reviews (${summary.gain >= 0 ? "+" : ""}${(100 * summary.gain).toFixed(2)} points; random picks: ${pct(summary.randomAfter)}); target (+15 points and ≥ 80%) ${summary.targetMet ? "met" : "NOT met"}` +
      `; from the uploads-only ${pct(summary.uploadsOnly)}: ${summary.after - summary.uploadsOnly >= 0 ? "+" : ""}${(100 * (summary.after - summary.uploadsOnly)).toFixed(2)} points, target ${summary.targetMetFromUploadsOnly ? "met" : "NOT met"}; ${summary.seconds.toFixed(0)} s`,
  );
