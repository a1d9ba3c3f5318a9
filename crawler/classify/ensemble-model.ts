/**
 * Naive Bayes averaged with a linear text model (NBSVM's regression or the linear SVM) in
 * log-posterior space, compiled so that a text's features are looked up ONCE for both: the two
 * models' vocabularies are merged into one, and each feature id carries a naive Bayes row and a
 * linear row. Scoring the two models separately looked every character n-gram up twice, in two
 * large hash tables; feature lookup, not arithmetic, is what a title costs. The result equals
 * {@link NbEnsemble}'s (to floating rounding).
 */
import { Vocabulary, type FeatureOptions, type PreparedText } from "./features";
import { IntegerMap } from "./int-map";
import { logLikelihoods, TermTally, type NaiveBayesPrediction, type NaiveBayesState, type TermWeight } from "./naive-bayes-core";
import { PAIR_RADIX, type LinearTextState } from "./nbsvm-features";
import { decide, logSoftmax } from "./nbsvm-model";

/**
 * The set of feature ids one text has counted, cleared in O(1) per text (slots carry the number of
 * the text that wrote them). Small and reused, so it stays in the CPU cache; it grows for long texts.
 */
class TextSet {
  private keys = new Int32Array(256);
  private marks = new Int32Array(256);
  private size = 0;
  private mark = 1;

  /** Start a new text (an empty set). */
  clear(): void {
    this.size = 0;
    if (++this.mark === 2 ** 31 - 1) {
      this.marks.fill(0);
      this.mark = 1;
    }
  }

  /** Add `key` (≥ 0); false when the text already had it. */
  add(key: number): boolean {
    const mask = this.keys.length - 1;
    let i = Math.imul(key, 0x9e3779b1) >>> 0;
    for (i &= mask; this.marks[i] === this.mark; i = (i + 1) & mask) if (this.keys[i] === key) return false;
    this.keys[i] = key;
    this.marks[i] = this.mark;
    if (++this.size * 2 > this.keys.length) this.grow();
    return true;
  }

  private grow(): void {
    const keys = this.keys;
    const marks = this.marks;
    const mark = this.mark;
    this.keys = new Int32Array(keys.length * 2);
    this.marks = new Int32Array(keys.length * 2);
    this.size = 0;
    for (let i = 0; i < keys.length; i++) if (marks[i] === mark) this.add(keys[i] as number);
  }
}

function powerOfTwoAtLeast(n: number): number {
  let p = 1;
  while (p < n) p *= 2;
  return p;
}

/** A naive Bayes state and a linear state, averaged `(1 − mix)·NB + mix·linear` (log-posteriors). */
export class FusedEnsemble {
  readonly classes: readonly string[];
  private readonly C: number;
  private readonly vocab = new Vocabulary();
  private readonly gramOrders: number[];
  private readonly gramFeatures: FeatureOptions;
  /** Scratch scores of the two parts (reused: one text at a time). */
  private readonly nbScores: Float64Array;
  private readonly linScores: Float64Array;
  private readonly logPrior: Float64Array;
  /**
   * One record of `R` Float32 per merged feature id, so that a feature costs one cache miss: for
   * classes 1…C−1, the weighted NB log-likelihood minus class 0's (0 for a feature naive Bayes
   * does not have), then the linear weight minus class 0's. Scores are only ever normalised
   * (softmax), which a per-text shift does not change, so class 0 can be scored as 0: a binary
   * topic's record is two numbers. R is a power of two: records never straddle more cache lines
   * than they must.
   */
  private readonly rec: Float32Array;
  private readonly R: number;
  /** 1 for the linear part's features (it counts distinct ones: √n normalisation). */
  private readonly isLinear: Uint8Array;
  /** Linear features counted in the current text: ids, and pairs as U + pair index. */
  private readonly counted = new TextSet();
  private readonly U: number;
  private readonly linBias: Float64Array;
  /** Word pair (merged word ids a·2^26 + b) → pair index; pair records: C weights. */
  private readonly pairs = new IntegerMap();
  private readonly pairRec: Float32Array;
  private readonly PR: number;
  private readonly wordBigrams: boolean;
  private readonly wordIds: number[] = [];
  private readonly gramIds: number[] = [];
  /** Feature ids (with repeats) of the last text scored, for {@link topTerms}. */
  private readonly nbIds: number[] = [];
  private readonly tally = new TermTally();

