/**
 * Training of the NBSVM model (see ./nbsvm): feature ids with a document-frequency cut, naive
 * Bayes log-count ratios one class against the rest (./nbsvm-features), then averaged SGD on the softmax loss over
 * the scaled features. The result is a plain {@link NbLogisticState}; ./nbsvm-model compiles it.
 */
import { linearTrainingData, nbLogisticOptions, type NbLogisticOptions, type NbLogisticState } from "./nbsvm-features";
import type { PreparedText } from "./features";
import { shuffled } from "./random";

/**
 * Train on prepared texts (`labels[i]` is the class of `texts[i]`). Refuses fewer than two classes.
 */
export function trainNbLogistic(texts: readonly PreparedText[], labels: readonly string[], options: Partial<NbLogisticOptions> = {}): NbLogisticState {
  const opts = nbLogisticOptions(options);
  const { classes, y, docs, words, pairs, grams, K, r } = linearTrainingData(texts, labels, opts);
  const C = classes.length;

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
