/**
 * Training a topic: samples uploaded and from reviewers' decisions, a held-out evaluation, and
 * the model stored on the topic row; plus the progress reports of long topic operations.
 */
import { DEFAULT_CLASSIFIER, isClassifierKind, type ClassifierKind } from "../../lib/classifiers";
import type { Db } from "../../lib/db";
import { evaluateTopicModel, type TopicEvaluation } from "./evaluate";
import { prepareText, type PreparedText } from "./features";
import { checkTrainable, trainPrepared, type Sample, type TrainOptions } from "./model";
import { TrainingError } from "./naive-bayes-core";
import { splitRandom } from "./random";
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
  /** Add samples from reviewers' decisions ({@link samplesFromReviews}). @default true */
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
  labels: Record<string, number>;
  /** Held-out evaluation (10% of the samples, model trained on the rest); null under 20 samples. */
  evaluation: TopicEvaluation | null;
}

/** Label given to a post a reviewer dismissed (confirmed posts get the topic's first relevant label). */
export const DISMISSED_LABEL = "off-topic";

/**
 * Training samples from review decisions on the topic's flags: the latest decision per flag,
 * confirm → the topic's first relevant label, dismiss → {@link DISMISSED_LABEL}.
 */
export async function samplesFromReviews(db: Db, topicId: number): Promise<Sample[]> {
  const topic = await topicById(db, topicId);
  const onLabel = parseStringList(topic.relevantLabels)[0] ?? "on-topic";
  const reviews = await db.review.findMany({
    where: { flag: { topicId }, decision: { in: ["confirm", "dismiss"] } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: { decision: true, flagId: true, flag: { select: { post: { select: { title: true, text: true, ocrText: true } } } } },
  });
  const seen = new Set<number>();
  const out: Sample[] = [];
  for (const r of reviews) {
    if (seen.has(r.flagId)) continue;
    seen.add(r.flagId);
    const text = postText(r.flag.post);
    if (text.trim() === "") continue;
    out.push({ text, label: r.decision === "confirm" ? onLabel : DISMISSED_LABEL });
  }
  return out;
}

const INSERT_CHUNK = 1000;

/**
 * Train a topic: its model is stored (JSON), `modelVersion` bumped, and an evaluation on a
 * held-out tenth stored with it. `samples` undefined means the topic's stored uploaded samples.
 * Stored posts are NOT re-scored here; call {@link rescoreTopic}.
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
  const reviews = options.includeReviews === false ? [] : await samplesFromReviews(db, topicId);
  const all = [...uploaded, ...reviews];
  const labels: Record<string, number> = {};
  for (const s of all) labels[s.label] = (labels[s.label] ?? 0) + 1;

  checkTrainable(all, relevantLabels);
  await loadDictionary(db);
  const trainOptions: TrainOptions = {
    // The kind the topic chose (lib/queries/topic-admin.ts validates it; an unknown one, written past it, trains the default).
    classifier: isClassifierKind(topic.classifier) ? topic.classifier : DEFAULT_CLASSIFIER,
    ...(options.model ?? {}),
    relevantLabels,
    userDict: parseStringList(topic.userDict),
    onProgress: (message) => progress({ phase: "train", message, step: "training", values: { samples: all.length } }),
  };
  // Segment once for both trainings (the dictionary is the union of all topics' words, loaded above).
  progress({ phase: "train", message: `segmenting ${all.length} samples`, step: "segmenting", values: { samples: all.length } });
  const prepared = all.map((s) => prepareText(s.text, trainOptions.segment));
  let evaluation: TopicEvaluation | null = null;
  if (all.length >= 20) {
    progress({ phase: "evaluate", message: "training on 90% of the samples to evaluate on the other 10%", step: "evaluating" });
    const split = splitRandom(
      all.map((_, i) => i),
      0.1,
      options.seed ?? 1,
    );
    // A held-out split can lose the only on-topic or off-topic samples of a tiny set: then there is
    // nothing meaningful to report, and the real training below gives the clear error if needed.
    try {
      const probe = trainPrepared(
        split.train.map((i) => all[i] as Sample),
        split.train.map((i) => prepared[i] as PreparedText),
        { ...trainOptions, onProgress: undefined },
      );
      evaluation = evaluateTopicModel(
        probe,
        split.test.map((i) => all[i] as Sample),
        { relevantLabels, nbThreshold: topic.nbThreshold, cosineThreshold: topic.cosineThreshold },
      );
    } catch (e) {
      if (!(e instanceof TrainingError)) throw e;
    }
  }
  const model = trainPrepared(all, prepared, trainOptions);
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
      return tx.topic.update({
        where: { id: topicId },
        data: {
          model: json,
          modelVersion: { increment: 1 },
          trainedAt: new Date(),
          relevantLabels: JSON.stringify(relevantLabels),
          evaluation: evaluation ? JSON.stringify({ ...evaluation, evaluatedAt: new Date().toISOString() }) : null,
        },
        select: { modelVersion: true },
      });
    },
    { timeout: 300_000, maxWait: 30_000 },
  );
  return { topicId, modelVersion: updated.modelVersion, classifier: model.classifier, samples: all.length, reviewSamples: reviews.length, labels, evaluation };
}
