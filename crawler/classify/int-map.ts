/**
 * A hash map from non-negative integers (up to 2^53) to non-negative int32 values, in one typed
 * array (open addressing, linear probing). Character n-gram lookup is the hottest loop of feature
 * extraction; this is several times faster than a Map there and uses a fraction of the memory.
 * Each slot keeps its key and its value side by side (`table[2i]`, `table[2i + 1]`): a lookup in a
 * table too large for the cache then costs one cache miss, not one for the key and one for the value.
 */
export class IntegerMap {
  /** Slot i: key at 2i (-1: empty), value at 2i + 1. */
  private table: Float64Array;
  private mask: number;
  private count = 0;

  constructor(capacity = 1024) {
    let size = 16;
    while (size < capacity * 2) size *= 2;
    this.table = IntegerMap.empty(size);
    this.mask = size - 1;
  }

  private static empty(slots: number): Float64Array {
    const t = new Float64Array(slots * 2);
    for (let i = 0; i < t.length; i += 2) t[i] = -1;
    return t;
  }

  /** Number of entries. */
  get size(): number {
    return this.count;
  }

  // Mix both 32-bit halves, then Fibonacci hashing, so neighbouring keys spread over the table.
  private slot(key: number): number {
    const hi = (key / 4294967296) | 0;
    return Math.imul(key ^ Math.imul(hi, 0x85ebca6b), 0x9e3779b1) >>> 0;
  }

  /** The value of `key`, or -1. */
  get(key: number): number {
    const t = this.table;
    const mask = this.mask;
    let i = this.slot(key) & mask;
    for (;;) {
      const k = t[2 * i] as number;
      if (k === key) return t[2 * i + 1] as number;
      if (k === -1) return -1;
      i = (i + 1) & mask;
    }
  }

  /** Set `key` (an integer ≥ 0) to `value` (≥ 0). */
  set(key: number, value: number): void {
    if ((this.count + 1) * 2 > this.mask + 1) this.grow();
    this.put(key, value);
  }

  private put(key: number, value: number): void {
    const t = this.table;
    const mask = this.mask;
    let i = this.slot(key) & mask;
    for (;;) {
      const k = t[2 * i] as number;
      if (k === key || k === -1) {
        if (k === -1) this.count++;
        t[2 * i] = key;
        t[2 * i + 1] = value;
        return;
      }
      i = (i + 1) & mask;
    }
  }

  /**
   * Shrink the table of a map that will only be read from now on to the smallest that keeps it
   * at most 70% full (the next `set` grows it again): `set` keeps it at most half full, so a large
   * map can take twice the memory it needs, and a read-only table that fits the cache better is
   * faster to look up than one with shorter probe runs.
   */
  compact(): void {
    let slots = 16;
    while (this.count > 0.7 * slots) slots *= 2;
    if (2 * slots < this.table.length) this.rebuild(slots);
  }

  private grow(): void {
    // table.length is twice the slot count: double it.
    this.rebuild(this.table.length);
  }

  private rebuild(slots: number): void {
    const old = this.table;
    this.table = IntegerMap.empty(slots);
    this.mask = slots - 1;
    this.count = 0;
    for (let i = 0; i < old.length; i += 2) {
      const k = old[i] as number;
      if (k !== -1) this.put(k, old[i + 1] as number);
    }
  }
}
