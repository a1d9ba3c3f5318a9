/**
 * The compiled NBSVM model (see ./nbsvm): a {@link NbLogisticState} as one Float32 table, feature
 * index × class, plus the log-softmax and decision helpers the ensemble shares.
 */
import type { PreparedText } from "./features";
import { IntegerMap } from "./int-map";
import type { NaiveBayesPrediction } from "./naive-bayes-core";
import { FeatureIndex, PAIR_RADIX, type LinearTextState } from "./nbsvm-features";

// Offset of pair feature indices among vocabulary ids at prediction (above any vocabulary id).
const PAIR_OFFSET = 2 ** 30;

/** Log-softmax of `s` in place. */
export function logSoftmax(s: Float64Array): Float64Array {
  let max = -Infinity;
  for (const v of s) if (v > max) max = v;
  let z = 0;
  for (const v of s) z += Math.exp(v - max);
  const lz = max + Math.log(z);
  for (let i = 0; i < s.length; i++) s[i] = (s[i] as number) - lz;
  return s;
}

/** The most probable class and normalised posteriors from log-posteriors. */
export function decide(classes: readonly string[], logPost: Float64Array): NaiveBayesPrediction {
  let best = 0;
  for (let c = 1; c < logPost.length; c++) if ((logPost[c] as number) > (logPost[best] as number)) best = c;
  // Loops, not Float64Array.from(…, fn): this runs once per text on the hot path.
  const posteriors = new Float64Array(logPost.length);
  let z = 0;
  for (let c = 0; c < logPost.length; c++) z += posteriors[c] = Math.exp(logPost[c] as number);
  for (let c = 0; c < posteriors.length; c++) posteriors[c] = (posteriors[c] as number) / z;
  return { label: classes[best] as string, classIndex: best, posteriors };
}

/**
 * A compiled linear text model: an NBSVM regression ({@link NbLogisticState}) or a linear SVM
 * (./svm-train), both `score_c = b_c + Σ_f w[f,c] / √n` over the n distinct known features.
 */
export class NbLogistic {
  readonly classes: readonly string[];
  private readonly index: FeatureIndex;
  private readonly C: number;
  /** Vocabulary id → feature index (-1: known word only as part of a pair). */
  private readonly featureOf: Int32Array;
  /** Pair key → feature index. */
  private readonly pairFeature = new IntegerMap();
  private readonly table: Float32Array;
  private readonly bias: Float64Array;
  private readonly ids: number[] = [];

  constructor(readonly state: LinearTextState) {
    const { classes, words, pairs, grams, bias, weights, options } = state;
    this.classes = classes;
    const C = (this.C = classes.length);
    const K = words.length + pairs.length + grams.length;
    if (bias.length !== C || weights.length !== C || weights.some((row) => row.length !== K)) {
      throw new Error("NBSVM state is inconsistent: weights do not match classes and features");
    }
    // Only the feature switches matter here; an NBSVM state from before LinearTextState has them all.
    this.index = new FeatureIndex({ words: options.words, wordBigrams: options.wordBigrams, charNgrams: [...options.charNgrams] });
    const vocab = this.index.vocab;
    const featureOf: number[] = [];
    const setFeature = (id: number, f: number) => {
      while (featureOf.length <= id) featureOf.push(-1);
      featureOf[id] = f;
    };
    words.forEach((word, i) => setFeature(vocab.wordId(word, true), i));
    pairs.forEach(([p, q], i) => {
      const a = vocab.wordId(p, true);
      const b = vocab.wordId(q, true);
      this.pairFeature.set(a * PAIR_RADIX + b, words.length + i);
    });
    const gramBase = words.length + pairs.length;
    grams.forEach((g, i) => {
      const id = vocab.gramId(g, true);
      if (id < 0) throw new Error(`NBSVM state is inconsistent: "${g}" is not a character n-gram`);
      setFeature(id, gramBase + i);
    });
    while (featureOf.length < vocab.size) featureOf.push(-1);
    vocab.seal();
    this.featureOf = Int32Array.from(featureOf);
    this.table = new Float32Array(K * C);
    for (let c = 0; c < C; c++) {
      const row = weights[c] as number[];
      for (let f = 0; f < K; f++) this.table[f * C + c] = row[f] as number;
    }
    this.bias = Float64Array.from(bias);
  }

  /** Number of features. */
  get featureCount(): number {
    return this.table.length / this.C;
  }

  /** Log-posteriors of every class (a fresh array). */
  logPosteriors(text: PreparedText): Float64Array {
    const ids = this.ids;
    ids.length = 0;
    // Pair features are returned as PAIR_OFFSET + index so they survive the dedup with the others.
    this.index.collect(
      text,
      false,
      (key) => {
        const f = this.pairFeature.get(key);
        return f < 0 ? -1 : PAIR_OFFSET + f;
      },
      ids,
    );
    const C = this.C;
    const s = Float64Array.from(this.bias);
    const featureOf = this.featureOf;
    let n = 0;
    for (const id of ids) {
      const f = id >= PAIR_OFFSET ? id - PAIR_OFFSET : (featureOf[id] as number);
      if (f < 0) continue;
      ids[n++] = f;
    }
    if (n > 0) {
      const k = 1 / Math.sqrt(n);
      const w = this.table;
      for (let j = 0; j < n; j++) {
        const base = (ids[j] as number) * C;
        for (let c = 0; c < C; c++) s[c] = (s[c] as number) + k * (w[base + c] as number);
      }
    }
    return logSoftmax(s);
  }

  /** Classify a prepared text. */
  predict(text: PreparedText): NaiveBayesPrediction {
    return decide(this.classes, this.logPosteriors(text));
  }
}
