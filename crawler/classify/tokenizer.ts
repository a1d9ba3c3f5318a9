/**
 * The one module that talks to nodejieba. nodejieba keeps a single dictionary per process, so
 * this module owns it: nobody else may call `nodejieba.load` or `nodejieba.insertWord`.
 *
 * Determinism of tokens (why the user dictionary is a process-wide UNION, not per topic):
 * jieba can only add words cheaply (`insertWord`); removing one means reloading the whole 5 MB
 * dictionary (about a second). Segmenting a post once per topic with a dictionary switch in between
 * would therefore be far too slow, and segmenting once with "whatever happens to be loaded" would
 * make tokens depend on which topic was touched first. So:
 *
 * 1. Every user word is inserted with the same weight (jieba's median word weight) and POS tag
 *    `nz`, so the result depends only on the SET of loaded words, never on the insertion order.
 * 2. Callers that classify stored posts (the topic service, training) call
 *    {@link setUserDictionary} with the union of ALL topics' user words before segmenting
 *    anything. The set is then a function of the topics in the database, not of the order in
 *    which topics were trained or posts were scored, and each post is segmented once for all
 *    topics. Another topic's word can therefore change how this topic's text is cut; that is the
 *    price of one segmentation per post, and it only happens where that word occurs.
 * 3. {@link setUserDictionary} makes the loaded set EXACTLY the given set: adding is incremental,
 *    but if a word must go (a topic was deleted or edited) the dictionary is reloaded from disk.
 * 4. {@link addUserWords} only adds; a model uses it on first use so that it works standalone.
 */
import nodejieba from "nodejieba";
import { dataFile } from "./data-file";
import { stopWords } from "./stop-words";
import { cleanText, normalizeWord } from "./text-clean";

/** POS tag given to user-dictionary words (jieba's "other proper noun"), so noun filtering keeps them. */
export const USER_WORD_TAG = "nz";

/**
 * The user words wanted (normalised): the truth. This thread's jieba ({@link mainWords}) and the
 * jieba thread (./segment-thread.ts) are brought to exactly this set before they segment, so
 * both give the same tokens and neither loads jieba before it has something to cut.
 */
const userWords = new Set<string>();
/** Bumped whenever {@link userWords} changes, so the jieba thread knows when to catch up. */
let userWordsGeneration = 0;
/** The user words loaded into this thread's jieba, or null while it is not loaded. */
let mainWords: Set<string> | null = null;
/** The {@link userWordsGeneration} {@link mainWords} was brought to. */
let mainGeneration = -1;

/**
 * jieba's load options. Its keyword-extraction IDF table (6 MB) is replaced by a one-line file:
 * nothing here calls `extract` (our TF-IDF is our own), segmentation and tagging never read it,
 * and the default costs 0.16 s of CPU and 18 MiB at every load. Without the file (an unusual
 * install), jieba's default is loaded.
 */
export function jiebaLoadOptions(): { idfDict: string } | undefined {
  const idfDict = dataFile("jieba-idf-unused.utf8");
  return idfDict ? { idfDict } : undefined;
}

/** Bring this thread's jieba to {@link userWords}: load it the first time, reload when a word must go. */
function ensureLoaded(): void {
  if (mainWords !== null && mainGeneration === userWordsGeneration) return;
  let reload = mainWords === null || mainWords.size > userWords.size;
  if (!reload) {
    for (const w of mainWords!) {
      if (!userWords.has(w)) {
        reload = true;
        break;
      }
    }
  }
  if (reload) {
    nodejieba.load(jiebaLoadOptions());
    mainWords = new Set();
  }
  const loaded = mainWords!;
  for (const w of userWords) {
    if (loaded.has(w)) continue;
    nodejieba.insertWord(w, USER_WORD_TAG);
    loaded.add(w);
  }
  mainGeneration = userWordsGeneration;
}

/**
 * Whether this thread has loaded jieba. A crawler never does on its own thread while every topic is
 * untrained (./topic-classify.ts), nor with CAMPUSWATCH_JIEBA_THREAD=1 (./segment-thread.ts).
 */
export function jiebaLoadedHere(): boolean {
  return mainWords !== null;
}

/** The wanted user words and their generation (for ./segment-thread.ts). */
export function userDictionaryState(): { words: ReadonlySet<string>; generation: number } {
  return { words: userWords, generation: userWordsGeneration };
}

