/**
 * Calibrated thresholds (issue 16 item 5): after a full retrain, the topic's threshold on
 * P(on-topic) is chosen on review samples the probe model was not trained on, from the
 * precision/recall curve over thresholds:
 * - no target precision: the threshold that maximises F1 (ties: the higher threshold, fewer posts
 *   for reviewers at the same F1);
 * - a target precision (the admin's, 0.5–0.99): the lowest threshold whose precision reaches it
 *   (the most recall at that precision); when none does, the one with the best precision, said so.
 * Under {@link MIN_CALIBRATION_SAMPLES} held-out reviews, or without both an on-topic and an
 * off-topic one among them, the curve says nothing reliable: the threshold stays.
 *
 * Pure functions: ./topic-train.ts scores the held-out reviews and stores the result.
 */

/** Held-out review samples needed before a threshold is chosen on them. */
export const MIN_CALIBRATION_SAMPLES = 10;

/** Points kept of a curve (the stored JSON and the chart). */
export const MAX_CURVE_POINTS = 50;

/** One held-out review: its P(on-topic) under the probe model, and whether the reviewer said on-topic. */
export interface ScoredSample {
  score: number;
  relevant: boolean;
}

/** One point of the precision/recall curve: the decision P(on-topic) ≥ threshold on the held-out reviews. */
export interface CurvePoint {
  threshold: number;
  precision: number;
  recall: number;
  f1: number;
}

/**
 * How the threshold was chosen: "f1" (maximum F1), "target" (the lowest threshold reaching the
 * target precision), "target-unreached" (best precision instead), "too-few" (threshold kept).
 */
export type CalibrationMethod = "f1" | "target" | "target-unreached" | "too-few";

/** The outcome of {@link calibrateThreshold}, stored as JSON on the TopicEvaluation row (`curve`). */
export interface Calibration {
  method: CalibrationMethod;
  /** The threshold calibration chose; null when "too-few". */
  chosen: number | null;
  /** Whether `chosen` became the topic's threshold (false: calibration off, or nothing chosen). */
  applied: boolean;
  /** The topic's threshold before. */
  previous: number;
  /** The threshold in effect afterwards. */
  threshold: number;
  targetPrecision: number | null;
  heldOut: number;
  onTopic: number;
  /** English, for the CLI and logs. */
  reason: string;
  /** At most {@link MAX_CURVE_POINTS}, threshold ascending; the chosen point is among them. Empty when "too-few". */
  points: CurvePoint[];
}

/** Options of {@link calibrateThreshold}. */
export interface CalibrateOptions {
  /** The topic's threshold now (kept when nothing is chosen or calibration is off). */
  current: number;
  /** Hold this precision instead of maximising F1; null/undefined: maximise F1. */
  targetPrecision?: number | null;
  /** False: compute the curve and the choice, but keep `current` (the admin switched calibration off). @default true */
  apply?: boolean;
}

// Float noise in precision and F1 (e.g. 2/3 computed two ways) must not break a tie or miss a target.
const EPS = 1e-9;

/** A threshold between `lower` (exclusive) and `upper` (inclusive), as short as it can be written. */
function between(upper: number, lower: number | null): number {
  if (lower === null) return upper;
  // The midpoint, not the score itself: the final model (trained on all samples) scores a little
  // differently from the probe, and saturated naive Bayes scores (0.9999 vs 1e-6) give ~0.5.
  const mid = (upper + lower) / 2;
  for (const digits of [2, 4, 6]) {
    const r = Math.round(mid * 10 ** digits) / 10 ** digits;
    if (r > lower && r <= upper) return r;
  }
  return mid;
}

/**
 * The full precision/recall curve: one point per distinct score (the decision P ≥ threshold
 * flags exactly the samples scoring at least that), threshold descending. Needs ≥ 1 on-topic sample.
 */
