/**
 * The compiled naive Bayes model: a {@link NaiveBayesState} turned into typed arrays of weighted
 * log-likelihoods for the hot path (scoring every crawled post against every topic).
 */
import { Vocabulary, type PreparedText } from "./features";
import { logLikelihoods, TermTally, type NaiveBayesPrediction, type NaiveBayesState, type TermWeight } from "./naive-bayes-core";

/** A compiled naive Bayes model: the hot path is typed-array arithmetic over feature ids. */
export class NaiveBayes {
  readonly classes: readonly string[];
  private readonly vocab = new Vocabulary();
  private readonly C: number;
  private readonly logPrior: Float64Array;
  /**
   * Weighted log-likelihoods, feature-major: `weighted[f * C + c]`. Float32 halves the table (a
   * 300k-feature, 10-class model is 12 MB instead of 24): scoring is bound by cache misses on it.
   */
  private readonly weighted: Float32Array;
  /** The mixed-in regression (feature-major like `weighted`), or null. */
  private readonly linear: Float32Array | null;
  private readonly linearBias: Float64Array;
  private readonly mix: number;
  private readonly linScores: Float64Array;
  private readonly ids: number[] = [];
  private readonly scores: Float64Array;
  private readonly tally = new TermTally();

  constructor(readonly state: NaiveBayesState) {
    const { classes, classDocs, counts, weights, options } = state;
    this.classes = classes;
    const C = (this.C = classes.length);
    const V = state.words.length + state.grams.length;
    for (const w of state.words) this.vocab.wordId(w, true);
    for (const g of state.grams) this.vocab.gramId(g, true);
    // The compiled model only looks features up: most unknown n-grams then stop at the filter.
    this.vocab.seal();
    if (counts.length !== C || counts.some((row) => row.length !== V) || weights.length !== V) {
      throw new Error("naive Bayes state is inconsistent: counts/weights do not match classes and features");
    }
    const N = classDocs.reduce((a, b) => a + b, 0);
    // Complement NB ignores priors (its estimates come from the other classes).
    this.logPrior = Float64Array.from(classDocs, (n) => (options.complement ? 0 : Math.log(n / N)));
    const flat = new Float64Array(V * C);
    for (let c = 0; c < C; c++) {
      const row = counts[c] as number[];
      for (let f = 0; f < V; f++) flat[f * C + c] = row[f] as number;
    }
    const lk = logLikelihoods(flat, V, C, options);
    this.weighted = new Float32Array(V * C);
    for (let f = 0; f < V; f++) {
      const w = weights[f] as number;
      for (let c = 0; c < C; c++) this.weighted[f * C + c] = w * (lk[f * C + c] as number);
    }
    this.scores = new Float64Array(C);
    this.linScores = new Float64Array(C);
    const lin = state.linear;
    this.mix = lin ? options.linearMix : 0;
    this.linearBias = Float64Array.from(lin?.bias ?? new Array<number>(C).fill(0));
    this.linear = null;
    if (lin) {
      if (lin.bias.length !== C || lin.weights.length !== C || lin.weights.some((row) => row.length !== V)) {
        throw new Error("naive Bayes state is inconsistent: the regression does not match classes and features");
      }
      const table = new Float32Array(V * C);
      for (let c = 0; c < C; c++) {
        const row = lin.weights[c] as number[];
        for (let f = 0; f < V; f++) table[f * C + c] = row[f] as number;
      }
      this.linear = table;
    }
  }

  /** Number of features the model knows. */
  get featureCount(): number {
    return this.vocab.size;
  }

  /**
   * Feature ids of a prepared text (unknown features skipped). The array is an internal buffer,
   * overwritten by the next call: score it before preparing another text.
   */
  featureIds(text: PreparedText): readonly number[] {
    const ids = this.ids;
    ids.length = 0;
    this.vocab.collect(text, this.state.options.features, false, ids);
    return ids;
  }

  /**
   * Log scores per class before normalisation (naive Bayes log joint, mixed with the regression's
   * log-odds when there is one); the returned array is reused by the next call.
   */
  scoreIds(ids: readonly number[]): Float64Array {
    const C = this.C;
    const s = this.scores;
    s.set(this.logPrior);
    const w = this.weighted;
    for (const f of ids) {
      const base = f * C;
      for (let c = 0; c < C; c++) s[c] = (s[c] as number) + (w[base + c] as number);
    }
    const lin = this.linear;
    if (lin && ids.length > 0) {
      const l = this.linScores;
      l.fill(0);
      for (const f of ids) {
        const base = f * C;
        for (let c = 0; c < C; c++) l[c] = (l[c] as number) + (lin[base + c] as number);
      }
      const k = 1 / Math.sqrt(ids.length);
      const mix = this.mix;
      for (let c = 0; c < C; c++) s[c] = (1 - mix) * (s[c] as number) + mix * ((this.linearBias[c] as number) + k * (l[c] as number));
    } else if (lin) {
      for (let c = 0; c < C; c++) s[c] = (1 - this.mix) * (s[c] as number) + this.mix * (this.linearBias[c] as number);
    }
    return s;
  }

  /** Classify feature ids from {@link featureIds}. */
  predictIds(ids: readonly number[]): NaiveBayesPrediction {
    const s = this.scoreIds(ids);
    const C = this.C;
    let best = 0;
    for (let c = 1; c < C; c++) if ((s[c] as number) > (s[best] as number)) best = c;
    // Softmax in log space: subtract the max so exp never overflows.
    const max = s[best] as number;
    const posteriors = new Float64Array(C);
    let z = 0;
    for (let c = 0; c < C; c++) {
      const e = Math.exp((s[c] as number) - max);
      posteriors[c] = e;
      z += e;
    }
    for (let c = 0; c < C; c++) posteriors[c] = (posteriors[c] as number) / z;
    return { label: this.classes[best] as string, classIndex: best, posteriors };
  }

  /** Classify a prepared text. */
  predict(text: PreparedText): NaiveBayesPrediction {
    return this.predictIds(this.featureIds(text));
  }

  /**
   * The features among `ids` that most favour class `c` over class `versus`: each term's weighted
   * log-likelihood ratio times its count, largest first, positive only.
   */
  topTerms(ids: readonly number[], c: number, versus: number, limit = 5): TermWeight[] {
    const C = this.C;
    const w = this.weighted;
    const tally = this.tally;
    tally.clear();
    const lin = this.linear;
    const mix = this.mix;
    const k = ids.length > 0 ? 1 / Math.sqrt(ids.length) : 0;
    for (const f of ids) {
      let d = (w[f * C + c] as number) - (w[f * C + versus] as number);
      if (lin) d = (1 - mix) * d + mix * k * ((lin[f * C + c] as number) - (lin[f * C + versus] as number));
      tally.add(f, d);
    }
    return tally.top(this.vocab.names, limit);
  }
}
