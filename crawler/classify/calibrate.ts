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
 * Which curve. Reviews are not a sample of what the topic sees: the 待复核 queue picks posts near
 * the threshold and reviewers answer flags, posts above it. The maximum F1 of the held-out reviews'
 * own curve is therefore the maximum on the wrong posts, and with 60 held-out answers it is noisy
 * too: in `npm run bench:review-loop` (LilyBBS, seed 2) it moved the threshold 0.5 → 0.87 → 0.54 →
 * 0.07 → 0.41 → 0.61 → 0.007 and F1 fell from 78.4% to 72.5% after 300 answers. But the queue
 * chooses by score alone, so P(on-topic | score) is the same among reviewed posts as among all
 * posts. So when the probe has also scored {@link MIN_POPULATION} crawled posts nobody reviewed
 * (`population`), the held-out reviews fit that probability and the curve is the expected one
 * over those posts: at threshold t, expected true positives Σ p(s) and false positives Σ 1 − p(s)
 * over the posts scoring ≥ t, false negatives Σ p(s) below it. Without such posts, the held-out
 * reviews' own curve as before.
 *
 * The fit is Platt's sigmoid on the probe's log-odds (Platt 1999, with Lin, Lin & Weng's 2007
 * targets) with its slope fixed at 1: a shift of the log-odds, which is what a different share of
 * on-topic posts on the platform than in the uploads does to a posterior (Saerens et al. 2002).
 * Queue answers lie in a narrow band of scores around the threshold, from which a slope cannot
 * be told: with a free slope, LilyBBS seed 1 moved to 0.035 after 300 answers (F1 84.5% → 80.0%),
 * because a flat fitted slope extrapolates many on-topic posts among the low scores. A prior of
 * {@link PLATT_PRIOR} answers that the probe is right (shift 0) keeps a handful of answers from
 * moving it far, and the threshold moves only for {@link MIN_F1_GAIN}.
 *
 * Pure functions: ./topic-train.ts scores the held-out reviews and stores the result.
 */

/** Held-out review samples needed before a threshold is chosen on them. */
export const MIN_CALIBRATION_SAMPLES = 10;

/** Crawled posts (scored, not reviewed) needed before the curve is the expected one over them. */
export const MIN_POPULATION = 50;

/** The prior of the Platt fit, in held-out reviews: the probe's own scores count as this many answers. */
export const PLATT_PRIOR = 10;

/**
 * On the expected curve, the threshold moves only when that gains at least this much expected F1
 * over keeping it: where the curve is flat a refit on a new handful of held-out reviews would
 * otherwise move it back and forth for nothing.
 */
export const MIN_F1_GAIN = 0.01;

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
  /**
   * What the curve is over: "posts", the expected curve over `posts` crawled posts (P(on-topic |
   * score) fitted on the held-out reviews); "reviews", the held-out reviews' own. Absent in
   * calibrations stored before the expected curve existed (they were "reviews").
   */
  basis?: "posts" | "reviews";
  /** Crawled posts the expected curve is over (0 for "reviews"). */
  posts?: number;
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
  /**
   * P(on-topic) of crawled posts nobody reviewed, under the same probe: from
   * {@link MIN_POPULATION} of them the curve is the expected one over them (module comment).
   */
  population?: readonly number[];
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

/** Log-odds of a probability, clipped so that saturated scores (1e-12, 1 − 1e-12) stay finite. */
function logOdds(p: number): number {
  const c = Math.min(1 - 1e-9, Math.max(1e-9, p));
  return Math.log(c / (1 - c));
}

/**
 * Platt scaling: a and b of P(on-topic | score) = 1 / (1 + exp(−(a·logit(score) + b))), fitted to
 * the samples by Newton's method on the cross-entropy with Platt's smoothed targets
 * ((N₊ + 1) / (N₊ + 2) and 1 / (N₋ + 2)), which keep a and b finite even when the samples are
 * separated perfectly. With `prior` > 0, a Gaussian prior that the probe's scores are right
 * (a = 1, b = 0) weighs about that many samples: a few held-out reviews then move the probability
 * a little, many move it far. With `fixedSlope`, a stays at that value and b alone is fitted (the
 * log-odds shift {@link calibrateThreshold} uses). Needs both an on-topic and an off-topic sample.
 */
