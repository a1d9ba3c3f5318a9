/**
 * SimHash (Charikar 2002) over weighted features, and its LSH banding: the near-duplicate and
 * repost detector of incident clustering. A 64-bit fingerprint is kept as two unsigned 32-bit
 * halves (JavaScript numbers), so nothing here needs BigInt on the hot path.
 */

/** A 64-bit SimHash as two unsigned 32-bit halves. */
export interface SimHash {
  hi: number;
  lo: number;
}

/** Bands the 64 bits are cut into: two fingerprints within {@link NEAR_DUPLICATE_BITS} share at least one band. */
export const SIMHASH_BANDS = 4;
/** Hamming distance at or below which two fingerprints are near-duplicates (pigeonhole: < SIMHASH_BANDS). */
export const NEAR_DUPLICATE_BITS = 3;

/** FNV-1a over a string's UTF-16 units, seeded: two independent 32-bit hashes make a 64-bit one. */
export function fnv1a(s: string, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  // A final avalanche (murmur3 fmix32): FNV's low bits are weak for short strings.
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** The SimHash of weighted features (feature → weight > 0). An empty input hashes to 0:0. */
export function simhash(features: ReadonlyMap<string, number> | Iterable<[string, number]>): SimHash {
  const v = new Float64Array(64);
  for (const [f, w] of features) {
    const a = fnv1a(f);
    const b = fnv1a(f, 0x9747b28c);
    for (let i = 0; i < 32; i++) {
      v[i] = v[i]! + ((a >>> i) & 1 ? w : -w);
      v[32 + i] = v[32 + i]! + ((b >>> i) & 1 ? w : -w);
    }
  }
  let hi = 0;
  let lo = 0;
  for (let i = 0; i < 32; i++) {
    if (v[i]! > 0) lo |= 1 << i;
    if (v[32 + i]! > 0) hi |= 1 << i;
  }
  return { hi: hi >>> 0, lo: lo >>> 0 };
}

function popcount32(x: number): number {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/** Number of differing bits of two fingerprints. */
export function hamming(a: SimHash, b: SimHash): number {
  return popcount32((a.hi ^ b.hi) >>> 0) + popcount32((a.lo ^ b.lo) >>> 0);
}

/**
 * The LSH band keys of a fingerprint: band i is its i-th 16 bits, keyed "i:value". Two fingerprints
 * at Hamming distance ≤ 3 agree on at least one of the 4 bands, so looking these keys up finds
 * every near-duplicate without comparing all pairs.
 */
export function simhashBands(h: SimHash): string[] {
  return [`0:${h.lo & 0xffff}`, `1:${h.lo >>> 16}`, `2:${h.hi & 0xffff}`, `3:${h.hi >>> 16}`];
}

/** A fingerprint as 16 hex digits (how it is stored). */
export function simhashHex(h: SimHash): string {
  return h.hi.toString(16).padStart(8, "0") + h.lo.toString(16).padStart(8, "0");
}

/** Parse {@link simhashHex}. */
export function parseSimhashHex(s: string): SimHash {
  if (!/^[0-9a-f]{16}$/.test(s)) throw new Error(`not a 64-bit hex SimHash: ${JSON.stringify(s)}`);
  return { hi: parseInt(s.slice(0, 8), 16) >>> 0, lo: parseInt(s.slice(8), 16) >>> 0 };
}