  /** Throws when the two states disagree on classes or the NB state mixes in its own regression. */
  constructor(
    nb: NaiveBayesState,
    linear: LinearTextState,
    readonly mix: number,
  ) {
    if (nb.classes.join("\n") !== linear.classes.join("\n")) throw new Error("the naive Bayes and linear parts have different classes");
    if (nb.linear) throw new Error("a naive Bayes part with its own regression (linearMix) cannot be fused");
    this.classes = nb.classes;
    const C = (this.C = nb.classes.length);
    const V = nb.words.length + nb.grams.length;
    if (nb.counts.length !== C || nb.counts.some((row) => row.length !== V) || nb.weights.length !== V) {
      throw new Error("naive Bayes state is inconsistent: counts/weights do not match classes and features");
    }
    const K = linear.words.length + linear.pairs.length + linear.grams.length;
    if (linear.bias.length !== C || linear.weights.length !== C || linear.weights.some((row) => row.length !== K)) {
      throw new Error("linear state is inconsistent: weights do not match classes and features");
    }
    const vocab = this.vocab;
    const gramId = (g: string) => {
      const id = vocab.gramId(g, true);
      if (id < 0) throw new Error(`"${g}" is not a character n-gram`);
      return id;
    };
    // NB features take ids 0..V-1 in NB order (NaiveBayes' own ids); linear-only ones follow.
    const nbIdOf = [...nb.words.map((w) => vocab.wordId(w, true)), ...nb.grams.map(gramId)];
    const linWordIds = linear.words.map((w) => vocab.wordId(w, true));
    const linGramIds = linear.grams.map(gramId);
    const pairIds = linear.pairs.map(([p, q]) => [vocab.wordId(p, true), vocab.wordId(q, true)] as const);
    const U = vocab.size;

    const o = nb.options;
    const N = nb.classDocs.reduce((a, b) => a + b, 0);
    // Complement NB ignores priors (its estimates come from the other classes), as NaiveBayes.
    this.logPrior = Float64Array.from(nb.classDocs, (n) => (o.complement ? 0 : Math.log(n / N)));
    const flat = new Float64Array(V * C);
    for (let c = 0; c < C; c++) {
      const row = nb.counts[c] as number[];
      for (let f = 0; f < V; f++) flat[f * C + c] = row[f] as number;
    }
    const lk = logLikelihoods(flat, V, C, o);
    this.U = U;
    const D = C - 1;
    const R = (this.R = powerOfTwoAtLeast(2 * D));
    const rec = (this.rec = new Float32Array(U * R));
    this.isLinear = new Uint8Array(U);
    nbIdOf.forEach((id, f) => {
      const w = nb.weights[f] as number;
      // NaiveBayes' own Float32 values, then their difference: the same numbers up to rounding.
      const base = Math.fround(w * (lk[f * C] as number));
      for (let c = 1; c < C; c++) rec[id * R + c - 1] = Math.fround(w * (lk[f * C + c] as number)) - base;
    });
    const linearWeight = (c: number, f: number) => (linear.weights[c] as number[])[f] as number;
    const setLinear = (id: number, f: number) => {
      for (let c = 1; c < C; c++) rec[id * R + D + c - 1] = linearWeight(c, f) - linearWeight(0, f);
      this.isLinear[id] = 1;
    };
    linWordIds.forEach((id, f) => setLinear(id, f));
    const gramBase = linear.words.length + linear.pairs.length;
    linGramIds.forEach((id, i) => setLinear(id, gramBase + i));
    const PR = (this.PR = powerOfTwoAtLeast(D));
    this.pairRec = new Float32Array(pairIds.length * PR);
    pairIds.forEach(([a, b], p) => {
      this.pairs.set(a * PAIR_RADIX + b, p);
      const f = linear.words.length + p;
      for (let c = 1; c < C; c++) this.pairRec[p * PR + c - 1] = linearWeight(c, f) - linearWeight(0, f);
    });
    this.wordBigrams = linear.options.wordBigrams;
    this.linBias = Float64Array.from(linear.bias);
    this.gramOrders = [...new Set([...o.features.charNgrams, ...linear.options.charNgrams])].sort();
    this.gramFeatures = { words: false, charNgrams: this.gramOrders };
    vocab.seal();
    this.nbScores = new Float64Array(C);
    this.linScores = new Float64Array(C);
  }

