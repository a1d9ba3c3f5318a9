/**
 * Features of a prepared text: its word tokens and, optionally, character n-grams of the cleaned
 * text. Both map to integer ids through a {@link Vocabulary}, so a classifier works on ids and
 * typed arrays instead of strings.
 */
import { cleanText } from "./text-clean";
import { IntegerMap } from "./int-map";
import { segment, type SegmentOptions } from "./tokenizer";

/** A text after cleaning and segmentation, shared by every model that scores it. */
export interface PreparedText {
  /** Output of {@link cleanText}. */
  cleaned: string;
  /** Output of {@link segment} on `cleaned`. */
  tokens: string[];
}

/** Clean and segment once; every topic then scores the same {@link PreparedText}. */
export function prepareText(raw: string, options?: SegmentOptions): PreparedText {
  const cleaned = cleanText(raw);
  return { cleaned, tokens: segment(cleaned, options) };
}

/** Which features a model uses. */
export interface FeatureOptions {
  /** Word tokens from jieba (after stop words). @default true */
  words: boolean;
  /**
   * Orders (1–3) of character n-grams taken from runs of letters/digits/ideographs of the cleaned
   * text (`[2]`: bigrams). They catch words jieba cuts differently or does not know. @default []
   */
  charNgrams: number[];
}

// Characters that may be part of an n-gram: ASCII letters and digits, CJK ideographs (basic block
// and extension A). Anything else (punctuation, spaces, symbols) ends a run, so n-grams never
// straddle a sentence break. Each such character gets a code in [48, GRAM_RADIX), and an n-gram
// is the integer c1·R^(n-1) + … + cn: lookups need no string, and orders never collide (a
// bigram's key is at least 48·R, above every unigram; a trigram's at least 48·R², and so on up to
// n = 3, well inside 2^53).
const GRAM_RADIX = 27_712;
function gramCode(c: number): number {
  if (c >= 0x4e00 && c <= 0x9fff) return 128 + (c - 0x4e00);
  if ((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39)) return c;
  if (c >= 0x3400 && c <= 0x4dbf) return 21_120 + (c - 0x3400);
  return -1;
}

/** The integer key of 1 to MAX_NGRAM n-gram characters (c1·R^(n-1) + … + cn), or -1 for any other string. */
function gramKey(s: string): number {
  const n = s.length;
  if (n === 0 || n > MAX_NGRAM) return -1;
  let key = 0;
  for (let i = 0; i < n; i++) {
    const c = gramCode(s.charCodeAt(i));
    if (c < 0) return -1;
    key = key * GRAM_RADIX + c;
  }
  return key;
}

const FILTER_BITS = 2 ** 22;
/** A 22-bit hash of an n-gram key (both 32-bit halves mixed), for the pre-filter. */
function filterHash(key: number): number {
  const hi = (key / 4294967296) | 0;
  return Math.imul(key ^ Math.imul(hi, 0x27d4eb2f) ^ 0x165667b1, 0x85ebca77) >>> 10;
}

/** Supported character n-gram orders. */
export const MAX_NGRAM = 3;

/**
 * Maps features to dense ids. Words and character n-grams live in separate maps because the word
 * 足球 and the bigram 足球 are different evidence.
 */
export class Vocabulary {
  /** word → id */
  readonly words = new Map<string, number>();
  /**
   * The same ids for words of 1 to {@link MAX_NGRAM} n-gram characters (most Chinese words), keyed
   * like n-grams: one probe of a flat table instead of a Map lookup of a fresh string from jieba
   * (bucket, entry and key string: three cache misses in a vocabulary of 100k words).
   */
  private readonly wordKeys = new IntegerMap();
  /** character n-gram (as its integer key) → id */
  private readonly grams = new IntegerMap();
  /**
   * After {@link seal}: one bit per hash of every n-gram key (2^22 bits, 512 KB), so that most
   * lookups of an unknown n-gram end here instead of in the much larger hash table.
   */
  private filter: Uint32Array | null = null;
  /** Single characters by code (their keys are below GRAM_RADIX): an array, no hashing. -1: none. */
  private readonly unigrams = new Int32Array(GRAM_RADIX).fill(-1);
  /** id → display name (n-grams are shown between ‹ › so a reviewer can tell them apart). */
  readonly names: string[] = [];
  /** id → the word or n-gram itself. */
  readonly raw: string[] = [];
  /** id → true for a character n-gram. */
  readonly isGram: boolean[] = [];