export function fitPlatt(samples: readonly ScoredSample[], prior = 0, fixedSlope?: number): { a: number; b: number } {
  // Curvature per sample of the cross-entropy is p(1 − p)·z² for a and p(1 − p) for b, about 1
  // and 1/4 for scores of log-odds ±2 near a threshold: the prior's weights in sample equivalents.
  const la = prior;
  const lb = prior / 4;
  const pos = samples.filter((s) => s.relevant).length;
  const neg = samples.length - pos;
  const hi = (pos + 1) / (pos + 2);
  const lo = 1 / (neg + 2);
  const z = samples.map((s) => logOdds(s.score));
  const t = samples.map((s) => (s.relevant ? hi : lo));
  const loss = (a: number, b: number) => {
    let f = 0;
    z.forEach((zi, i) => {
      const u = a * zi + b;
      const ti = t[i] as number;
      // −[t·log σ(u) + (1 − t)·log(1 − σ(u))], written to stay finite for large |u|.
      f += u >= 0 ? (1 - ti) * u + Math.log1p(Math.exp(-u)) : -ti * u + Math.log1p(Math.exp(u));
    });
    return f + (la * (a - 1) ** 2 + lb * b ** 2) / 2;
  };
  let a = fixedSlope ?? 1;
  let b = 0;
  let f = loss(a, b);
  for (let iter = 0; iter < 100; iter++) {
    let ga = la * (a - 1);
    let gb = lb * b;
    let haa = 1e-12 + la;
    let hab = 0;
    let hbb = 1e-12 + lb;
    z.forEach((zi, i) => {
      const p = 1 / (1 + Math.exp(-(a * zi + b)));
      const d = p - (t[i] as number);
      const w = p * (1 - p);
      ga += d * zi;
      gb += d;
      haa += w * zi * zi;
      hab += w * zi;
      hbb += w;
    });
    if ((fixedSlope !== undefined || Math.abs(ga) < 1e-9) && Math.abs(gb) < 1e-9) break;
    const det = haa * hbb - hab * hab;
    // A fixed slope: Newton on b alone.
    const da = fixedSlope !== undefined ? 0 : det > 0 ? (hbb * ga - hab * gb) / det : ga;
    const db = fixedSlope !== undefined ? gb / hbb : det > 0 ? (haa * gb - hab * ga) / det : gb;
    // Backtracking: halve the Newton step until the loss goes down.
    let step = 1;
    while (step > 1e-10 && loss(a - step * da, b - step * db) > f - 1e-4 * step * (ga * da + gb * db)) step /= 2;
    if (step <= 1e-10) break;
    a -= step * da;
    b -= step * db;
    f = loss(a, b);
  }
  return { a, b };
}

/**
 * The expected precision/recall curve over crawled posts scoring `population` when a post of score
 * s is on-topic with probability `pOn(s)`: one point per distinct score, threshold descending.
 * Empty when the expected number of on-topic posts is 0.
 */
export function expectedCurve(population: readonly number[], pOn: (score: number) => number): CurvePoint[] {
  const sorted = [...population].sort((x, y) => y - x);
  const p = sorted.map(pOn);
  const positives = p.reduce((sum, x) => sum + x, 0);
  if (!(positives > 0)) return [];
  const points: CurvePoint[] = [];
  let tp = 0;
  let flagged = 0;
  for (let i = 0; i < sorted.length; i++) {
    tp += p[i] as number;
    flagged++;
    const score = sorted[i] as number;
    const next = sorted[i + 1];
    if (next !== undefined && next === score) continue;
    const precision = tp / flagged;
    const recall = Math.min(1, tp / positives);
    const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
    points.push({ threshold: between(score, next ?? null), precision, recall, f1 });
  }
  return points;
}

/** The expected figures of the decision P ≥ `threshold` over the population; null when no post is expected on-topic. */
function expectedPoint(population: readonly number[], pOn: (score: number) => number, threshold: number): CurvePoint | null {
  let tp = 0;
  let positives = 0;
  let flagged = 0;
  for (const score of population) {
    const p = pOn(score);
    positives += p;
    if (score >= threshold) {
      tp += p;
      flagged++;
    }
  }
  if (!(positives > 0)) return null;
  const precision = flagged > 0 ? tp / flagged : 0;
  const recall = Math.min(1, tp / positives);
  return { threshold, precision, recall, f1: precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0 };
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

  const population = options.population ?? [];
  const platt = population.length >= MIN_POPULATION ? fitPlatt(samples, PLATT_PRIOR, 1) : null;
  // A slope ≤ 0 would say higher scores are less often on-topic: nothing to extrapolate from, so the reviews' own curve.
  const basis: "posts" | "reviews" = platt && platt.a > 0 ? "posts" : "reviews";
  const pOn = (score: number) => (platt ? 1 / (1 + Math.exp(-(platt.a * logOdds(score) + platt.b))) : 0);
  const curve = basis === "posts" ? expectedCurve(population, pOn) : precisionRecallCurve(samples); // threshold descending
  if (curve.length === 0) return keep(`no crawled post is expected on-topic: threshold ${options.current} kept`);
  let best: CurvePoint | null = null;
  /** The maximum the hysteresis passed over (its threshold differs from the current one). */
  let held: CurvePoint | null = null;
  let method: CalibrationMethod;
  if (target === null) {
    method = "f1";
    // Descending with a strict improvement: of equal F1, the higher threshold stays.
    for (const p of curve) if (!best || p.f1 > best.f1 + EPS) best = p;
    if (basis === "posts" && best) {
      // Hysteresis (MIN_F1_GAIN): the current threshold's own point, kept unless the best gains enough.
      const here = expectedPoint(population, pOn, options.current);
      if (here && best.f1 < here.f1 + MIN_F1_GAIN) {
        held = best.threshold === here.threshold ? null : best;
        best = here;
        if (!curve.some((p) => p.threshold === here.threshold)) curve.push(here);
        curve.sort((x, y) => y.threshold - x.threshold);
      }
    }
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
  const figures =
    basis === "posts"
      ? `expected precision ${fmt(point.precision)}, recall ${fmt(point.recall)}, F1 ${fmt(point.f1)} over ${population.length} crawled posts, P(on-topic | score) fitted on ${samples.length} held-out reviews`
      : `precision ${fmt(point.precision)}, recall ${fmt(point.recall)}, F1 ${fmt(point.f1)} on ${samples.length} held-out reviews`;
  const how =
    method === "f1"
      ? held
        ? `maximum F1 kept: threshold ${held.threshold} would gain under ${MIN_F1_GAIN} expected F1 (${fmt(held.f1)})`
        : "maximum F1"
      : method === "target"
        ? `lowest threshold with precision >= ${target}`
        : `no threshold reaches precision ${target}; the best precision`;
  return {
    ...base,
    basis,
    posts: basis === "posts" ? population.length : 0,
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