  /**
   * Add feature `id`'s NB row to the NB scores (zeros when NB lacks it) and, the first time in
   * this text, its linear row to the linear scores. Returns 1 when it counted as a linear feature.
   */
  private add(id: number): number {
    const D = this.C - 1;
    const rec = this.rec;
    const nbS = this.nbScores;
    const base = id * this.R;
    this.nbIds.push(id);
    for (let c = 1; c <= D; c++) nbS[c] = (nbS[c] as number) + (rec[base + c - 1] as number);
    if (this.isLinear[id] !== 1 || !this.counted.add(id)) return 0;
    const linS = this.linScores;
    for (let c = 1; c <= D; c++) linS[c] = (linS[c] as number) + (rec[base + D + c - 1] as number);
    return 1;
  }

  /** Classify a prepared text (and keep its NB features for {@link topTerms}). */
  predict(text: PreparedText): NaiveBayesPrediction {
    const C = this.C;
    const vocab = this.vocab;
    this.counted.clear();
    const nbS = this.nbScores;
    const linS = this.linScores;
    nbS.set(this.logPrior);
    linS.fill(0);
    this.nbIds.length = 0;
    let n = 0;
    const words = this.wordIds;
    words.length = 0;
    // A word id is a word feature of whichever part has it (a part without word features has none).
    for (const t of text.tokens) {
      const id = vocab.wordId(t, false);
      words.push(id);
      if (id >= 0) n += this.add(id);
    }
    if (this.wordBigrams) {
      const PR = this.PR;
      const pr = this.pairRec;
      for (let i = 1; i < words.length; i++) {
        const a = words[i - 1] as number;
        const b = words[i] as number;
        if (a < 0 || b < 0) continue;
        const p = this.pairs.get(a * PAIR_RADIX + b);
        if (p < 0 || !this.counted.add(this.U + p)) continue;
        n++;
        for (let c = 1; c < C; c++) linS[c] = (linS[c] as number) + (pr[p * PR + c - 1] as number);
      }
    }
    if (this.gramOrders.length > 0) {
      const grams = this.gramIds;
      grams.length = 0;
      // Each part only holds n-grams of its own orders: a record says which part(s) an id is in.
      vocab.collect(text, this.gramFeatures, false, grams);
      for (const id of grams) n += this.add(id);
    }
    const k = n > 0 ? 1 / Math.sqrt(n) : 0;
    for (let c = 0; c < C; c++) linS[c] = (this.linBias[c] as number) + k * (linS[c] as number);
    logSoftmax(nbS);
    logSoftmax(linS);
    const mix = this.mix;
    // decide() only reads the mix (its posteriors are a fresh array): the NB scratch can hold it.
    for (let c = 0; c < C; c++) nbS[c] = (1 - mix) * (nbS[c] as number) + mix * (linS[c] as number);
    return decide(this.classes, nbS);
  }

  /**
   * The naive Bayes features of the last text {@link predict} scored that most favour class `c`
   * over `versus`: weighted log-likelihood ratio times count, largest first, positive only. The
   * merged ids of NB features are NaiveBayes' own ids, visited in the same order, so this is
   * NaiveBayes.topTerms (up to the Float32 rounding of the stored differences).
   */
  topTerms(c: number, versus: number, limit = 5): TermWeight[] {
    const R = this.R;
    const w = this.rec;
    const tally = this.tally;
    tally.clear();
    const ids = this.nbIds;
    // Class 0's column is implicit (0): a record holds classes 1…C−1 at offsets 0…C−2.
    const ac = c - 1;
    const av = versus - 1;
    for (let i = 0; i < ids.length; i++) {
      const f = ids[i] as number;
      // Features naive Bayes lacks have zero rows: d = 0, skipped as NaiveBayes never sees them.
      tally.add(f, (ac >= 0 ? (w[f * R + ac] as number) : 0) - (av >= 0 ? (w[f * R + av] as number) : 0));
    }
    return tally.top(this.vocab.names, limit);
  }
}
