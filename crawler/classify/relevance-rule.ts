/**
 * The one relevance rule of a trained topic: a text is on-topic when the classifier's
 * P(on-topic) ≥ nbThreshold, or when the model has a topic vector and the text's cosine with it
 * ≥ cosineThreshold. The flagger (./verdict), discovery's judge (crawler/discover/relevance),
 * evaluation (./evaluate, bench/classify), the review queue's "flagged" strategy
 * (./active-learning) and the large demo seed all decide through {@link relevanceDecision}, and
 * a new topic's thresholds default to {@link DEFAULT_THRESHOLDS} everywhere (the dashboard's
 * form, the CLI, discovery without a topic row). prisma/schema.prisma repeats the defaults as
 * column defaults (Prisma cannot import them); test/unit/classify/relevance-rule.test.ts holds
 * the two equal.
 *
 * No imports: client components and scripts may read the defaults without loading a model.
 */

/** A topic's two thresholds. */
export interface RelevanceThresholds {
  /** The classifier's decision: P(on-topic) ≥ this. */
  nbThreshold: number;
  /** The topic vector's decision: cosine ≥ this (only when the model has a vector). */
  cosineThreshold: number;
}

/** Defaults of a new topic's thresholds. */
export const DEFAULT_THRESHOLDS: Readonly<RelevanceThresholds> = Object.freeze({ nbThreshold: 0.5, cosineThreshold: 0.35 });

/** What the rule reads of one prediction. */
export interface RelevanceScores {
  /** P(on-topic) in [0, 1]. */
  score: number;
  /** Cosine with the topic vector, in [0, 1]. */
  cosine: number;
  /** Whether the model has a topic vector (without one the cosine decides nothing). */
  hasVector: boolean;
}

/** The rule's decision and its two parts (the flagger lists each part as a reason). */
export interface RelevanceDecision {
  byClassifier: boolean;
  byCosine: boolean;
  /** byClassifier || byCosine. */
  relevant: boolean;
}

/** Decide whether a prediction is on-topic under a topic's thresholds. */
export function relevanceDecision(s: RelevanceScores, t: RelevanceThresholds): RelevanceDecision {
  const byClassifier = s.score >= t.nbThreshold;
  const byCosine = s.hasVector && s.cosine >= t.cosineThreshold;
  return { byClassifier, byCosine, relevant: byClassifier || byCosine };
}