/** Options of {@link segment}. */
export interface SegmentOptions {
  /** Drop words of the shipped stop-word list. @default true */
  dropStopWords?: boolean;
  /**
   * Keep only nouns and noun-like words (POS tags n*, vn, an, eng, j, and untagged new words).
   * Uses jieba's tagger, which is about half as fast as plain segmentation. @default false
   */
  nounsOnly?: boolean;
}

// A token is kept when it holds a letter or a digit: punctuation, emoji and spaces go.
const WORD_CHAR = /[\p{L}\p{N}]/u;

function isWordLike(token: string): boolean {
  const c = token.charCodeAt(0);
  // Fast paths for the common cases: a token starting with a CJK ideograph, and a one-character
  // ASCII token (a space or punctuation between words: most of what is dropped).
  if (c >= 0x4e00 && c <= 0x9fff) return true;
  if (c < 0x80 && token.length === 1) return (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a);
  return WORD_CHAR.test(token);
}

function isNounTag(tag: string): boolean {
  return tag[0] === "n" || tag === "vn" || tag === "an" || tag === "eng" || tag === "j" || tag === "x";
}

/**
 * Segment text that has already been through {@link cleanText}: jieba's mixed (dictionary + HMM)
 * mode, tokens without letters or digits dropped, stop words dropped. Returns a fresh array.
 */
export function segment(cleaned: string, options: SegmentOptions = {}): string[] {
  if (cleaned === "") return [];
  ensureLoaded();
  // cut(…, true) is jieba's default mixed mode; without HMM, Latin words fall apart into letters.
  if (options.nounsOnly) return keepTagged(nodejieba.tag(cleaned), options);
  return keepTokens(nodejieba.cut(cleaned, true), options);
}

/**
 * The tokens {@link segment} keeps of jieba's raw `cut(text, true)`: tokens without letters or
 * digits dropped, stop words dropped. Compacts `tokens` in place (the array is the caller's, and
 * this runs once per post on the hot path) and returns it. Shared with ./segment-thread.ts.
 */
export function keepTokens(tokens: string[], options: SegmentOptions = {}): string[] {
  const stop = options.dropStopWords === false ? undefined : stopWords();
  let n = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as string;
    if (!isWordLike(t) || stop?.has(t)) continue;
    tokens[n++] = t;
  }
  tokens.length = n;
  return tokens;
}

/** The words {@link segment} keeps of jieba's raw `tag(text)` with `nounsOnly`. */
export function keepTagged(tagged: readonly { word: string; tag: string }[], options: SegmentOptions = {}): string[] {
  const stop = options.dropStopWords === false ? undefined : stopWords();
  const out: string[] = [];
  for (const { word, tag } of tagged) {
    if (isNounTag(tag) && isWordLike(word) && !stop?.has(word)) out.push(word);
  }
  return out;
}

/** {@link cleanText} then {@link segment}. */
export function tokenize(raw: string, options?: SegmentOptions): string[] {
  return segment(cleanText(raw), options);
}

/** Raw jieba segmentation in the mode {@link segment} uses, for speed comparisons only. */
export function rawJiebaCut(text: string): string[] {
  ensureLoaded();
  return nodejieba.cut(text, true);
}

function normalizedWords(words: Iterable<string>): string[] {
  const out: string[] = [];
  for (const w of words) {
    const n = normalizeWord(w);
    if (n) out.push(n);
  }
  return out;
}

/**
 * Add user-dictionary words (normalised like cleaned text). Words already wanted cost a Set
 * lookup. Returns how many were new. They reach jieba before it next segments.
 */
export function addUserWords(words: Iterable<string>): number {
  let added = 0;
  for (const w of normalizedWords(words)) {
    if (userWords.has(w)) continue;
    userWords.add(w);
    added++;
  }
  if (added > 0) userWordsGeneration++;
  return added;
}

/**
 * Make the user dictionary exactly `words` (plus jieba's own dictionaries). Adding is
 * incremental; when a loaded word is no longer wanted, jieba is reloaded (about half a second)
 * before it next segments.
 */
export function setUserDictionary(words: Iterable<string>): void {
  const want = new Set(normalizedWords(words));
  let same = want.size === userWords.size;
  if (same) {
    for (const w of want) {
      if (!userWords.has(w)) {
        same = false;
        break;
      }
    }
  }
  if (same) return;
  userWords.clear();
  for (const w of want) userWords.add(w);
  userWordsGeneration++;
}

/** The user words wanted (normalised): what jieba holds whenever it segments. */
export function loadedUserWords(): ReadonlySet<string> {
  return userWords;
}
