/**
 * Training a topic: samples uploaded and from reviewers' decisions, a held-out evaluation, and
 * the model stored on the topic row; plus the progress reports of long topic operations.
 *
 * Review decisions reach training only as stored TopicSample rows of source "review" (written by
 * server/reviews.ts when a flag is reviewed): the one source of review samples. Reviews made
 * before those rows existed are turned into rows once, the first time the topic is trained or
 * learns ({@link backfillReviewSamples}), so every review counts exactly once.
 */
import { DEFAULT_CLASSIFIER, isClassifierKind, type ClassifierKind } from "../../lib/classifiers";
import type { Db } from "../../lib/db";
import { calibrateThreshold, type Calibration, type ScoredSample } from "./calibrate";
import { evaluateTopicModel, type TopicEvaluation } from "./evaluate";
import { prepareText } from "./features";
import { checkTrainable, type Sample, type TrainOptions } from "./model";
import { TrainingError } from "./naive-bayes-core";
import { calibrationInput, probeSplit, trainProbe } from "./probe";
import { reviewWeight } from "./review-weight";
import { selfTrainPostsFromEnv, selfTrainPrepared, type SelfTrainStats } from "./self-train";
import { unlabelledPostTexts } from "./self-train-pool";
import { loadDictionary, parseStringList, topicById } from "./topic-loader";
import { postText } from "./verdict";

/** Progress of a long topic operation. */
export interface TopicProgress {
  phase: "train" | "evaluate" | "store" | "rescore";
  /** English, for the CLI. */
  message: string;
  /** The step as a message key of the dashboard (`topics.job.steps`), with its values. */
  step: TopicStep;
  values?: Record<string, string | number>;
  done?: number;
  total?: number;
}

/** The steps of training and re-scoring the dashboard can say in the reader's language. */
export type TopicStep = "segmenting" | "evaluating" | "training" | "storing" | "disabled" | "rescoring";

/** Options of {@link trainTopic}. */
export interface TrainTopicOptions {
  /** Replace the topic's relevant labels (stored on the topic). @default the topic's */
  relevantLabels?: readonly string[];
  /** Add the topic's review samples ({@link samplesFromReviews}). @default true */
  includeReviews?: boolean;
  /** Keep the given samples as the topic's uploaded samples (replacing earlier uploads). @default true */
  storeSamples?: boolean;
  /** Model options (relevant labels, user dictionary and, unless given here, the classifier kind come from the topic). */
  model?: Omit<TrainOptions, "relevantLabels" | "userDict" | "onProgress">;
  /** Seed of the held-out split used for the stored evaluation. @default 1 */
  seed?: number;
  onProgress?: (p: TopicProgress) => void;
}

/** Result of {@link trainTopic}. */
export interface TrainTopicResult {
  topicId: number;
  modelVersion: number;
  /** The classifier kind that was trained. */
  classifier: ClassifierKind;
  samples: number;
  reviewSamples: number;
  /** How many samples each review sample counted as (./review-weight.ts). */
  reviewWeight: number;
  labels: Record<string, number>;
  /** Held-out evaluation (10% of the samples, model trained on the rest); null under 20 samples. */
  evaluation: TopicEvaluation | null;
  /** The same probe model evaluated on the review samples held out of it (the TopicEvaluation row written). */
  reviewEvaluation: ReviewEvaluation;
  /** The threshold chosen on those held-out reviews (./calibrate.ts), stored with the evaluation row. */
  calibration: Calibration;
  /** The crawled posts pseudo-labelled and trained on (./self-train.ts; `used` 0: none). */
  selfTrain: SelfTrainStats;
}

/** Figures of a model on review samples it was not trained on; null where undefined (nothing to divide). */
export interface ReviewEvaluation {
  heldOut: number;
  precision: number | null;
  recall: number | null;
  f1: number | null;
  threshold: number;
}

const INSERT_CHUNK = 1000;

/** Label given to a post a reviewer dismissed (confirmed posts get the topic's first relevant label). */
export const DISMISSED_LABEL = "off-topic";

/** The sample label of a review decision: confirm → the topic's first relevant label, dismiss → {@link DISMISSED_LABEL}. */
export function reviewLabel(decision: string, relevantLabels: string): string {
  return decision === "confirm" ? (parseStringList(relevantLabels)[0] ?? "on-topic") : DISMISSED_LABEL;
}

/**
 * Store a review sample for every reviewed flag of the topic that has none (reviews made before
 * decisions were stored as samples, or written past server/reviews.ts): the latest decision
 * per flag, its post's title, text and OCR text. Not yet learned (`learnedAt` null). Returns how
 * many were added. Reviews by users disabled since count like any other.
 */
