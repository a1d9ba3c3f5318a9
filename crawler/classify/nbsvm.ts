/**
 * NBSVM-style classifier (Wang & Manning 2012, "Baselines and bigrams") with a multinomial
 * logistic loss, and its ensemble with naive Bayes (topic classifier `nb-nbsvm`). The same
 * features with a linear SVM instead of the regression (./svm-train, topic classifier `nb-svm`,
 * the default of new topics) score higher: 90.51% on the test split against 90.35% below.
 *
 * Features are binarised (presence): word unigrams, word bigrams (adjacent tokens after stop
 * words), character 1–3-grams. Each feature f is scaled per class c by its naive Bayes
 * log-count ratio r[f,c] = log((p[f,c] / |p_c|) / (q[f,c] / |q_c|)), where p counts the documents
 * of class c holding f and q those of the other classes (both smoothed by `alpha`). A multinomial
 * logistic regression is then trained on the scaled, L2-normalised features (each text's vector
 * has norm 1 before scaling) by averaged SGD: score_c = b_c + Σ_f r[f,c]·w[f,c] / √n.
 *
 * Measured on validation splits carved from the THUCNews training 90% (seeds 7, 8, 9 of 10%):
 *
 * | configuration | seed 7 | seed 8 | seed 9 | mean |
 * |---|---|---|---|---|
 * | NB refined + logistic regression, mix 0.7 (previous best) | 89.94 | 90.12 | 90.22 | 90.09 |
 * | this model alone | 89.87 | 89.98 | 89.98 | 89.94 |
 * | NB refined (words + chars 1–3) + this model, mix 0.8 | 90.75 | 91.20 | 91.04 | 91.00 |
 *
 * (Measured with a prototype of this code; the shipped version differs only in the SGD shuffle
 * seed and gives 89.79% alone and 90.69% for the ensemble on seed 7, `bench:classify --validate`.)
 * The ensemble was chosen on these splits; the test 10% was then run once: accuracy 90.35%,
 * macro-F1 90.29% (previous best 89.82%). Training takes about 15 s on one core.
 *
 * Lifecycle as for naive Bayes: {@link trainNbLogistic} → {@link NbLogisticState} (plain JSON) →
 * {@link NbLogistic} (compiled, Float32 weights); the state keeps the exact Float32 weights, so a
 * model read back from JSON predicts exactly like the one that was trained.
 */
export { DEFAULT_NB_LOGISTIC_OPTIONS, type NbLogisticOptions, type NbLogisticState } from "./nbsvm-features";
export { trainNbLogistic } from "./nbsvm-train";
export { NbLogistic } from "./nbsvm-model";
export { trainNbEnsemble, NbEnsemble, DEFAULT_NB_ENSEMBLE_OPTIONS, type NbEnsembleOptions, type NbEnsembleState } from "./nbsvm-ensemble";
