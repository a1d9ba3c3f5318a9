/**
 * A topic learns from its reviews (the `learn` job, issue 16): the review samples not yet in its
 * model are folded into it (./model-fold.ts, seconds), or, every CAMPUSWATCH_RETRAIN_EVERY review
 * samples (default 50), the topic is trained again in full (./topic-train.ts: refined weights, χ²
 * weights, the NBSVM part and the topic vector brought up to date, and an evaluation on held-out
 * reviews stored for the chart). Either way the topic's open flags are scored again.
 *
 * The model is written once, at the end, in one transaction, and only over the version it was
 * read at: a learn job killed midway, or racing another writer, leaves the previous model in use.
 */
import type { Db } from "../../lib/db";
import { FoldError, foldSamples } from "./model-fold";
import { ModelFormatError, TopicModel } from "./model";
import { reviewWeight } from "./review-weight";
import { topicById } from "./topic-loader";
import { classifyPosts, type ClassifyResult } from "./topic-classify";
import { backfillReviewSamples, trainTopic, type TopicProgress } from "./topic-train";

/** Review samples between two full retrains when CAMPUSWATCH_RETRAIN_EVERY is not set. */
export const DEFAULT_RETRAIN_EVERY = 50;

/** `CAMPUSWATCH_RETRAIN_EVERY`: review samples folded in before the next learn job retrains in full. */
export function retrainEveryFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.CAMPUSWATCH_RETRAIN_EVERY;
  if (raw === undefined || raw.trim() === "") return DEFAULT_RETRAIN_EVERY;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`CAMPUSWATCH_RETRAIN_EVERY must be an integer >= 1 (got ${JSON.stringify(raw)})`);
  return n;
}

/** Options of {@link learnTopic}. */
export interface LearnTopicOptions {
  /** Full retrain once this many review samples were folded in since the last one. @default retrainEveryFromEnv() */
  retrainEvery?: number;
  /** Retrain in full even with nothing new to fold (the scheduler's daily training). @default false */
  full?: boolean;
  onProgress?: (p: TopicProgress) => void;
}

/** What {@link learnTopic} did. */
export interface LearnTopicResult {
  topicId: number;
  /** "folded": new reviews counted into the model; "retrained": full training; "nothing": see `reason`. */
  mode: "folded" | "retrained" | "nothing";
  /** English: why nothing was learned, or why a full retrain ran instead of a fold. */
  reason: string | null;
  /** The model version in use afterwards. */
  modelVersion: number;
  /** Review samples this job brought into the model. */
  learned: number;
  /** Re-scoring of the topic's open flags (null when nothing was learned). */
  rescored: ClassifyResult | null;
}

const FOLD_ATTEMPTS = 3;
/** Rounds of one job: reviews stored while it ran found no new job to ask for (same key), so it looks again. */
const LEARN_ROUNDS = 3;

/**
 * Fold the topic's not-yet-learned review samples into its model, or retrain it in full when due,
 * then score its open flags again; again while reviews keep arriving (a few rounds at most).
 * Throws TopicNotFoundError for a deleted topic.
 */
export async function learnTopic(db: Db, topicId: number, options: LearnTopicOptions = {}): Promise<LearnTopicResult> {
  const every = options.retrainEvery ?? retrainEveryFromEnv();
  const progress = options.onProgress ?? (() => undefined);
  await backfillReviewSamples(db, topicId);
  let result = await learnOnce(db, topicId, every, progress, options.full === true);
  for (let round = 1; round < LEARN_ROUNDS && result.mode !== "nothing"; round++) {
    if ((await db.topicSample.count({ where: { topicId, source: "review", learnedAt: null } })) === 0) break;
    const next = await learnOnce(db, topicId, every, progress);
    if (next.mode === "nothing") break;
    result = {
      ...next,
      mode: result.mode === "retrained" ? "retrained" : next.mode,
      reason: next.reason ?? result.reason,
      learned: next.mode === "retrained" ? next.learned : result.learned + next.learned,
    };
  }
  return result;
}