export async function backfillReviewSamples(db: Db, topicId: number): Promise<number> {
  const topic = await topicById(db, topicId);
  const reviews = await db.review.findMany({
    where: { flag: { topicId }, decision: { in: ["confirm", "dismiss"] } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: { decision: true, flagId: true, flag: { select: { postId: true, post: { select: { title: true, text: true, ocrText: true } } } } },
  });
  if (reviews.length === 0) return 0;
  const have = new Set(
    (await db.topicSample.findMany({ where: { topicId, source: "review" }, select: { postId: true } })).flatMap((s) => (s.postId === null ? [] : [s.postId])),
  );
  const data: { topicId: number; postId: number; source: string; label: string; text: string }[] = [];
  for (const r of reviews) {
    const postId = r.flag.postId;
    if (have.has(postId)) continue;
    have.add(postId);
    const text = postText(r.flag.post);
    if (text.trim() === "") continue;
    data.push({ topicId, postId, source: "review", label: reviewLabel(r.decision, topic.relevantLabels), text });
  }
  for (let i = 0; i < data.length; i += INSERT_CHUNK) await db.topicSample.createMany({ data: data.slice(i, i + INSERT_CHUNK) });
  return data.length;
}

/**
 * The topic's review samples (stored rows of source "review", old reviews backfilled first by
 * {@link backfillReviewSamples}): one per reviewed post, its latest decision.
 */
export async function samplesFromReviews(db: Db, topicId: number): Promise<Sample[]> {
  return (await reviewSampleRows(db, topicId)).map(({ text, label }) => ({ text, label }));
}

async function reviewSampleRows(db: Db, topicId: number): Promise<{ id: number; text: string; label: string }[]> {
  await backfillReviewSamples(db, topicId);
  return db.topicSample.findMany({ where: { topicId, source: "review" }, select: { id: true, text: true, label: true }, orderBy: { id: "asc" } });
}

/** Precision/recall/F1 of a probe on held-out reviews, null where a denominator is empty. */
function reviewFigures(e: TopicEvaluation | null, threshold: number): ReviewEvaluation {
  if (!e || e.samples === 0) return { heldOut: 0, precision: null, recall: null, f1: null, threshold };
  const m = e.classifier;
  const precision = m.truePositives + m.falsePositives > 0 ? m.precision : null;
  const recall = m.truePositives + m.falseNegatives > 0 ? m.recall : null;
  return { heldOut: e.samples, precision, recall, f1: precision === null || recall === null ? null : m.f1, threshold };
}

/**
 * Train a topic: its model is stored (JSON), `modelVersion` bumped, and an evaluation on a
 * held-out tenth stored with it. `samples` undefined means the topic's stored uploaded samples.
 * The threshold is calibrated on the held-out review samples and, unless the topic's `calibrate`
 * is off, stored as its nbThreshold in the same transaction as the model.
 * Stored posts are NOT re-scored here; call {@link rescoreTopic} (the learn job re-scores open flags).
 */
export async function trainTopic(db: Db, topicId: number, samples?: readonly Sample[], options: TrainTopicOptions = {}): Promise<TrainTopicResult> {
  const progress = options.onProgress ?? (() => undefined);
  const topic = await topicById(db, topicId);
  const relevantLabels = [...(options.relevantLabels ?? parseStringList(topic.relevantLabels))];
  if (relevantLabels.length === 0) {
    throw new TrainingError(`topic "${topic.name}" has no relevant labels: say which sample labels are on-topic (--relevant)`, "noRelevantLabels");
  }
  const uploaded =
    samples ?? (await db.topicSample.findMany({ where: { topicId, source: "upload" }, select: { text: true, label: true }, orderBy: { id: "asc" } }));
  const reviewRows = options.includeReviews === false ? [] : await reviewSampleRows(db, topicId);
  const reviews: Sample[] = reviewRows.map(({ text, label }) => ({ text, label }));
  const all = [...uploaded, ...reviews];
  const labels: Record<string, number> = {};
  for (const s of all) labels[s.label] = (labels[s.label] ?? 0) + 1;

  checkTrainable(all, relevantLabels);
  await loadDictionary(db);
  // Reviews are in-domain: each counts as W samples (fixed by the upload count, so folds until the next full training stay exact).
  const weight = reviewWeight(uploaded.length);
  const weightOf = (i: number) => (i < uploaded.length ? 1 : weight);
  const trainOptions: TrainOptions = {
    // The kind the topic chose (server/topic-admin.ts validates it; an unknown one, written past it, trains the default).
    classifier: isClassifierKind(topic.classifier) ? topic.classifier : DEFAULT_CLASSIFIER,
    ...(options.model ?? {}),
    relevantLabels,
    userDict: parseStringList(topic.userDict),
    onProgress: (message) => progress({ phase: "train", message, step: "training", values: { samples: all.length } }),
  };
  // Segment once for both trainings (the dictionary is the union of all topics' words, loaded above).
  progress({ phase: "train", message: `segmenting ${all.length} samples`, step: "segmenting", values: { samples: all.length } });
  const prepared = all.map((s) => prepareText(s.text, trainOptions.segment));
  // The newest crawled posts, pseudo-labelled by a first model (./self-train.ts): the probe and the model alike.
  const unlabelled = (await unlabelledPostTexts(db, topicId, selfTrainPostsFromEnv())).map((t) => prepareText(t, trainOptions.segment));
  const selfTrain = { uploaded: uploaded.length };
  let evaluation: TopicEvaluation | null = null;
  let reviewEvaluation = reviewFigures(null, topic.nbThreshold);
  // Not among topicById's columns (the scoring path needs none of them).
  const settings = await db.topic.findUniqueOrThrow({ where: { id: topicId }, select: { calibrate: true, targetPrecision: true } });
  // Reviews weigh W and are in-domain (their own SVM feature copies), in the probe and the model alike.
  const weighted = { ...trainOptions, sampleWeights: all.map((_, i) => weightOf(i)), inDomain: all.map((_, i) => i >= uploaded.length) };
  let heldOutScores: ScoredSample[] = [];
  let population: number[] = [];
  const split = probeSplit(uploaded.length, reviews.length, options.seed ?? 1);
  if (split) {
    progress({ phase: "evaluate", message: "training on 90% of the samples to evaluate on the other 10%", step: "evaluating" });
    // A held-out split can lose the only on-topic or off-topic samples of a tiny set: then there is
    // nothing meaningful to report, and the real training below gives the clear error if needed.
    try {
      const probe = trainProbe(all, prepared, unlabelled, split, weighted, selfTrain);
      const rules = { relevantLabels, nbThreshold: topic.nbThreshold, cosineThreshold: topic.cosineThreshold };
      evaluation = evaluateTopicModel(
        probe,
        [...split.heldOutUploads, ...split.heldOutReviews].map((i) => all[i] as Sample),
        rules,
      );
      if (split.heldOutReviews.length > 0) {
        reviewEvaluation = reviewFigures(
          evaluateTopicModel(
            probe,
            split.heldOutReviews.map((i) => all[i] as Sample),
            rules,
          ),
          topic.nbThreshold,
        );
        ({ heldOut: heldOutScores, population } = calibrationInput(probe, all, prepared, unlabelled, split, relevantLabels));
      }
    } catch (e) {
      if (!(e instanceof TrainingError)) throw e;
    }
  }
  // On the probe's held-out reviews: the final model is trained on them too, so none is left to choose on.
  const calibration = calibrateThreshold(heldOutScores, {
    current: topic.nbThreshold,
    targetPrecision: settings.targetPrecision,
    apply: settings.calibrate,
    population,
  });
  progress({ phase: "evaluate", message: `threshold: ${calibration.reason}`, step: "evaluating" });
  const { model, stats: selfTrainStats } = selfTrainPrepared(all, prepared, unlabelled, weighted, selfTrain);
  if (selfTrainStats.used > 0) {
    const { used, onTopic, weight } = selfTrainStats;
    progress({
      phase: "train",
      message: `self-trained on ${used} crawled posts (${onTopic} pseudo-labelled on-topic, weight ${weight})`,
      step: "training",
      values: { samples: all.length },
    });
  }
  progress({ phase: "store", message: `storing the model (${all.length} samples)`, step: "storing", values: { samples: all.length } });
  const json = JSON.stringify(model.toJSON());
  const updated = await db.$transaction(
    async (tx) => {
      if (samples && options.storeSamples !== false) {
        await tx.topicSample.deleteMany({ where: { topicId, source: "upload" } });
        for (let i = 0; i < samples.length; i += INSERT_CHUNK) {
          await tx.topicSample.createMany({
            data: samples.slice(i, i + INSERT_CHUNK).map((s) => ({ topicId, text: s.text, label: s.label, source: "upload" })),
          });
        }
      }
      const now = new Date();
      // The review samples trained on are learned; any stored meanwhile (ids grow) wait for the next learn job.
      const lastId = reviewRows.reduce((m, r) => Math.max(m, r.id), 0);
      await tx.topicSample.updateMany({ where: { topicId, source: "review", id: { lte: lastId } }, data: { learnedAt: now } });
      await tx.topicSample.updateMany({ where: { topicId, source: "review", id: { gt: lastId } }, data: { learnedAt: null } });
      const row = await tx.topic.update({
        where: { id: topicId },
        data: {
          model: json,
          modelVersion: { increment: 1 },
          trainedAt: now,
          relevantLabels: JSON.stringify(relevantLabels),
          evaluation: evaluation ? JSON.stringify({ ...evaluation, evaluatedAt: now.toISOString() }) : null,
          trainUploadSamples: uploaded.length,
          trainReviewSamples: reviews.length,
          reviewsLearned: reviews.length,
          reviewsSinceRetrain: 0,
          retrainDue: false,
          ...(calibration.applied ? { nbThreshold: calibration.threshold } : {}),
        },
        select: { modelVersion: true },
      });
      await tx.topicEvaluation.create({
        data: {
          topicId,
          version: row.modelVersion,
          at: now,
          trainSize: all.length,
          reviewSamples: reviews.length,
          ...reviewEvaluation,
          curve: JSON.stringify(calibration),
        },
      });
      return row;
    },
    { timeout: 300_000, maxWait: 30_000 },
  );
  return {
    topicId,
    modelVersion: updated.modelVersion,
    classifier: model.classifier,
    samples: all.length,
    reviewSamples: reviews.length,
    reviewWeight: weight,
    labels,
    evaluation,
    reviewEvaluation,
    calibration,
    selfTrain: selfTrainStats,
  };
}
