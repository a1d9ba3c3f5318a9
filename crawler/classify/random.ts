/**
 * Seeded randomness for reproducible splits: the same seed gives the same train/test split on
 * every machine and every run.
 */

/** mulberry32: a tiny, fast 32-bit PRNG; plenty for shuffling a data set. Returns floats in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A shuffled copy of `items` (Fisher–Yates with a seeded generator). */
export function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = items.slice();
  const rand = seededRandom(seed);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    const tmp = out[i] as T;
    out[i] = out[j] as T;
    out[j] = tmp;
  }
  return out;
}

/** Split into a random `1 - testFraction` / `testFraction` pair, reproducibly. */
export function splitRandom<T>(items: readonly T[], testFraction: number, seed: number): { train: T[]; test: T[] } {
  const s = shuffled(items, seed);
  const nTest = Math.round(s.length * testFraction);
  return { test: s.slice(0, nTest), train: s.slice(nTest) };
}
