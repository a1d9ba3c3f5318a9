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
import { Vocabulary, type FeatureOptions, type PreparedText } from "./features";
import { shuffled } from "./random";

/** Training options. Defaults are what tuning on a validation split of the THUCNews titles chose (see bench/classify.ts). */
export interface NaiveBayesOptions {
  /** Features used. @default word unigrams + character bigrams */
  features: FeatureOptions;
  /** Lidstone smoothing added to every count (1 = Laplace). @default 0.3 */
  alpha: number;
  /** Keep only the `selectK` features with the highest χ² (0: keep all). @default 0 */
  selectK: number;
  /** Drop features seen fewer than this many times in training (1: keep all). @default 1 */
  minCount: number;
  /**
   * Start each feature's weight at its χ² divided by the mean χ², to the power `chi2Power`
   * (method.md §3). Measured on the THUCNews validation split: no real gain without refinement
   * (words 87.73 → 87.80%, words + bigrams 88.52 → 88.53%) and slightly worse than a uniform start
   * once weights are refined (89.30 against 89.39%), hence off by default. @default false
   */
  chi2Weighting: boolean;
  /** Exponent of the χ² weight: 1 is the raw statistic, smaller values flatten it. @default 0.25 */
  chi2Power: number;
  /**
   * Complement naive Bayes (Rennie et al. 2003): estimate each class from the documents NOT in it.
   * Weights are not refined for a complement model. @default false
   */
  complement: boolean;
  /**
   * Passes of discriminative weight refinement (WANBIA, Zaidi et al. 2013): each feature's weight
   * is tuned by gradient ascent on the conditional log-likelihood of the training labels, each
   * document scored with its own counts left out (so training text looks unseen). 0: weights stay
   * as initialised. @default 1
   */
  refineEpochs: number;
  /** AdaGrad step size of the refinement. @default 0.1 */
  refineRate: number;
  /**
   * Share of a logistic regression over the same features in the decision (0: pure naive Bayes).
   * The regression is trained separately (AdaGrad on length-normalised features) and the two
   * log-scores are mixed: (1 − mix)·naive Bayes + mix·regression. On the ten THUCNews classes a
   * mix of 0.7 is the best configuration measured (validation 89.94% against 89.39% for naive Bayes
   * alone), but it does not help a binary topic (体育 F1 94.2% against 94.6%) and doubles the model,
   * so topics use plain naive Bayes. @default 0
   */
  linearMix: number;
  /** Passes of the regression's training (more overfits titles). @default 1 */
  linearEpochs: number;
  /** AdaGrad step size of the regression. @default 0.5 */
  linearRate: number;
  /** Seed of the refinement's document order. @default 1 */
  seed: number;
}

/** Defaults of {@link NaiveBayesOptions}. */
export const DEFAULT_NB_OPTIONS: Readonly<NaiveBayesOptions> = {
  features: { words: true, charNgrams: [2] },
  alpha: 0.3,
  selectK: 0,
  minCount: 1,
  chi2Weighting: false,
  chi2Power: 0.25,
  complement: false,
  refineEpochs: 1,
  refineRate: 0.1,
  linearMix: 0,
  linearEpochs: 1,
  linearRate: 0.5,
  seed: 1,
};

/** The serialisable content of a trained naive Bayes model. */
export interface NaiveBayesState {
  options: NaiveBayesOptions;
  classes: string[];
  /** Training documents per class. */
  classDocs: number[];
  /** Kept word features, then kept character n-grams; feature i is `words[i]` or `grams[i - words.length]`. */
  words: string[];
  grams: string[];
  /** counts[c][i]: occurrences of feature i in class c. */
  counts: number[][];
  /** Weight of each kept feature's log-likelihood (1 or its χ² weight, then refined), 4 significant digits. */
  weights: number[];
  /** The logistic regression mixed in (`options.linearMix` > 0), else null. */
  linear: { bias: number[]; weights: number[][] } | null;
}

