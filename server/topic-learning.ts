/**
 * How a topic learns from its reviews, for the topic page: the model version in use, what it was
 * trained on, the review samples it holds and those waiting, and one evaluation per full retrain
 * on review samples held out of it (the chart over time); and how its threshold was chosen, with
 * the precision/recall curve of the latest calibration ({@link topicThreshold}).
 */
import { MIN_CALIBRATION_SAMPLES, parseCalibration, type Calibration, type CalibrationMethod } from "@/crawler/classify";
import type { Db } from "../lib/db";

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

/**
 * How the topic's threshold came about: chosen by the last full retrain on held-out reviews
 * ("f1", "target", "target-unreached"), kept because there were too few of them ("too-few"), or
 * set by hand ("manual": calibration off, never calibrated, or changed since the calibration).
 */
export type ThresholdSource = CalibrationMethod | "manual";

/** What {@link topicThreshold} returns: the threshold in use, its settings and the latest calibration curve. */
export interface TopicThreshold {
  topicId: number;
  /** The topic's nbThreshold now. */
  current: number;
  calibrate: boolean;
  targetPrecision: number | null;
  source: ThresholdSource;
  /** The latest full retrain's calibration (its curve, possibly empty); null before any was stored. */
  calibration: Calibration | null;
  /** The model version and time of that retrain. */
  version: number | null;
  at: Date | null;
  /** Held-out reviews a calibration needs (the page says it when there were fewer). */
  minSamples: number;
}

/** The threshold of a topic and how it was chosen, with the latest precision/recall curve; null when there is no such topic. */
export async function topicThreshold(db: Db, topicId: number): Promise<TopicThreshold | null> {
  const topic = await db.topic.findUnique({ where: { id: topicId }, select: { nbThreshold: true, calibrate: true, targetPrecision: true } });
  if (!topic) return null;
  const latest = await db.topicEvaluation.findFirst({
    where: { topicId, curve: { not: null } },
    orderBy: [{ at: "desc" }, { id: "desc" }],
    select: { version: true, at: true, curve: true },
  });
  const calibration = parseCalibration(latest?.curve);
  let source: ThresholdSource = "manual";
  if (calibration && topic.calibrate) {
    if (calibration.method === "too-few") source = "too-few";
    // An admin who typed another threshold since wins until the next full retrain.
    else if (calibration.applied && calibration.threshold === topic.nbThreshold) source = calibration.method;
  }
  return {
    topicId,
    current: topic.nbThreshold,
    calibrate: topic.calibrate,
    targetPrecision: topic.targetPrecision,
    source,
    calibration,
    version: latest?.version ?? null,
    at: latest?.at ?? null,
    minSamples: MIN_CALIBRATION_SAMPLES,
  };
}
