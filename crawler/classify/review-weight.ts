/**
 * How much a review sample weighs in training (issue 16): a reviewer's confirm or dismiss is an
 * in-domain example (a campus post), while uploaded samples are usually another source (news
 * titles). Counted once, 300 reviews barely move a model trained on 63,758 news titles
 * (`npm run bench:review-loop`: F1 68.94% → 72.03% on LilyBBS); counted 50 times they reach 77%.
 *
 * A review counts as W samples: naive Bayes adds W to its counts and documents (the same as
 * repeating it W times), in a full training and in a fold alike, so folding stays exactly a full
 * training on the same samples. W must therefore not change between two full trainings, which is
 * why it depends only on the number of uploaded samples (fixed until the next full training) and
 * never on the number of reviews: a rule such as uploaded / (20 × reviews) would change the weight
 * of every earlier review with each new one, and a fold could no longer be exact.
 *
 * Default rule: W = clamp(round(uploaded / 1000), 1, 50): 1 for the small hand-made topics (a review
 * weighs as an uploaded sample), 50 for a topic trained on tens of thousands of news titles (the
 * weight measured best there, see README "Review loop"). `CAMPUSWATCH_REVIEW_WEIGHT` sets W outright.
 */

/** Uploaded samples per unit of review weight in the default rule. */
export const UPLOADS_PER_REVIEW_WEIGHT = 1000;
/** The largest review weight of the default rule (more gained under a point in the bench, see README). */
export const MAX_REVIEW_WEIGHT = 50;

/**
 * The weight of each review sample of a topic trained on `uploaded` uploaded samples:
 * `CAMPUSWATCH_REVIEW_WEIGHT` when set (an integer ≥ 1), else clamp(round(uploaded / 1000), 1, 50).
 * Throws for a malformed `CAMPUSWATCH_REVIEW_WEIGHT`.
 */
export function reviewWeight(uploaded: number, env: Readonly<Record<string, string | undefined>> = process.env): number {
  const raw = env.CAMPUSWATCH_REVIEW_WEIGHT;
  if (raw !== undefined && raw.trim() !== "") {
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 1) throw new Error(`CAMPUSWATCH_REVIEW_WEIGHT must be an integer >= 1 (got ${JSON.stringify(raw)})`);
    return n;
  }
  return Math.min(MAX_REVIEW_WEIGHT, Math.max(1, Math.round(uploaded / UPLOADS_PER_REVIEW_WEIGHT)));
}

/**
 * Each item repeated its weight times, in order (the counting of a weighted sample: naive Bayes
 * counts are additive, so W copies are exactly a weight of W). Weights must be integers ≥ 1.
 */
export function repeatByWeight<T>(items: readonly T[], weights: readonly number[]): T[] {
  if (weights.length !== items.length) throw new Error(`got ${items.length} samples but ${weights.length} weights`);
  const out: T[] = [];
  items.forEach((item, i) => {
    const w = weights[i] as number;
    if (!Number.isInteger(w) || w < 1) throw new Error(`sample weights must be integers >= 1 (got ${w})`);
    for (let k = 0; k < w; k++) out.push(item);
  });
  return out;
}