/** One feature's share in a decision. */
export interface TermWeight {
  term: string;
  weight: number;
}

/** A naive Bayes decision. */
export interface NaiveBayesPrediction {
  /** Most probable class. */
  label: string;
  /** Class index of `label`. */
  classIndex: number;
  /** Posterior of every class (same order as `classes`), summing to 1. */
  posteriors: Float64Array;
}

/** Refused training input (for example a single class); the message says what to fix. */
export class TrainingError extends Error {
  override name = "TrainingError";
  /**
   * @param message English, for the CLI.
   * @param code The refusal as a key of the dashboard's `topics.job.errors` messages, with `values`.
   */
  constructor(
    message: string,
    readonly code?: string,
    readonly values: Record<string, string | number> = {},
  ) {
    super(message);
  }
}

function round6(x: number): number {
  return x === 0 ? 0 : Number(x.toPrecision(6));
}

function round4(x: number): number {
  return x === 0 ? 0 : Number(x.toPrecision(4));
}

/**
 * χ² of a 2×2 contingency table: `a` docs of the class containing the feature, `b` docs of other
 * classes containing it, `n1` docs of the class, `n` docs in all.
 */
export function chiSquare(a: number, b: number, n1: number, n: number): number {
  const c = n1 - a;
  const d = n - n1 - b;
  const denom = (a + c) * (b + d) * (a + b) * (c + d);
  if (denom === 0) return 0;
  const diff = a * d - b * c;
  return (n * diff * diff) / denom;
}

/** Merge partial options over the defaults (features replaced as a whole). */
export function naiveBayesOptions(options: Partial<NaiveBayesOptions> = {}): NaiveBayesOptions {
  return { ...DEFAULT_NB_OPTIONS, ...options, features: { ...(options.features ?? DEFAULT_NB_OPTIONS.features) } };
}

/** Log-likelihood table (feature-major, unweighted) of counts under the options' event model. */
function logLikelihoods(counts: Float64Array, V: number, C: number, options: NaiveBayesOptions): Float64Array {
  const a = options.alpha;
  const classTotal = new Float64Array(C);
  for (let f = 0; f < V; f++) for (let c = 0; c < C; c++) classTotal[c] = (classTotal[c] as number) + (counts[f * C + c] as number);
  let allTotal = 0;
  for (let c = 0; c < C; c++) allTotal += classTotal[c] as number;
  const out = new Float64Array(V * C);
  for (let f = 0; f < V; f++) {
    let fTotal = 0;
    for (let c = 0; c < C; c++) fTotal += counts[f * C + c] as number;
    for (let c = 0; c < C; c++) {
      const n = counts[f * C + c] as number;
      out[f * C + c] = options.complement
        ? // Complement NB scores a class by how UNlike the other classes the text is.
          -Math.log((fTotal - n + a) / (allTotal - (classTotal[c] as number) + a * V))
        : Math.log((n + a) / ((classTotal[c] as number) + a * V));
    }
  }
  return out;
}

/**
 * Train on prepared texts. `labels[i]` is the class of `texts[i]`. Refuses fewer than two classes.
 */
