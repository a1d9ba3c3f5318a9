/**
 * The classifiers a topic can choose (`Topic.classifier`). Only names and the default live here,
 * below the crawler: the topic form (a client component), the settings schema and the CLI need the
 * list without loading the classifier itself (nodejieba); crawler/classify/model.ts trains and
 * scores each kind.
 *
 * - `nb`: naive Bayes over words + character bigrams, weights refined (what every topic used
 *   before the choice existed);
 * - `nb-chi2`: the same naive Bayes with each feature's weight starting at its χ² statistic
 *   (the competitive-intelligence paper's method), then refined;
 * - `nb-nbsvm`: refined naive Bayes (words + characters 1–3) averaged with an NBSVM logistic
 *   regression; a bigger model, slower to train and to score;
 * - `nb-svm`: refined naive Bayes (as `nb`) averaged with a linear SVM over NB-scaled words, word
 *   pairs and characters 1–3 (crawler/classify/svm-train.ts); the default.
 */

/** Every classifier kind, in the order the form lists them. */
export const CLASSIFIER_KINDS = ["nb", "nb-chi2", "nb-nbsvm", "nb-svm"] as const;

/** A classifier a topic can choose. */
export type ClassifierKind = (typeof CLASSIFIER_KINDS)[number];

/**
 * The kind of a new topic: `nb-svm`, the best 10-class accuracy of `npm run bench:classify` on the
 * validation split that keeps the whole pipeline at ≥ 30% of raw nodejieba speed (issue 16; the
 * README's classification section has the figures). Existing topics keep the kind they have.
 */
export const DEFAULT_CLASSIFIER: ClassifierKind = "nb-svm";

/** The kind of a stored model that names none: it was trained before the choice existed, as `nb`. */
export const LEGACY_CLASSIFIER: ClassifierKind = "nb";

/** True when `x` names a classifier kind. */
export function isClassifierKind(x: unknown): x is ClassifierKind {
  return typeof x === "string" && (CLASSIFIER_KINDS as readonly string[]).includes(x);
}
