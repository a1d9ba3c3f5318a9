/**
 * A linear SVM over NBSVM's features (Wang & Manning 2012: binary word, word-pair and character
 * 1–3-gram features, each scaled per class by its naive Bayes log-count ratio, the text's vector
 * L2-normalised), one class against the rest, trained by dual coordinate descent on the
 * L2-regularised squared-hinge loss (Hsieh et al. 2008, LIBLINEAR's default solver). Prediction
 * is one sparse dot product per class: the trained state is a {@link LinearTextState} that
 * ./nbsvm-model compiles like the NBSVM regression.
 *
 * Measured on the validation split of the THUCNews training 90% (seed 7), 10 classes:
 *
 * | configuration | accuracy |
 * |---|---|
 * | SVM, unscaled binary features, cost 1 / 3 | 89.93 / 90.08% |
 * | SVM, NB-scaled features, cost 0.1 / 0.2 / 0.3 / 0.5 / 1 | 89.98 / 90.57 / 90.68 / 90.52 / 90.55% |
 * | the same, squared hinge replaced by the hinge (cost 0.2 / 0.5) | 89.70 / 90.35% |
 * | the same, characters 1–2 / 2–3 / 2 only (cost 0.3) | 90.47 / 90.03 / 90.05% |
 * | NBSVM logistic regression (./nbsvm, for comparison) | 89.79% |
 * | the SVM (cost 0.3) with naive Bayes, mix 0.8: all n-grams / the half of largest weight | 90.94 / 90.97% |
 *
 * Scores become posteriors through a softmax of `scale` × score; the scale only matters where
 * the SVM is averaged with naive Bayes (the `nb-svm` topic classifier, ./model.ts).
 *
 * In-domain texts (a topic's review samples: posts of the monitored platforms, where the uploads
 * are usually news titles) get feature copies of their own beside the shared ones: "frustratingly
 * easy domain adaptation" (Daumé 2007). A review then fits its own copies as well as the shared
 * weights, so a few hundred reviews can say what a word means on the platform (好莱坞 in a Weibo
 * post is entertainment even next to an airport accident) without fighting 60,000 news titles on
 * the shared weights, under the same regularisation. Every text a topic classifies is in-domain,
 * so the stored weight is shared + own: the model format is unchanged. `npm run bench:review-loop`,
 * THUCNews → Weibo 周杰伦/好莱坞, F1 after 300 queue answers 90.32 / 88.55% without, 92.91 / 92.65%
 * with (seeds 1 / 2); LilyBBS 84.50 / 81.94% without, 84.79 / 81.83% with.
 */
import { TrainingError } from "./naive-bayes-core";
import { linearTrainingData, type LinearTextState } from "./nbsvm-features";
import type { PreparedText } from "./features";
import { shuffled } from "./random";

/** Options of {@link trainLinearSvm}; defaults chosen on the THUCNews validation split (above). */
export interface LinearSvmOptions {
  /** Word unigrams. @default true */
  words: boolean;
  /** Word bigrams (adjacent tokens after stop words). @default true */
  wordBigrams: boolean;
  /** Character n-gram orders (1–3). @default [1, 2, 3] */
  charNgrams: number[];
  /** Drop features found in fewer training texts than this. @default 2 */
  minCount: number;
  /** Smoothing of the log-count ratios. @default 0.5 */
  alpha: number;
  /** The SVM's cost C (larger: fits the training texts more closely). @default 0.3 */
  cost: number;
  /** Passes of coordinate descent over the training texts. @default 10 */
  epochs: number;
  /**
   * Stored weights and bias are multiplied by this, so that a softmax of the scores reads as
   * posteriors (chosen with the naive Bayes mix of the `nb-svm` classifier). @default 4
   */
  scale: number;
  /**
   * Share of the character n-gram features kept after training, those of largest weight (max
   * |w| over classes): the others cost a lookup per text for little evidence. Validation, 10
   * classes: keeping 1 / 0.5 gave 90.94 / 90.97% (mixed with naive Bayes) and a smaller, faster
   * model. @default 0.5
   */
  keepGrams: number;
  /** Seed of the text order. @default 1 */
  seed: number;
}