export function trainNaiveBayes(
  texts: readonly PreparedText[],
  labels: readonly string[],
  options: Partial<NaiveBayesOptions> = {},
): NaiveBayesState {
  const opts = naiveBayesOptions(options);
  if (texts.length !== labels.length) throw new TrainingError(`got ${texts.length} texts but ${labels.length} labels`);
  const classes = [...new Set(labels)].sort();
  if (classes.length < 2) {
    throw new TrainingError(
      `training needs samples of at least two labels, got ${classes.length === 0 ? "none" : `only "${classes[0]}"`} (${texts.length} samples)`,
    );
  }
  const classIndex = new Map(classes.map((c, i) => [c, i]));
  const C = classes.length;
  const y = Int32Array.from(labels, (l) => classIndex.get(l) as number);

  // Pass 1: vocabulary and per-document feature ids.
  const vocab = new Vocabulary();
  const docIds: Int32Array[] = [];
  const buf: number[] = [];
  for (const t of texts) {
    buf.length = 0;
    vocab.collect(t, opts.features, true, buf);
    docIds.push(Int32Array.from(buf));
  }
  const V = vocab.size;

  // Pass 2: document frequency per (feature, class) for χ², and total occurrences per feature.
  const df = new Int32Array(V * C);
  const total = new Float64Array(V);
  const lastDoc = new Int32Array(V).fill(-1);
  const classDocs = new Array<number>(C).fill(0);
  for (let d = 0; d < docIds.length; d++) {
    const c = y[d] as number;
    classDocs[c] = (classDocs[c] as number) + 1;
    for (const f of docIds[d] as Int32Array) {
      total[f] = (total[f] as number) + 1;
      if (lastDoc[f] !== d) {
        lastDoc[f] = d;
        df[f * C + c] = (df[f * C + c] as number) + 1;
      }
    }
  }

  // χ² of each feature: the largest over classes, so a word typical of any one class scores high.
  // For a binary topic both classes give the same value, which is exactly the paper's χ²(f, topic).
  const N = docIds.length;
  const chi2 = new Float64Array(V);
  for (let f = 0; f < V; f++) {
    let dfAll = 0;
    for (let c = 0; c < C; c++) dfAll += df[f * C + c] as number;
    let best = 0;
    for (let c = 0; c < C; c++) {
      const a = df[f * C + c] as number;
      const x = chiSquare(a, dfAll - a, classDocs[c] as number, N);
      if (x > best) best = x;
    }
    chi2[f] = round6(best);
  }

  let kept: number[] = [];
  for (let f = 0; f < V; f++) if ((total[f] as number) >= opts.minCount) kept.push(f);
  if (opts.selectK > 0 && kept.length > opts.selectK) {
    kept.sort((p, q) => (chi2[q] as number) - (chi2[p] as number) || p - q);
    kept = kept.slice(0, opts.selectK);
  }
  // Words first, then n-grams, each in first-seen order: stable, readable JSON.
  const order = [
    ...kept.filter((f) => !vocab.isGram[f]).sort((p, q) => p - q),
    ...kept.filter((f) => vocab.isGram[f]).sort((p, q) => p - q),
  ];
  const K = order.length;
  const newId = new Int32Array(V).fill(-1);
  order.forEach((f, i) => (newId[f] = i));

  // Counts over kept features only: the denominators must not include dropped features.
  const counts = new Float64Array(K * C);
  const docs: Int32Array[] = docIds.map((ids, d) => {
    const c = y[d] as number;
    const out: number[] = [];
    for (const f of ids) {
      const g = newId[f] as number;
      if (g < 0) continue;
      counts[g * C + c] = (counts[g * C + c] as number) + 1;
      out.push(g);
    }
    return Int32Array.from(out);
  });

  let meanChi2 = 0;
  for (const f of order) meanChi2 += chi2[f] as number;
  meanChi2 = K > 0 ? meanChi2 / K : 0;
  const weights = new Float64Array(K);
  for (let i = 0; i < K; i++) {
    // Normalising by the mean keeps the likelihood on the prior's scale whatever the corpus size.
    weights[i] = opts.chi2Weighting && meanChi2 > 0 ? Math.pow((chi2[order[i] as number] as number) / meanChi2, opts.chi2Power) : 1;
  }
  if (opts.refineEpochs > 0 && !opts.complement) {
    refineWeights(weights, counts, docs, y, classDocs, K, C, opts);
  }
  const linear = opts.linearMix > 0 ? trainLinear(docs, y, K, C, opts) : null;

  return {
    options: opts,
    classes,
    classDocs,
    words: order.filter((f) => !vocab.isGram[f]).map((f) => vocab.raw[f] as string),
    grams: order.filter((f) => vocab.isGram[f]).map((f) => vocab.raw[f] as string),
    counts: classes.map((_, c) => Array.from({ length: K }, (_, i) => counts[i * C + c] as number)),
    // 4 digits are plenty for a weight and keep a stored model small; the model used after
    // training is compiled from these rounded numbers too, so it matches its JSON exactly.
    weights: Array.from(weights, round4),
    linear: linear && {
      bias: Array.from(linear.bias, round4),
      weights: classes.map((_, c) => Array.from({ length: K }, (_, i) => round4(linear.weights[i * C + c] as number))),
    },
  };
}

