/**
 * Naive Bayes, the parts training and prediction share: options and their defaults, the
 * serialisable state, the prediction shape, the refusal error, χ² and the log-likelihood table of
 * the event model. Import from ./naive-bayes; this file exists so ./naive-bayes-train and
 * ./naive-bayes-model need not import each other.
 */
import type { FeatureOptions } from "./features";

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

/**
 * Log-likelihood table (feature-major, unweighted) of counts under the options' event model.
 * Training (the weight refinement) and the compiled model both derive it from counts, so the two
 * can never disagree on the smoothing.
 */
export function logLikelihoods(counts: Float64Array, V: number, C: number, options: NaiveBayesOptions): Float64Array {
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
 * The evidence of a text's features for one class over another, summed per feature, and the
 * largest sums as {@link TermWeight}s: the shared end of every model's `topTerms`. Reused from one
 * text to the next: a title has a few dozen features, so linear scans beat a Map, and only the
 * winners become objects.
 */
export class TermTally {
  // Typed arrays scanned by hand: no builtin call per feature (Array#indexOf), no boxed numbers.
  private terms = new Int32Array(64);
  private sums = new Float64Array(64);
  private n = 0;

  /** Start a new tally. */
  clear(): void {
    this.n = 0;
  }

  /** Add `d` to feature `f`'s sum; only positive evidence counts. */
  add(f: number, d: number): void {
    if (d <= 0) return;
    const terms = this.terms;
    const n = this.n;
    for (let j = 0; j < n; j++) {
      if (terms[j] === f) {
        this.sums[j] = (this.sums[j] as number) + d;
        return;
      }
    }
    if (n === terms.length) {
      this.terms = new Int32Array(2 * n);
      this.terms.set(terms);
      const sums = this.sums;
      this.sums = new Float64Array(2 * n);
      this.sums.set(sums);
    }
    this.terms[n] = f;
    this.sums[n] = d;
    this.n = n + 1;
  }

  /** The `limit` largest sums, largest first, named by `names[f]` (weights to 4 decimals). Empties the tally. */
  top(names: readonly string[], limit: number): TermWeight[] {
    const terms = this.terms;
    const sums = this.sums;
    const out: TermWeight[] = [];
    // The first of equal sums wins, and the winner's slot takes the last entry: order as before.
    for (let k = 0; k < limit && this.n > 0; k++) {
      const last = this.n - 1;
      let best = 0;
      for (let j = 1; j <= last; j++) if ((sums[j] as number) > (sums[best] as number)) best = j;
      out.push({ term: names[terms[best] as number] as string, weight: Math.round((sums[best] as number) * 1e4) / 1e4 });
      terms[best] = terms[last] as number;
      sums[best] = sums[last] as number;
      this.n = last;
    }
    return out;
  }
}
