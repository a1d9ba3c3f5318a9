/**
 * How a topic learns from its reviews, for the topic page: the model version in use, what it was
 * trained on, the review samples it holds and those waiting, and one evaluation per full retrain
 * on review samples held out of it (the chart over time).
 */
import type { Db } from "../db";

/** One full retrain's figures on held-out review samples (null where undefined). */
export interface TopicEvaluationPoint {
  version: number;
  at: Date;
  trainSize: number;
  reviewSamples: number;
  heldOut: number;
  precision: number | null;
  recall: number | null;
  f1: number | null;
  threshold: number;
}

/** What {@link topicLearning} returns. */
export interface TopicLearning {
  topicId: number;
  /** The model version in use (0: never trained); every fold and every full retrain adds one. */
  modelVersion: number;
  trainedAt: Date | null;
  learnedAt: Date | null;
  /** The last full training's samples: uploaded + review. */
  trainSize: { uploaded: number; reviews: number; total: number };
  /** Review samples the model in use holds (the full training's and those folded in since). */
  reviewsLearned: number;
  /** Review samples folded in since the last full retrain. */
  reviewsSinceRetrain: number;
  /** Review samples stored but not yet in the model (a learn job is on its way, or the topic is untrained). */
  reviewsPending: number;
  /** The next learn job retrains in full (a learned review was replaced). */
  retrainDue: boolean;
  /** Oldest first. */
  evaluations: TopicEvaluationPoint[];
}

/** The learning state of a topic, or null when there is no such topic. */
export async function topicLearning(db: Db, topicId: number): Promise<TopicLearning | null> {
  const topic = await db.topic.findUnique({
    where: { id: topicId },
    select: {
      modelVersion: true,
      trainedAt: true,
      learnedAt: true,
      trainUploadSamples: true,
      trainReviewSamples: true,
      reviewsLearned: true,
      reviewsSinceRetrain: true,
      retrainDue: true,
    },
  });
  if (!topic) return null;
  const [reviewsPending, evaluations] = await Promise.all([
    db.topicSample.count({ where: { topicId, source: "review", learnedAt: null } }),
    db.topicEvaluation.findMany({
      where: { topicId },
      orderBy: [{ at: "asc" }, { id: "asc" }],
      select: { version: true, at: true, trainSize: true, reviewSamples: true, heldOut: true, precision: true, recall: true, f1: true, threshold: true },
    }),
  ]);
  return {
    topicId,
    modelVersion: topic.modelVersion,
    trainedAt: topic.trainedAt,
    learnedAt: topic.learnedAt,
    trainSize: { uploaded: topic.trainUploadSamples, reviews: topic.trainReviewSamples, total: topic.trainUploadSamples + topic.trainReviewSamples },
    reviewsLearned: topic.reviewsLearned,
    reviewsSinceRetrain: topic.reviewsSinceRetrain,
    reviewsPending,
    retrainDue: topic.retrainDue,
    evaluations,
  };
}
