/**
 * Training of naive Bayes (see ./naive-bayes for the method): vocabulary, χ² selection and
 * weighting, then the optional WANBIA weight refinement and the optional logistic regression mixed
 * into the decision. The result is a plain {@link NaiveBayesState}; ./naive-bayes-model compiles it.
 */
import { Vocabulary, type PreparedText } from "./features";
import { chiSquare, logLikelihoods, naiveBayesOptions, TrainingError, type NaiveBayesOptions, type NaiveBayesState } from "./naive-bayes-core";
import { shuffled } from "./random";

function round6(x: number): number {
  return x === 0 ? 0 : Number(x.toPrecision(6));
}

function round4(x: number): number {
  return x === 0 ? 0 : Number(x.toPrecision(4));
}

/**
 * Train on prepared texts. `labels[i]` is the class of `texts[i]`. Refuses fewer than two classes.
 */
export function trainNaiveBayes(texts: readonly PreparedText[], labels: readonly string[], options: Partial<NaiveBayesOptions> = {}): NaiveBayesState {
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
  const order = [...kept.filter((f) => !vocab.isGram[f]).sort((p, q) => p - q), ...kept.filter((f) => vocab.isGram[f]).sort((p, q) => p - q)];
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
        for (let c = 0; c < C; c++) s[c] = (s[c] as number) + m * w * (c === cy ? own[f] : (lk[f * C + c] as number));
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
        weights[f] = Math.max(0, (weights[f] as number) - (opts.refineRate * g) / Math.sqrt(grad2[f]));
      }
    }
  }
}

/**
 * Multinomial logistic regression over the same feature ids, one pass of AdaGrad from zero.
 * Features are scaled by 1/√(features in the text) so long and short texts weigh alike.
 */
function trainLinear(docs: readonly Int32Array[], y: Int32Array, K: number, C: number, opts: NaiveBayesOptions): { bias: Float64Array; weights: Float64Array } {
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
          weights[i] = (weights[i] as number) - (opts.linearRate * gk) / Math.sqrt(grad2[i]);
        }
      }
    }
  }
  return { bias, weights };
}