export function precisionRecallCurve(samples: readonly ScoredSample[]): CurvePoint[] {
  const positives = samples.filter((s) => s.relevant).length;
  if (positives === 0) return [];
  const sorted = [...samples].sort((a, b) => b.score - a.score);
  const points: CurvePoint[] = [];
  let tp = 0;
  let fp = 0;
  for (let i = 0; i < sorted.length; i++) {
    const s = sorted[i] as ScoredSample;
    if (s.relevant) tp++;
    else fp++;
    const next = sorted[i + 1];
    // Samples with the same score are decided together: one point after the last of them.
    if (next && next.score === s.score) continue;
    const precision = tp / (tp + fp);
    const recall = tp / positives;
    const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
    points.push({ threshold: between(s.score, next ? next.score : null), precision, recall, f1 });
  }
  return points;
}

/** At most `max` points, evenly spread over the curve, always keeping `keep`; threshold ascending. */
export function thinCurve(points: readonly CurvePoint[], keep: CurvePoint | null, max = MAX_CURVE_POINTS): CurvePoint[] {
  let chosen: CurvePoint[];
  if (points.length <= max) chosen = [...points];
  else {
    const picked = new Set<CurvePoint>();
    const slots = keep ? max - 1 : max;
    for (let j = 0; j < slots; j++) picked.add(points[Math.round((j * (points.length - 1)) / Math.max(1, slots - 1))] as CurvePoint);
    if (keep) picked.add(keep);
    chosen = [...picked];
  }
  return chosen.sort((a, b) => a.threshold - b.threshold);
}

/**
 * Choose the topic's threshold on held-out review samples (see the module comment for the rules).
 * Deterministic: the same samples give the same choice whatever their order.
 */
export function calibrateThreshold(samples: readonly ScoredSample[], options: CalibrateOptions): Calibration {
  const target = options.targetPrecision ?? null;
  const apply = options.apply ?? true;
  const onTopic = samples.filter((s) => s.relevant).length;
  const base = { previous: options.current, targetPrecision: target, heldOut: samples.length, onTopic };
  const keep = (reason: string): Calibration => ({ ...base, method: "too-few", chosen: null, applied: false, threshold: options.current, reason, points: [] });
  if (samples.length < MIN_CALIBRATION_SAMPLES)
    return keep(`${samples.length} held-out reviews (calibration needs ${MIN_CALIBRATION_SAMPLES}): threshold ${options.current} kept`);
  if (onTopic === 0 || onTopic === samples.length)
    return keep(`the ${samples.length} held-out reviews are all ${onTopic === 0 ? "off-topic" : "on-topic"}: threshold ${options.current} kept`);

  const curve = precisionRecallCurve(samples); // threshold descending
  let best: CurvePoint | null = null;
  let method: CalibrationMethod;
  if (target === null) {
    method = "f1";
    // Descending with a strict improvement: of equal F1, the higher threshold stays.
    for (const p of curve) if (!best || p.f1 > best.f1 + EPS) best = p;
  } else {
    // Descending, so the last point reaching the target is the lowest threshold that does.
    for (const p of curve) if (p.precision >= target - EPS) best = p;
    method = best ? "target" : "target-unreached";
    if (!best) {
      // Equal precision at a lower threshold flags more on-topic posts: the lower one.
      for (const p of curve) if (!best || p.precision >= best.precision - EPS) best = p;
    }
  }
  const point = best as CurvePoint;
  const fmt = (x: number) => x.toFixed(3);
  const figures = `precision ${fmt(point.precision)}, recall ${fmt(point.recall)}, F1 ${fmt(point.f1)} on ${samples.length} held-out reviews`;
  const how =
    method === "f1"
      ? "maximum F1"
      : method === "target"
        ? `lowest threshold with precision >= ${target}`
        : `no threshold reaches precision ${target}; the best precision`;
  return {
    ...base,
    method,
    chosen: point.threshold,
    applied: apply,
    threshold: apply ? point.threshold : options.current,
    reason: `${how}: threshold ${point.threshold} (${figures})${apply ? "" : `; calibration is off, threshold ${options.current} kept`}`,
    points: thinCurve(curve, point),
  };
}

/** Read a stored calibration (TopicEvaluation.curve); null when absent or unreadable. */
export function parseCalibration(json: string | null | undefined): Calibration | null {
  if (!json) return null;
  try {
    const v = JSON.parse(json) as Partial<Calibration> | null;
    if (!v || typeof v !== "object" || typeof v.method !== "string" || !Array.isArray(v.points)) return null;
    return v as Calibration;
  } catch {
    return null;
  }
}
