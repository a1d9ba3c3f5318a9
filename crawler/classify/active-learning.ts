/**
 * Which texts a topic most wants a reviewer to label (the 待复核 queue): uncertainty sampling with
 * a diversity filter, or the texts the topic would flag today. No I/O; the CLI (`topics queue`),
 * the dashboard's queue and the review-loop benchmark all choose through {@link selectForReview}.
 *
 * Uncertainty: a text whose P(on-topic) is nearest the topic's threshold is the one whose label
 * moves the decision boundary most; a confident text mostly repeats what the model knows.
 * Diversity: crawled posts come in near-duplicate bursts (reposts, 【转】 copies, the same notice in
 * three boards); ranking by margin alone would spend the whole queue on one of them, so a candidate
 * too similar to one already chosen is skipped (greedy, in margin order).
 */
import type { TopicModel } from "./model";
import { relevanceDecision } from "./relevance-rule";

/** How the queue is ordered. */
export type ReviewStrategy = "uncertain" | "flagged";

/** The review strategies, for option parsing. */
export const REVIEW_STRATEGIES: readonly ReviewStrategy[] = ["uncertain", "flagged"];

/**
 * Character-3-shingle Jaccard similarity at or above which two texts count as near-duplicates.
 * For a 15-character title, one changed character keeps about 0.6 and a 【转载】 prefix about 0.75,
 * while two different titles on the same event rarely share a third of their shingles; 0.5 sits
 * between. Measured on nothing larger than that reasoning and the unit tests: tune with the bench.
 */
export const DEFAULT_MAX_SIMILARITY = 0.5;

const SHINGLE = 3;

/** A candidate already scored by a topic model. */
export interface ScoredCandidate {
  text: string;
  /** P(on-topic). */
  score: number;
  /** Cosine relevance to the topic vector (0 without one). */
  cosine: number;
}

/** Options of {@link selectForReview} and {@link selectScored}. */
export interface ReviewSelectOptions {
  /** How many to return (fewer when there are not enough distinct or flagged candidates). */
  limit: number;
  /** @default "uncertain" */
  strategy?: ReviewStrategy;
  /** The topic's classifier threshold (P(on-topic) ≥ it flags). */
  threshold: number;
  /** The topic's cosine threshold; only with `hasVector`. @default Infinity (no cosine flags) */
  cosineThreshold?: number;
  /** Whether the cosine decision counts (the model has a topic vector). @default false */
  hasVector?: boolean;
  /**
   * Near-duplicate cut for the uncertain strategy ({@link DEFAULT_MAX_SIMILARITY}); 1 keeps
   * everything but exact duplicates out, values above 1 turn the filter off.
   */
  maxSimilarity?: number;
}

/** One chosen candidate. */
export interface ReviewPick {
  /** Position of the candidate in the input. */
  index: number;
  score: number;
  cosine: number;
  /** |score − threshold|: how unsure the model is (smaller: less sure). */
  margin: number;
}

/** The characters that carry meaning: letters and digits, lower-cased (punctuation and spaces differ freely between copies). */
function normalise(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");
}

/** The set of character 3-shingles of a text (a text shorter than that is its own shingle). */
export function shingles(text: string): Set<string> {
  const chars = Array.from(normalise(text));
  const out = new Set<string>();
  if (chars.length < SHINGLE) {
    if (chars.length > 0) out.add(chars.join(""));
    return out;
  }
  for (let i = 0; i + SHINGLE <= chars.length; i++) out.add(chars.slice(i, i + SHINGLE).join(""));
  return out;
}

/** Jaccard similarity |A ∩ B| / |A ∪ B| of two shingle sets (two empty sets: 1, the same nothing). */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let common = 0;
  for (const s of small) if (large.has(s)) common++;
  return common / (a.size + b.size - common);
}

/**
 * Choose what to review from candidates already scored (the pure core; {@link selectForReview}
 * scores with a model first).
 *
 * - "uncertain": ascending |score − threshold|, ties by input order; a candidate whose shingle
 *   Jaccard with an already chosen one is ≥ `maxSimilarity` is skipped.
 * - "flagged": the candidates the topic would flag (score ≥ threshold, or cosine ≥ the cosine
 *   threshold with a vector), least confident first, most confident last, ties by input order:
 *   what a reviewer sees today, so no diversity filter.
 */
export function selectScored(candidates: readonly ScoredCandidate[], options: ReviewSelectOptions): ReviewPick[] {
  const limit = Math.max(0, Math.floor(options.limit));
  if (limit === 0 || candidates.length === 0) return [];
  const picks: ReviewPick[] = candidates.map((c, index) => ({ index, score: c.score, cosine: c.cosine, margin: Math.abs(c.score - options.threshold) }));
  if ((options.strategy ?? "uncertain") === "flagged") {
    const thresholds = { nbThreshold: options.threshold, cosineThreshold: options.cosineThreshold ?? Number.POSITIVE_INFINITY };
    return picks
      .filter((p) => relevanceDecision({ score: p.score, cosine: p.cosine, hasVector: options.hasVector === true }, thresholds).relevant)
      .sort((a, b) => a.score - b.score || a.index - b.index)
      .slice(0, limit);
  }
  picks.sort((a, b) => a.margin - b.margin || a.index - b.index);
  const cut = options.maxSimilarity ?? DEFAULT_MAX_SIMILARITY;
  const chosen: ReviewPick[] = [];
  const chosenShingles: Set<string>[] = [];
  for (const p of picks) {
    if (chosen.length >= limit) break;
    // Shingles only for candidates that get this far: the queue is short, the pool may be large.
    const sh = cut <= 1 ? shingles((candidates[p.index] as ScoredCandidate).text) : new Set<string>();
    if (cut <= 1 && chosenShingles.some((c) => jaccard(sh, c) >= cut)) continue;
    chosen.push(p);
    chosenShingles.push(sh);
  }
  return chosen;
}

/**
 * The `limit` texts a trained topic model most wants reviewed (see {@link selectScored} for the
 * strategies). Scores every text once; deterministic for the same model and texts.
 */
export function selectForReview(model: TopicModel, texts: readonly string[], options: Omit<ReviewSelectOptions, "hasVector">): ReviewPick[] {
  const scored = texts.map((text) => {
    const p = model.predict(text);
    return { text, score: p.score, cosine: p.cosine };
  });
  return selectScored(scored, { ...options, hasVector: model.hasVector });
}
