/**
 * Multinomial naive Bayes in log space, binary or multi-class, with the improvements of the
 * competitive-intelligence crawler paper (method.md §3): chi-square feature selection and
 * chi-square feature WEIGHTING (each feature's log-likelihood contribution multiplied by its χ²
 * statistic), plus a discriminative refinement of those per-feature weights (WANBIA), which is
 * what lifted accuracy most in our measurements. Each is a switch so the benchmark compares them.
 *
 * Lifecycle: {@link trainNaiveBayes} → {@link NaiveBayesState} (plain JSON data) →
 * {@link NaiveBayes} (runtime with precomputed log-probabilities in a typed array). A trained model
 * is always compiled from its state, so a model read back from JSON predicts exactly like the
 * one that was trained.
 */
export {
  DEFAULT_NB_OPTIONS,
  TrainingError,
  chiSquare,
  naiveBayesOptions,
  type NaiveBayesOptions,
  type NaiveBayesState,
  type NaiveBayesPrediction,
  type TermWeight,
} from "./naive-bayes-core";
export { trainNaiveBayes } from "./naive-bayes-train";
export { NaiveBayes } from "./naive-bayes-model";
