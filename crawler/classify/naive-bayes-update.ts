/**
 * Folding new labelled texts into a trained naive Bayes model without training again (issue 16:
 * a topic learns from each review within seconds).
 *
 * What is additive, and so folded exactly: the per-class feature counts, the documents per class
 * and the vocabulary (new features are appended, words after the known words and n-grams after the
 * known n-grams, in first-seen order: exactly where a full training on the old texts followed by
 * the new ones would put them). The folded counts therefore equal a full training's on the same
 * texts, and with weights that stay uniform (no refinement, no χ² weighting) so does every
 * prediction, to floating tolerance.
 *
 * What is not additive, and is left for the periodic full retrain to restore: the per-feature
 * weights (the WANBIA refinement is a pass of gradient ascent over all training documents; χ²
 * weights depend on every document frequency). Known features keep the weights they had; a feature
 * the model had never seen gets the neutral weight 1. The feature selection options (`selectK`,
 * `minCount`) and the mixed-in regression (`linearMix`) are not additive either: a model trained
 * with them is refused here ({@link FoldError}), and the caller retrains in full.
 */
import { Vocabulary, type PreparedText } from "./features";
import { TrainingError, type NaiveBayesState } from "./naive-bayes-core";

/** Why texts cannot be folded into a model: the caller should train in full instead. */
export class FoldError extends TrainingError {
  override name = "FoldError";
}

/**
 * Why `state` cannot take folded texts (null when it can): feature selection or a mixed-in
 * regression, whose results depend on all documents at once.
 */
export function foldRefusal(state: NaiveBayesState): string | null {
  const o = state.options;
  if (o.selectK > 0) return `the model keeps only the ${o.selectK} best features (selectK): a full training must choose them again`;
  if (o.minCount > 1) return `the model drops features seen fewer than ${o.minCount} times (minCount): a full training must count them again`;
  if (state.linear) return "the model mixes in a logistic regression (linearMix), which only a full training updates";
  return null;
}

/**
 * A new state with `texts` (of classes `labels`) counted in, prepared with the model's own
 * segmentation, each `weight` times (a review sample's weight, ./review-weight.ts: the same counts
 * as a full training on `weight` copies of each). Throws {@link FoldError} for a class the model does
 * not have or a model {@link foldRefusal} refuses; `state` itself is never changed.
 */
export function foldNaiveBayes(state: NaiveBayesState, texts: readonly PreparedText[], labels: readonly string[], weight = 1): NaiveBayesState {
  if (texts.length !== labels.length) throw new FoldError(`got ${texts.length} texts but ${labels.length} labels`);
  if (!Number.isInteger(weight) || weight < 1) throw new FoldError(`the sample weight must be an integer >= 1 (got ${weight})`);
  const refusal = foldRefusal(state);
  if (refusal) throw new FoldError(refusal, "foldRefused");
  const classIndex = new Map(state.classes.map((c, i) => [c, i]));
  for (const l of labels) {
    if (!classIndex.has(l))
      throw new FoldError(`the model has no class "${l}" (classes: ${state.classes.join(", ")}); train the topic in full`, "newLabel", { label: l });
  }
  const C = state.classes.length;
  // The model's features get ids 0..V-1 in stored order (words, then n-grams), as the compiled model does.
  const vocab = new Vocabulary();
  for (const w of state.words) vocab.wordId(w, true);
  for (const g of state.grams) vocab.gramId(g, true);
  const V = vocab.size;
  const added = new Map<number, number[]>(); // feature id → counts per class (features new to the model)
  const classDocs = [...state.classDocs];
  const counts = state.counts.map((row) => [...row]);
  const buf: number[] = [];
  texts.forEach((t, d) => {
    const c = classIndex.get(labels[d] as string) as number;
    classDocs[c] = (classDocs[c] as number) + weight;
    buf.length = 0;
    vocab.collect(t, state.options.features, true, buf);
    for (const f of buf) {
      if (f < V) {
        const row = counts[c] as number[];
        row[f] = (row[f] as number) + weight;
      } else {
        let per = added.get(f);
        if (!per) added.set(f, (per = new Array<number>(C).fill(0)));
        per[c] = (per[c] as number) + weight;
      }
    }
  });
  // New ids are in first-seen order; words go after the known words, n-grams after the known n-grams.
  const newIds = [...added.keys()].sort((p, q) => p - q);
  const newWords = newIds.filter((f) => !vocab.isGram[f]);
  const newGrams = newIds.filter((f) => vocab.isGram[f]);
  const W = state.words.length;
  const layout = (row: number[], c: number) => [
    ...row.slice(0, W),
    ...newWords.map((f) => (added.get(f) as number[])[c] as number),
    ...row.slice(W),
    ...newGrams.map((f) => (added.get(f) as number[])[c] as number),
  ];
  const weights = [...state.weights.slice(0, W), ...newWords.map(() => 1), ...state.weights.slice(W), ...newGrams.map(() => 1)];
  return {
    options: { ...state.options, features: { ...state.options.features } },
    classes: [...state.classes],
    classDocs,
    words: [...state.words, ...newWords.map((f) => vocab.raw[f] as string)],
    grams: [...state.grams, ...newGrams.map((f) => vocab.raw[f] as string)],
    counts: counts.map((row, c) => layout(row, c)),
    weights,
    linear: null,
  };
}