/** Defaults of {@link LinearSvmOptions}. */
export const DEFAULT_LINEAR_SVM_OPTIONS: Readonly<LinearSvmOptions> = {
  words: true,
  wordBigrams: true,
  charNgrams: [1, 2, 3],
  minCount: 2,
  alpha: 0.5,
  cost: 0.3,
  epochs: 10,
  scale: 4,
  keepGrams: 0.5,
  seed: 1,
};

/** The serialisable content of a trained linear SVM (compiled by ./nbsvm-model's NbLogistic). */
export interface LinearSvmState extends LinearTextState {
  options: LinearSvmOptions;
}

/** Merge partial options over the defaults (n-gram orders copied, not shared). */
export function linearSvmOptions(options: Partial<LinearSvmOptions> = {}): LinearSvmOptions {
  return { ...DEFAULT_LINEAR_SVM_OPTIONS, ...options, charNgrams: [...(options.charNgrams ?? DEFAULT_LINEAR_SVM_OPTIONS.charNgrams)] };
}

/**
 * Train on prepared texts (`labels[i]` is the class of `texts[i]`). Refuses fewer than two
 * classes. Deterministic for given options (the text order comes from `seed`).
 */
export function trainLinearSvm(
  texts: readonly PreparedText[],
  labels: readonly string[],
  options: Partial<LinearSvmOptions> = {},
  inDomain?: readonly boolean[],
): LinearSvmState {
  const opts = linearSvmOptions(options);
  if (texts.length !== labels.length) throw new TrainingError(`got ${texts.length} texts but ${labels.length} labels`);
  if (inDomain && inDomain.length !== texts.length) throw new TrainingError(`got ${texts.length} texts but ${inDomain.length} in-domain marks`);
  if (!(opts.cost > 0) || !(opts.scale > 0)) throw new TrainingError(`the SVM's cost and scale must be positive (got ${opts.cost}, ${opts.scale})`);
  const { classes, y, docs, words, pairs, grams, K, r } = linearTrainingData(texts, labels, opts);
  const C = classes.length;

  const w = new Float64Array(K * C);
  const b = new Float64Array(C);
  // In-domain texts' own feature copies (feature augmentation, module comment); none without such texts.
  const dom = inDomain?.some(Boolean) ? Uint8Array.from(inDomain, (x) => (x ? 1 : 0)) : null;
  const w2 = dom ? new Float64Array(K * C) : null;
  // Two classes: class 0's ratios are class 1's negated and so are its labels, so its texts and
  // labels are class 1's both negated: the same dual solution, the same w over the scaled features
  // (hence effective weights r·w negated) and the bias negated. Train one, mirror it.
  const trained = C === 2 ? [1] : classes.map((_, c) => c);
  for (const c of trained) b[c] = trainOneVsRest(docs, y, c, r, C, w, opts, dom, w2);
  // The texts a topic classifies are in-domain: their weight is the shared one plus the in-domain copy's.
  if (w2) for (let i = 0; i < w.length; i++) w[i] = (w[i] as number) + (w2[i] as number);
  if (C === 2) {
    for (let f = 0; f < K; f++) w[f * C] = w[f * C + 1] as number;
    b[0] = -(b[1] as number);
  }
  const s = opts.scale;
  const all = classes.map((_, c) => Float32Array.from({ length: K }, (_, f) => s * (w[f * C + c] as number) * (r[f * C + c] as number)));
  const bias = Array.from(Float32Array.from(b, (x) => s * x));
  const keep = keptGrams(all, words.length + pairs.length, grams.length, opts.keepGrams);
  const kept = (f: number) => f < words.length + pairs.length || keep[f - words.length - pairs.length] === 1;
  const weights = all.map((row) => Array.from(row).filter((_, f) => kept(f)));
  return { options: opts, classes, words, pairs, grams: grams.filter((_, i) => keep[i] === 1), bias, weights };
}