  get size(): number {
    return this.names.length;
  }

  private add(raw: string, gram: boolean): number {
    const id = this.names.length;
    this.names.push(gram ? `‹${raw}›` : raw);
    this.raw.push(raw);
    this.isGram.push(gram);
    return id;
  }

  /** The id of a word, added when `grow` is true; -1 when unknown. */
  wordId(word: string, grow: boolean): number {
    const key = gramKey(word);
    if (key >= 0) {
      const id = this.wordKeys.get(key);
      if (id >= 0 || !grow) return id;
    } else {
      const id = this.words.get(word);
      if (id !== undefined) return id;
      if (!grow) return -1;
    }
    const id = this.add(word, false);
    this.words.set(word, id);
    if (key >= 0) this.wordKeys.set(key, id);
    return id;
  }

  /**
   * The id of a character n-gram (1 to {@link MAX_NGRAM} n-gram characters), added when `grow`
   * is true; -1 when unknown or not an n-gram.
   */
  gramId(gram: string, grow: boolean): number {
    const key = gramKey(gram);
    return key < 0 ? -1 : this.keyId(key, grow, gram, 0, gram.length);
  }

  /** Lookup by key; only a new n-gram costs a string (`text` from `at`, `n` characters). */
  private keyId(key: number, grow: boolean, text: string, at: number, n: number): number {
    const single = key < GRAM_RADIX;
    if (!single && !grow && this.filter) {
      const h = filterHash(key);
      if (((this.filter[h >>> 5] as number) & (1 << (h & 31))) === 0) return -1;
    }
    let id = single ? (this.unigrams[key] as number) : this.grams.get(key);
    if (id < 0) {
      if (!grow) return -1;
      this.filter = null;
      id = this.add(text.slice(at, at + n), true);
      if (single) this.unigrams[key] = id;
      else this.grams.set(key, id);
    }
    return id;
  }

  /**
   * Build the n-gram pre-filter: call once the vocabulary is complete, for a model that only
   * looks features up from then on (a vocabulary that grows again drops the filter).
   */
  seal(): void {
    const filter = new Uint32Array(FILTER_BITS / 32);
    for (let id = 0; id < this.raw.length; id++) {
      const g = this.raw[id] as string;
      if (!this.isGram[id] || g.length < 2) continue;
      let key = 0;
      for (let i = 0; i < g.length; i++) key = key * GRAM_RADIX + gramCode(g.charCodeAt(i));
      const h = filterHash(key);
      filter[h >>> 5] = (filter[h >>> 5] as number) | (1 << (h & 31));
    }
    this.filter = filter;
    this.grams.compact();
    this.wordKeys.compact();
  }

  /**
   * Append the feature ids of `text` to `out` (repeats kept: counts matter to a multinomial
   * model). Unknown features are skipped unless `grow`. Returns the number appended.
   */
  collect(text: PreparedText, options: FeatureOptions, grow: boolean, out: number[]): number {
    const start = out.length;
    if (options.words) {
      for (const t of text.tokens) {
        const id = this.wordId(t, grow);
        if (id >= 0) out.push(id);
      }
    }
    const orders = options.charNgrams;
    if (orders.length === 0) return out.length - start;
    const want1 = orders.includes(1);
    const want2 = orders.includes(2);
    const want3 = orders.includes(3);
    const s = text.cleaned;
    // Codes of the previous two n-gram characters (-1: none, the run starts here).
    let p1 = -1;
    let p2 = -1;
    for (let i = 0; i < s.length; i++) {
      const c = gramCode(s.charCodeAt(i));
      if (c < 0) {
        p1 = p2 = -1;
        continue;
      }
      let id: number;
      if (want1 && (id = this.keyId(c, grow, s, i, 1)) >= 0) out.push(id);
      if (p1 >= 0) {
        if (want2 && (id = this.keyId(p1 * GRAM_RADIX + c, grow, s, i - 1, 2)) >= 0) out.push(id);
        if (want3 && p2 >= 0 && (id = this.keyId((p2 * GRAM_RADIX + p1) * GRAM_RADIX + c, grow, s, i - 2, 3)) >= 0) out.push(id);
      }
      p2 = p1;
      p1 = c;
    }
    return out.length - start;
  }
}
