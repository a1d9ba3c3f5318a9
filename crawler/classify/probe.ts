/**
 * The probe of a full training (issue 16 items 1 and 5): a model trained on all samples but a
 * held-out tenth of the uploaded ones and a fifth of the review ones, so that the topic's figures
 * and its calibrated threshold come from samples the probe never saw. The final model is then
 * trained on everything, so nothing would be left to measure it on.
 *
 * No I/O: ./topic-train.ts runs it inside a full training, and `npm run bench:review-loop` runs the
 * same functions after each simulated retrain, so the bench's threshold moves as a topic's does.
 */
import type { ScoredSample } from "./calibrate";
import type { PreparedText } from "./features";
import type { Sample, TopicModel, TrainOptions } from "./model";
import { splitRandom } from "./random";
import { selfTrainPrepared, type SelfTrainOptions } from "./self-train";

/** Samples a topic needs before a probe is trained (fewer: no evaluation, no calibration). */
export const MIN_PROBE_SAMPLES = 20;
/** Share of the uploaded samples held out of the probe. */
export const UPLOAD_HOLDOUT = 0.1;
/** Review samples held out of the probe when there are at least this many. */
export const REVIEW_HOLDOUT_MIN = 10;
/** Share of the review samples held out of the probe (apart from the uploads, so the in-domain figure has enough of them). */
export const REVIEW_HOLDOUT = 0.2;

/** Which samples (positions in uploads-then-reviews order) the probe trains on and which it is measured on. */
export interface ProbeSplit {
  train: number[];
  heldOutUploads: number[];
  heldOutReviews: number[];
}

/**
 * The probe's split of `uploaded` uploaded samples followed by `reviews` review samples: a tenth
 * of the uploads and, from {@link REVIEW_HOLDOUT_MIN} reviews on, a fifth of the reviews held out,
 * both chosen with `seed`. Null under {@link MIN_PROBE_SAMPLES} samples in all.
 */
export function probeSplit(uploaded: number, reviews: number, seed: number): ProbeSplit | null {
  if (uploaded + reviews < MIN_PROBE_SAMPLES) return null;
  const uploadSplit = splitRandom(
    Array.from({ length: uploaded }, (_, i) => i),
    UPLOAD_HOLDOUT,
    seed,
  );
  const reviewIndex = Array.from({ length: reviews }, (_, i) => uploaded + i);
  const reviewSplit = reviews >= REVIEW_HOLDOUT_MIN ? splitRandom(reviewIndex, REVIEW_HOLDOUT, seed) : { train: reviewIndex, test: [] };
  return { train: [...uploadSplit.train, ...reviewSplit.train], heldOutUploads: uploadSplit.test, heldOutReviews: reviewSplit.test };
}

/**
 * Train the probe on the split's training samples, weighted as the full training weighs them and
 * self-trained on the same unlabelled posts. Throws TrainingError when the training part lacks a
 * class (a tiny set can lose its only on-topic sample to the held-out part).
 */
export function trainProbe(
  samples: readonly Sample[],
  prepared: readonly PreparedText[],
  unlabelled: readonly PreparedText[],
  split: ProbeSplit,
  options: TrainOptions & { sampleWeights: readonly number[] },
  selfTrain: SelfTrainOptions,
): TopicModel {
  const ids = split.train;
  return selfTrainPrepared(
    ids.map((i) => samples[i] as Sample),
    ids.map((i) => prepared[i] as PreparedText),
    unlabelled,
    {
      ...options,
      sampleWeights: ids.map((i) => options.sampleWeights[i] as number),
      ...(options.inDomain ? { inDomain: ids.map((i) => options.inDomain?.[i] === true) } : {}),
      onProgress: undefined,
    },
    selfTrain,
  ).model;
}

/**
 * What calibration (./calibrate.ts) chooses on: the probe's P(on-topic) of each held-out review with
 * the reviewer's answer, and of each crawled post nobody reviewed (the expected curve's population).
 */
export function calibrationInput(
  probe: TopicModel,
  samples: readonly Sample[],
  prepared: readonly PreparedText[],
  unlabelled: readonly PreparedText[],
  split: ProbeSplit,
  relevantLabels: readonly string[],
): { heldOut: ScoredSample[]; population: number[] } {
  return {
    heldOut: heldOutReviewScores(probe, samples, prepared, split, relevantLabels),
    population: unlabelled.map((p) => probe.predictPrepared(p).score),
  };
}

/** The probe's P(on-topic) of each held-out review and whether the reviewer said on-topic. */
export function heldOutReviewScores(
  probe: TopicModel,
  samples: readonly Sample[],
  prepared: readonly PreparedText[],
  split: ProbeSplit,
  relevantLabels: readonly string[],
): ScoredSample[] {
  const relevant = new Set(relevantLabels);
  return split.heldOutReviews.map((i) => ({
    score: probe.predictPrepared(prepared[i] as PreparedText).score,
    relevant: relevant.has((samples[i] as Sample).label),
  }));
}