/**
 * WANBIA-style refinement of per-feature weights (in place). For each training document the
 * log-likelihoods of its own class are recomputed with the document's counts removed (leave one
 * out); without that, every training feature looks "seen" and the weights only learn to trust
 * the training set.
 */
function refineWeights(
  weights: Float64Array,
  counts: Float64Array,
  docs: readonly Int32Array[],
  y: Int32Array,
  classDocs: readonly number[],
  K: number,
  C: number,
  opts: NaiveBayesOptions,
): void {
  const a = opts.alpha;
  const lk = logLikelihoods(counts, K, C, opts);
  const classTotal = new Float64Array(C);
  for (let i = 0; i < K * C; i++) classTotal[i % C] = (classTotal[i % C] as number) + (counts[i] as number);
  const N = docs.length;
  const logPrior = Float64Array.from(classDocs, (n) => Math.log(n / N));
  const grad2 = new Float64Array(K).fill(1e-8);
  const s = new Float64Array(C);
  const p = new Float64Array(C);
  // Per-document scratch: distinct features, their counts and own-class LOO log-likelihoods.
  const seenAt = new Int32Array(K).fill(-1);
  const uniq: number[] = [];
  const mult = new Float64Array(K);
  const own = new Float64Array(K);
  const index = Array.from({ length: N }, (_, i) => i);
  for (let epoch = 0; epoch < opts.refineEpochs; epoch++) {
    for (const d of shuffled(index, opts.seed + epoch)) {
      const ids = docs[d] as Int32Array;
      if (ids.length === 0) continue;
      const cy = y[d] as number;
      uniq.length = 0;
      for (const f of ids) {
        if (seenAt[f] !== d) {
          seenAt[f] = d;
          mult[f] = 0;
          uniq.push(f);
        }
        mult[f] = (mult[f] as number) + 1;
      }
      const looDen = Math.log((classTotal[cy] as number) - ids.length + a * K);
      s.set(logPrior);
      for (const f of uniq) {
        const m = mult[f] as number;
        const w = weights[f] as number;
        own[f] = Math.log((counts[f * C + cy] as number) - m + a) - looDen;
        for (let c = 0; c < C; c++) s[c] = (s[c] as number) + m * w * (c === cy ? (own[f] as number) : (lk[f * C + c] as number));
      }
      let max = -Infinity;
      for (let c = 0; c < C; c++) if ((s[c] as number) > max) max = s[c] as number;
      let z = 0;
      for (let c = 0; c < C; c++) {
        p[c] = Math.exp((s[c] as number) - max);
        z += p[c] as number;
      }
      for (const f of uniq) {
        // d(-log P(y|d))/dw_f = m · (E_P[ℓ_f] − ℓ_f(y)): raise weights of features that favour the truth.
        let expected = 0;
        for (let c = 0; c < C; c++) expected += ((p[c] as number) / z) * (c === cy ? (own[f] as number) : (lk[f * C + c] as number));
        const g = (mult[f] as number) * (expected - (own[f] as number));
        grad2[f] = (grad2[f] as number) + g * g;
        weights[f] = Math.max(0, (weights[f] as number) - (opts.refineRate * g) / Math.sqrt(grad2[f] as number));
      }
    }
  }
}