async function learnOnce(db: Db, topicId: number, every: number, progress: (p: TopicProgress) => void, full = false): Promise<LearnTopicResult> {
  for (let attempt = 1; ; attempt++) {
    const topic = await topicById(db, topicId);
    const pending = await db.topicSample.findMany({
      where: { topicId, source: "review", learnedAt: null },
      select: { id: true, text: true, label: true },
      orderBy: { id: "asc" },
    });
    const nothing = (reason: string): LearnTopicResult => ({ topicId, mode: "nothing", reason, modelVersion: topic.modelVersion, learned: 0, rescored: null });
    if (topic.model === null) return nothing(`topic "${topic.name}" has no model yet: its ${pending.length} review samples count when it is trained`);
    if (pending.length === 0 && !topic.retrainDue && !full) return nothing("no review samples to learn");

    let why = full ? "the daily full training" : fullRetrainReason(topic, pending.length, every);
    let model: TopicModel | null = null;
    if (!why) {
      try {
        // The weight the last full training gave reviews (it depends only on the uploads it counted).
        model = foldSamples(TopicModel.fromJSON(topic.model), pending, reviewWeight(topic.trainUploadSamples));
      } catch (e) {
        if (!(e instanceof FoldError || e instanceof ModelFormatError)) throw e;
        why = `cannot fold: ${e.message}`;
      }
    }
    if (why || !model) {
      progress({ phase: "train", message: `full retrain: ${why ?? ""}`, step: "training", values: { samples: pending.length } });
      const r = await trainTopic(db, topicId, undefined, { onProgress: progress });
      return {
        topicId,
        mode: "retrained",
        reason: why,
        modelVersion: r.modelVersion,
        learned: r.reviewSamples,
        rescored: await rescoreOpenFlags(db, topicId, progress),
      };
    }

    progress({ phase: "store", message: `folding ${pending.length} review samples into the model`, step: "storing", values: { samples: pending.length } });
    const json = JSON.stringify(model.toJSON());
    const ids = pending.map((s) => s.id);
    const stored = await db.$transaction(async (tx) => {
      // Only over the version read: a full training or another learn that stored meanwhile wins, and this one reads again.
      const now = new Date();
      const won = await tx.topic.updateMany({
        where: { id: topicId, modelVersion: topic.modelVersion },
        data: {
          model: json,
          modelVersion: { increment: 1 },
          reviewsLearned: { increment: ids.length },
          reviewsSinceRetrain: { increment: ids.length },
          learnedAt: now,
        },
      });
      if (won.count === 0) return false;
      const marked = await tx.topicSample.updateMany({ where: { id: { in: ids }, learnedAt: null }, data: { learnedAt: now } });
      // A sample replaced while it was being folded (a reviewer changed their mind) left its counts
      // in the model with no row to take them back from: the next learn retrains in full.
      if (marked.count < ids.length) await tx.topic.update({ where: { id: topicId }, data: { retrainDue: true } });
      return true;
    });
    if (stored) {
      return {
        topicId,
        mode: "folded",
        reason: null,
        modelVersion: topic.modelVersion + 1,
        learned: ids.length,
        rescored: await rescoreOpenFlags(db, topicId, progress),
      };
    }
    if (attempt >= FOLD_ATTEMPTS) throw new Error(`topic ${topicId}: the model kept changing while the reviews were folded in; try again`);
  }
}

/** Why the next learn must be a full retrain rather than a fold, or null. */
function fullRetrainReason(
  topic: { retrainDue: boolean; reviewsSinceRetrain: number; trainUploadSamples: number; trainReviewSamples: number },
  pending: number,
  every: number,
): string | null {
  if (topic.retrainDue) return "a review already in the model was replaced";
  // A model trained before samples were tracked holds old reviews derived at training time: folding
  // their (backfilled) rows would count them twice, so train once in full, which counts each once.
  if (topic.trainUploadSamples + topic.trainReviewSamples === 0) return "the model predates review tracking";
  if (topic.reviewsSinceRetrain + pending >= every)
    return `${topic.reviewsSinceRetrain + pending} review samples since the last full training (every ${every})`;
  return null;
}

/** Score the posts of the topic's open flags again with its current model (flags that no longer hold close). */
export async function rescoreOpenFlags(db: Db, topicId: number, progress: (p: TopicProgress) => void = () => undefined): Promise<ClassifyResult> {
  const postIds = (await db.flag.findMany({ where: { topicId, status: "open" }, select: { postId: true }, orderBy: { postId: "asc" } })).map((f) => f.postId);
  progress({
    phase: "rescore",
    message: `re-scoring ${postIds.length} open flags`,
    step: "rescoring",
    values: { done: 0, total: postIds.length },
    done: 0,
    total: postIds.length,
  });
  return classifyPosts(db, postIds, { topics: [topicId] });
}
