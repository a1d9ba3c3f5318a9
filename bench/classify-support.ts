/**
 * Helpers of `npm run bench:classify` (bench/classify.ts): throughput timing, the TF-IDF cosine
 * method as a multi-class classifier, and number formatting for the table.
 */
import { buildTopicVectors, TopicVector, type PreparedText } from "../crawler/classify";

/**
 * Best of `runs` timings of `fn` over all texts, as texts per second (first run warms up). Timed
 * in CPU time of this process (everything here runs on one thread, nodejieba included): on a
 * machine shared with other work, wall time would also count the time spent waiting for a core.
 */
export function throughput(texts: readonly string[], fn: (text: string) => unknown, runs = 3): number {
  let best = Infinity;
  let sink = 0;
  for (let r = 0; r <= runs; r++) {
    const t0 = process.cpuUsage();
    for (const t of texts) if (fn(t)) sink++;
    const used = process.cpuUsage(t0);
    const s = (used.user + used.system) / 1e6;
    if (r > 0) best = Math.min(best, s);
  }
  if (sink < 0) console.log(sink);
  return texts.length / best;
}

/**
 * Throughput of `a` and `b` measured in alternation (best of `rounds` each), so that a busy
 * machine slows both alike and their ratio stays meaningful.
 */
export function pairedThroughput(texts: readonly string[], a: (t: string) => unknown, b: (t: string) => unknown, rounds = 5): [number, number] {
  let bestA = 0;
  let bestB = 0;
  for (let r = 0; r < rounds; r++) {
    bestA = Math.max(bestA, throughput(texts, a, 1));
    bestB = Math.max(bestB, throughput(texts, b, 1));
  }
  return [bestA, bestB];
}

/** The vector space model as a multi-class classifier: one topic vector per class, nearest wins. */
export function nearestVectorClassifier(texts: readonly PreparedText[], labels: readonly string[], size: number) {
  const classes = [...new Set(labels)].sort();
  const groups = classes.map((c) => labels.flatMap((l, i) => (l === c ? [i] : [])));
  const vectors = buildTopicVectors(texts, groups, { size }).map((v) => new TopicVector(v));
  return (t: PreparedText): string => {
    let best = 0;
    let bestCos = -1;
    for (let i = 0; i < vectors.length; i++) {
      const c = (vectors[i] as TopicVector).cosine(t);
      if (c > bestCos) {
        bestCos = c;
        best = i;
      }
    }
    return classes[best] as string;
  };
}

/** A fraction as a percentage with two decimals, padded for the table. */
export function pct(x: number): string {
  return (100 * x).toFixed(2).padStart(6);
}
/** Texts per second, rounded and padded for the table. */
export function rate(x: number): string {
  return Math.round(x).toLocaleString("en-US").padStart(9);
}
