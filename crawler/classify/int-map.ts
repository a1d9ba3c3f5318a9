/**
 * A hash map from non-negative integers (up to 2^53) to non-negative int32 values, in typed arrays
 * (open addressing, linear probing). Character n-gram lookup is the hottest loop of feature
 * extraction; this is several times faster than a Map there and uses a fraction of the memory.
 */
export class IntegerMap {
  private keys: Float64Array;
  private values: Int32Array;
  private mask: number;
  private count = 0;

  constructor(capacity = 1024) {
    let size = 16;
    while (size < capacity * 2) size *= 2;
    this.keys = new Float64Array(size).fill(-1);
    this.values = new Int32Array(size);
    this.mask = size - 1;
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
    const keys = this.keys;
    const mask = this.mask;
    let i = this.slot(key) & mask;
    for (;;) {
      const k = keys[i] as number;
      if (k === key) return this.values[i] as number;
      if (k === -1) return -1;
      i = (i + 1) & mask;
    }
  }

  /** Set `key` (an integer ≥ 0) to `value` (≥ 0). */
  set(key: number, value: number): void {
    if ((this.count + 1) * 2 > this.keys.length) this.grow();
    const keys = this.keys;
    const mask = this.mask;
    let i = this.slot(key) & mask;
    for (;;) {
      const k = keys[i] as number;
      if (k === key || k === -1) {
        if (k === -1) this.count++;
        keys[i] = key;
        this.values[i] = value;
        return;
      }
      i = (i + 1) & mask;
    }
  }

  private grow(): void {
    const oldKeys = this.keys;
    const oldValues = this.values;
    this.keys = new Float64Array(oldKeys.length * 2).fill(-1);
    this.values = new Int32Array(oldKeys.length * 2);
    this.mask = this.keys.length - 1;
    this.count = 0;
    for (let i = 0; i < oldKeys.length; i++) {
      const k = oldKeys[i] as number;
      if (k !== -1) this.set(k, oldValues[i] as number);
    }
  }
}