/**
 * Multinomial logistic regression over the same feature ids, one pass of AdaGrad from zero.
 * Features are scaled by 1/√(features in the text) so long and short texts weigh alike.
 */
function trainLinear(
  docs: readonly Int32Array[],
  y: Int32Array,
  K: number,
  C: number,
  opts: NaiveBayesOptions,
): { bias: Float64Array; weights: Float64Array } {
  const weights = new Float64Array(K * C);
  const grad2 = new Float64Array(K * C).fill(1e-8);
  const bias = new Float64Array(C);
  const p = new Float64Array(C);
  const index = Array.from({ length: docs.length }, (_, i) => i);
  for (let epoch = 0; epoch < opts.linearEpochs; epoch++) {
    for (const d of shuffled(index, opts.seed + 1000 + epoch)) {
      const ids = docs[d] as Int32Array;
      if (ids.length === 0) continue;
      const k = 1 / Math.sqrt(ids.length);
      p.set(bias);
      for (const f of ids) for (let c = 0; c < C; c++) p[c] = (p[c] as number) + k * (weights[f * C + c] as number);
      let max = -Infinity;
      for (let c = 0; c < C; c++) if ((p[c] as number) > max) max = p[c] as number;
      let z = 0;
      for (let c = 0; c < C; c++) {
        p[c] = Math.exp((p[c] as number) - max);
        z += p[c] as number;
      }
      const cy = y[d] as number;
      for (let c = 0; c < C; c++) {
        const g = (p[c] as number) / z - (c === cy ? 1 : 0);
        // A class the text already rules out gets no update: most of the C classes for most texts.
        if (g > -1e-4 && g < 1e-4) continue;
        bias[c] = (bias[c] as number) - 0.01 * g;
        const gk = g * k;
        for (const f of ids) {
          const i = f * C + c;
          grad2[i] = (grad2[i] as number) + gk * gk;
          weights[i] = (weights[i] as number) - (opts.linearRate * gk) / Math.sqrt(grad2[i] as number);
        }
      }
    }
  }
  return { bias, weights };
}

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
  private readonly termIds: number[] = [];
  private readonly termSums: number[] = [];

  constructor(readonly state: NaiveBayesState) {
    const { classes, classDocs, counts, weights, options } = state;
    this.classes = classes;
    const C = (this.C = classes.length);
    const V = state.words.length + state.grams.length;
    for (const w of state.words) this.vocab.wordId(w, true);
    for (const g of state.grams) this.vocab.gramId(g, true);
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
    // A title has a few dozen features: linear scans beat a Map, and only the winners become objects.
    const terms = this.termIds;
    const sums = this.termSums;
    terms.length = 0;
    sums.length = 0;
    const lin = this.linear;
    const mix = this.mix;
    const k = ids.length > 0 ? 1 / Math.sqrt(ids.length) : 0;
    for (const f of ids) {
      let d = (w[f * C + c] as number) - (w[f * C + versus] as number);
      if (lin) d = (1 - mix) * d + mix * k * ((lin[f * C + c] as number) - (lin[f * C + versus] as number));
      if (d <= 0) continue;
      const at = terms.indexOf(f);
      if (at >= 0) sums[at] = (sums[at] as number) + d;
      else {
        terms.push(f);
        sums.push(d);
      }
    }
    const out: TermWeight[] = [];
    for (let n = 0; n < limit && terms.length > 0; n++) {
      let best = 0;
      for (let j = 1; j < terms.length; j++) if ((sums[j] as number) > (sums[best] as number)) best = j;
      out.push({ term: this.vocab.names[terms[best] as number] as string, weight: Math.round((sums[best] as number) * 1e4) / 1e4 });
      terms[best] = terms[terms.length - 1] as number;
      sums[best] = sums[sums.length - 1] as number;
      terms.length--;
      sums.length--;
    }
    return out;
  }
}
