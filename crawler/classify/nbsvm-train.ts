/**
 * Training of the NBSVM model (see ./nbsvm): feature ids with a document-frequency cut, naive
 * Bayes log-count ratios one class against the rest, then averaged SGD on the softmax loss over
 * the scaled features. The result is a plain {@link NbLogisticState}; ./nbsvm-model compiles it.
 */
import { TrainingError } from "./naive-bayes-core";
import { FeatureIndex, nbLogisticOptions, PAIR_RADIX, type NbLogisticOptions, type NbLogisticState } from "./nbsvm-features";
import type { PreparedText } from "./features";
import { shuffled } from "./random";

/**
 * Train on prepared texts (`labels[i]` is the class of `texts[i]`). Refuses fewer than two classes.
 */
export function trainNbLogistic(texts: readonly PreparedText[], labels: readonly string[], options: Partial<NbLogisticOptions> = {}): NbLogisticState {
  const opts = nbLogisticOptions(options);
  if (texts.length !== labels.length) throw new TrainingError(`got ${texts.length} texts but ${labels.length} labels`);
  const classes = [...new Set(labels)].sort();
  if (classes.length < 2) {
    throw new TrainingError(
      `training needs samples of at least two labels, got ${classes.length === 0 ? "none" : `only "${classes[0]}"`} (${texts.length} samples)`,
    );
  }
  const C = classes.length;
  const classIndex = new Map(classes.map((c, i) => [c, i]));
  const y = Int32Array.from(labels, (l) => classIndex.get(l) as number);

  // Pass 1: raw ids. Vocabulary ids are < 2^31; pairs get ids from PAIR_BASE up so both share one space.
  const index = new FeatureIndex(opts);
  const PAIR_BASE = 2 ** 30;
  const pairKeys: number[] = [];
  const pairId = (key: number): number => {
    let p = index.pairs.get(key);
    if (p < 0) {
      p = pairKeys.length;
      pairKeys.push(key);
      index.pairs.set(key, p);
    }
    return PAIR_BASE + p;
  };
  const buf: number[] = [];
  const rawDocs = texts.map((t) => {
    buf.length = 0;
    index.collect(t, true, pairId, buf);
    return Int32Array.from(buf);
  });
  const nVocab = index.vocab.size;
  const df = new Int32Array(nVocab + pairKeys.length);
  const slot = (id: number) => (id >= PAIR_BASE ? nVocab + id - PAIR_BASE : id);
  for (const d of rawDocs) for (const id of d) df[slot(id)] = (df[slot(id)] as number) + 1;

  // Kept features: words, pairs, grams, each in first-seen order.
  const newId = new Int32Array(df.length).fill(-1);
  const words: string[] = [];
  const grams: string[] = [];
  const pairs: [string, string][] = [];
  const keptWords: number[] = [];
  const keptGrams: number[] = [];
  for (let id = 0; id < nVocab; id++) {
    if ((df[id] as number) < opts.minCount) continue;
    if (index.vocab.isGram[id]) keptGrams.push(id);
    else keptWords.push(id);
  }
  let K = 0;
  for (const id of keptWords) {
    newId[id] = K++;
    words.push(index.vocab.raw[id] as string);
  }
  for (let p = 0; p < pairKeys.length; p++) {
    if ((df[nVocab + p] as number) < opts.minCount) continue;
    newId[nVocab + p] = K++;
    const key = pairKeys[p] as number;
    pairs.push([index.vocab.raw[Math.floor(key / PAIR_RADIX)] as string, index.vocab.raw[key % PAIR_RADIX] as string]);
  }
  for (const id of keptGrams) {
    newId[id] = K++;
    grams.push(index.vocab.raw[id] as string);
  }
  const docs = rawDocs.map((d) => {
    const out: number[] = [];
    for (const id of d) {
      const f = newId[slot(id)] as number;
      if (f >= 0) out.push(f);
    }
    return Int32Array.from(out);
  });

  // Log-count ratios, one vs rest, on document frequencies.
  const a = opts.alpha;
  const count = new Float64Array(K * C);
  for (let d = 0; d < docs.length; d++)
    for (const f of docs[d] as Int32Array) count[f * C + (y[d] as number)] = (count[f * C + (y[d] as number)] as number) + 1;
  const classTotal = new Float64Array(C);
  for (let f = 0; f < K; f++) for (let c = 0; c < C; c++) classTotal[c] = (classTotal[c] as number) + (count[f * C + c] as number) + a;
  let allTotal = 0;
  for (let c = 0; c < C; c++) allTotal += classTotal[c] as number;
  const r = new Float64Array(K * C);
  for (let f = 0; f < K; f++) {
    let fTotal = 0;
    for (let c = 0; c < C; c++) fTotal += (count[f * C + c] as number) + a;
    for (let c = 0; c < C; c++) {
      const p = (count[f * C + c] as number) + a;
      r[f * C + c] = Math.log(p / (classTotal[c] as number)) - Math.log((fTotal - p) / (allTotal - (classTotal[c] as number)));
    }
  }

  // Averaged SGD on the softmax loss. The average of the iterates is kept without touching every
  // weight at every step: avg = w − u / t, where u accumulates t · (each update).
  const w = new Float64Array(K * C);
  const u = new Float64Array(K * C);
  const b = new Float64Array(C);
  const ub = new Float64Array(C);
  const s = new Float64Array(C);
  const order = Array.from({ length: docs.length }, (_, i) => i);
  const eta = opts.rate;
  let t = 1;
  for (let epoch = 0; epoch < opts.epochs; epoch++) {
    for (const d of shuffled(order, opts.seed + epoch)) {
      const x = docs[d] as Int32Array;
      if (x.length === 0) {
        t++;
        continue;
      }
      const k = 1 / Math.sqrt(x.length);
      s.set(b);
      for (const f of x) {
        const base = f * C;
        for (let c = 0; c < C; c++) s[c] = (s[c] as number) + k * (w[base + c] as number) * (r[base + c] as number);
      }
      let max = -Infinity;
      for (let c = 0; c < C; c++) if ((s[c] as number) > max) max = s[c] as number;
      let z = 0;
      for (let c = 0; c < C; c++) {
        s[c] = Math.exp((s[c] as number) - max);
        z += s[c] as number;
      }
      const cy = y[d] as number;
      for (let c = 0; c < C; c++) {
        const g = (s[c] as number) / z - (c === cy ? 1 : 0);
        // Classes the text already rules out get no update: most classes for most texts.
        if (g > -1e-6 && g < 1e-6) continue;
        b[c] = (b[c] as number) - eta * g;
        ub[c] = (ub[c] as number) - t * eta * g;
        const step = eta * g * k;
        for (const f of x) {
          const i = f * C + c;
          const st = step * (r[i] as number);
          w[i] = (w[i] as number) - st;
          u[i] = (u[i] as number) - t * st;
        }
      }
      t++;
    }
  }
  const weights = classes.map((_, c) =>
    Array.from(Float32Array.from({ length: K }, (_, f) => ((w[f * C + c] as number) - (u[f * C + c] as number) / t) * (r[f * C + c] as number))),
  );
  const bias = Array.from(Float32Array.from(b, (x, c) => x - (ub[c] as number) / t));
  return { options: opts, classes, words, pairs, grams, bias, weights };
}
