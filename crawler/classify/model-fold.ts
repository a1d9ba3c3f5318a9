/**
 * Folding labelled samples into a trained {@link TopicModel} (a reviewer's decision, within
 * seconds) instead of training it again: the naive Bayes counts are additive (./naive-bayes-update).
 *
 * Per classifier kind: `nb` and `nb-chi2` fold their naive Bayes counts; their weights (refined,
 * or χ² then refined) stay as trained and features new to the model get the neutral weight 1.
 * `nb-nbsvm` folds its naive Bayes part the same way and keeps its NBSVM regression as trained,
 * marked stale (`logistic.staleSamples`). The topic vector is not rebuilt either. The periodic full
 * retrain (CAMPUSWATCH_RETRAIN_EVERY reviews, crawler/classify/topic-learn.ts) restores all of them.
 */
import { foldNaiveBayes } from "./naive-bayes-update";
import { OFF_TOPIC, ON_TOPIC, TopicModel, type Sample } from "./model";

export { FoldError, foldRefusal } from "./naive-bayes-update";

/**
 * A new model with `samples` counted in, each as `weight` samples (a review's weight,
 * ./review-weight.ts; `samples`, `folded` and `staleSamples` count each once). The given model is
 * unchanged. Throws {@link FoldError} when the samples cannot be folded (a label the model has no
 * class for, a model trained with feature selection): train in full then.
 */
export function foldSamples(model: TopicModel, samples: readonly Sample[], weight = 1): TopicModel {
  if (samples.length === 0) return model;
  const json = model.toJSON();
  const labels = samples.map((s) => (json.collapsed ? (json.relevantLabels.includes(s.label) ? ON_TOPIC : OFF_TOPIC) : s.label));
  const prepared = samples.map((s) => model.prepare(s.text));
  const naiveBayes = foldNaiveBayes(json.naiveBayes, prepared, labels, weight);
  return new TopicModel({
    ...json,
    samples: json.samples + samples.length,
    folded: (json.folded ?? 0) + samples.length,
    naiveBayes,
    ...(json.logistic ? { logistic: { ...json.logistic, staleSamples: (json.logistic.staleSamples ?? 0) + samples.length } } : {}),
  });
}
