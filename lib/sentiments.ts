/**
 * The three sentiments of a post (Post.sentiment): names only, below the crawler, so the posts
 * filter, client components and the classifier (crawler/classify/sentiment.ts) share one list
 * without loading the model.
 */

/** The sentiments, in the order the dashboard lists them: 负面, 中性, 正面. */
export const SENTIMENTS = ["negative", "neutral", "positive"] as const;

/** A post's sentiment. */
export type Sentiment = (typeof SENTIMENTS)[number];

/** True when `x` names a sentiment. */
export function isSentiment(x: unknown): x is Sentiment {
  return typeof x === "string" && (SENTIMENTS as readonly string[]).includes(x);
}
