/**
 * The classifiers a topic can choose (`Topic.classifier`). Only names and the default live here,
 * below the crawler: the topic form (a client component), the settings schema and the CLI need the
 * list without loading the classifier itself (nodejieba); crawler/classify/model.ts trains and
 * scores each kind.
 *
 * - `nb`: naive Bayes over words + character bigrams, weights refined (what every topic used
 *   before the choice existed, and the default: see the README's classification section for the
 *   figures that keep it);
 * - `nb-chi2`: the same naive Bayes with each feature's weight starting at its χ² statistic
 *   (the competitive-intelligence paper's method), then refined;
 * - `nb-nbsvm`: refined naive Bayes (words + characters 1–3) averaged with an NBSVM logistic
 *   regression, the best 10-class accuracy of `npm run bench:classify`; a bigger model, slower to
 *   train and to score.
 */

/** Every classifier kind, in the order the form lists them. */
export const CLASSIFIER_KINDS = ["nb", "nb-chi2", "nb-nbsvm"] as const;

/** A classifier a topic can choose. */
export type ClassifierKind = (typeof CLASSIFIER_KINDS)[number];

/** The kind of a new topic, and of a stored model that names none (trained before the choice existed). */
export const DEFAULT_CLASSIFIER: ClassifierKind = "nb";

/** True when `x` names a classifier kind. */
export function isClassifierKind(x: unknown): x is ClassifierKind {
  return typeof x === "string" && (CLASSIFIER_KINDS as readonly string[]).includes(x);
}