/**
 * Which of the `n` n-gram features (columns `base`… of `weights`) to keep: the `share` of largest
 * max-over-classes |weight| (ties at the cut kept too, so the result never depends on order),
 * never one whose weight is zero.
 */
function keptGrams(weights: readonly Float32Array[], base: number, n: number, share: number): Uint8Array {
  const mag = Float64Array.from({ length: n }, (_, i) => Math.max(...weights.map((row) => Math.abs(row[base + i] as number))));
  const keep = new Uint8Array(n).fill(1);
  if (share >= 1 || n === 0) return keep;
  const sorted = Float64Array.from(mag).sort();
  const cut = sorted[Math.min(n - 1, Math.floor((1 - Math.max(0, share)) * n))] as number;
  // A zero weight is no evidence at all (most features of a binary topic, where the SVM needed few
  // support vectors): when the cut falls on zero, only the features with a weight stay.
  for (let i = 0; i < n; i++) if ((mag[i] as number) < cut || (mag[i] as number) === 0) keep[i] = 0;
  return keep;
}

/**
 * Dual coordinate descent for class `c` against the rest (squared hinge: each dual variable
 * αᵢ ≥ 0, diagonal 1/(2·cost)). Text i is x_f = r[f,c] / √nᵢ over its features plus a constant
 * bias feature 1; w (column c of `w`, feature-major) is kept equal to Σ αᵢ yᵢ xᵢ. Returns the bias.
 */
function trainOneVsRest(
  docs: readonly Int32Array[],
  y: Int32Array,
  c: number,
  r: Float64Array,
  C: number,
  w: Float64Array,
  opts: LinearSvmOptions,
  dom: Uint8Array | null,
  w2: Float64Array | null,
): number {
  const n = docs.length;
  const diag = 1 / (2 * opts.cost);
  const alpha = new Float64Array(n);
  // Squared norms of the scaled texts (constant over the passes).
  const q = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const d = docs[i] as Int32Array;
    let sum = 0;
    for (const f of d) sum += (r[f * C + c] as number) ** 2;
    // An in-domain text has every feature twice (shared and own copy).
    q[i] = (d.length > 0 ? ((dom?.[i] ? 2 : 1) * sum) / d.length : 0) + 1 + diag;
  }
  const order = Array.from({ length: n }, (_, i) => i);
  let b = 0;
  for (let epoch = 0; epoch < opts.epochs; epoch++) {
    for (const i of shuffled(order, opts.seed + 31 * epoch + c)) {
      const d = docs[i] as Int32Array;
      const k = d.length > 0 ? 1 / Math.sqrt(d.length) : 0;
      const yi = y[i] === c ? 1 : -1;
      const own = w2 !== null && dom?.[i] === 1;
      let s = b;
      if (own) for (const f of d) s += ((w[f * C + c] as number) + (w2[f * C + c] as number)) * (r[f * C + c] as number);
      else for (const f of d) s += (w[f * C + c] as number) * (r[f * C + c] as number);
      s = b + (s - b) * k;
      const a = alpha[i] as number;
      const g = yi * s - 1 + diag * a;
      // Projected gradient: at the bound α = 0 only a negative gradient moves it.
      if (g === 0 || (a === 0 && g > 0)) continue;
      const next = Math.max(a - g / (q[i] as number), 0);
      const delta = (next - a) * yi;
      if (delta === 0) continue;
      alpha[i] = next;
      const step = delta * k;
      for (const f of d) w[f * C + c] = (w[f * C + c] as number) + step * (r[f * C + c] as number);
      if (own) for (const f of d) w2[f * C + c] = (w2[f * C + c] as number) + step * (r[f * C + c] as number);
      b += delta;
    }
  }
  return b;
}
