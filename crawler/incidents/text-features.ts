/**
 * What incident clustering reads of a post's text: jieba words (the project's one segmenter,
 * crawler/classify/tokenizer.ts) and character bigrams of its Chinese runs, the SimHash of both,
 * and whether the text is long enough to say anything (generic replies such as "顶", "同意",
 * "哈哈", "转发微博" are not: they follow their parent by link but never match by text).
 *
 * Why bigrams beside words: posts are short (a median of 19 characters) and written by many hands;
 * jieba cuts a name or an unusual phrase differently in different contexts ("最可爱的人" vs
 * "最可爱" + "的人"), while its character bigrams stay the same.
 */
import { cleanText } from "../classify/text-clean";
import { segment } from "../classify/tokenizer";

/** The features of one text. `terms` maps a term to its count: words as-is, bigrams prefixed "\u0001". */
export interface TextFeatures {
  /** The cleaned text (crawler/classify cleanText, Weibo boilerplate removed). */
  cleaned: string;
  terms: Map<string, number>;
  /** Letters and digits in the cleaned text (a CJK character counts one). */
  contentChars: number;
  /** Distinct jieba words kept. */
  wordCount: number;
}

/** Marks a character-bigram term (a control character never produced by cleanText's output words). */
export const BIGRAM = "\u0001";

/** Platform boilerplate that says nothing about the event (Weibo's default repost text and link labels). */
const BOILERPLATE = /转发微博|轉發微博|转发理由|repost|分享图片|网页链接|显示地图|查看图片|原文|全文|\/\/|回复:|回复：/g;
/** Marks a hashtag or headline term. */
export const TAG_MARK = "\u0002";
/** A Weibo hashtag or a 【headline】 (cleanText keeps both). */
const TAG = /#([^#\n]{2,40})#|【([^】\n]{2,60})】/g;
/** A run of CJK ideographs. */
const CJK_RUN = /[\u3400-\u9fff]+/g;
const CONTENT_CHAR = /[\p{L}\p{N}]/u;

/** Fewest content characters for a text to match others by its words (shorter: generic reply). */
export const MIN_CONTENT_CHARS = 6;
/** Fewest distinct words for the same. */
export const MIN_WORDS = 2;

/** The features of a post's title, text and OCR text together. */
export function textFeatures(...parts: (string | null | undefined)[]): TextFeatures {
  const cleaned = cleanText(parts.filter((p) => p).join("\n")).replace(BOILERPLATE, " ");
  const terms = new Map<string, number>();
  let contentChars = 0;
  for (const ch of cleaned) if (CONTENT_CHAR.test(ch)) contentChars++;
  const words = new Set<string>();
  for (const w of segment(cleaned)) {
    // One CJK character alone ("的", "顶") carries little; bigrams below cover it in context.
    if (w.length < 2) continue;
    words.add(w);
    terms.set(w, (terms.get(w) ?? 0) + 1);
  }
  // A hashtag (#…#) or a bracketed headline (【…】) names the story: the whole of it is one term.
  for (const m of cleaned.matchAll(TAG)) {
    const tag = (m[1] ?? m[2] ?? "").replace(/[#\s]/g, "");
    if (tag.length >= 3) terms.set(TAG_MARK + tag, (terms.get(TAG_MARK + tag) ?? 0) + 1);
  }
  for (const run of cleaned.match(CJK_RUN) ?? []) {
    for (let i = 0; i + 1 < run.length; i++) {
      const g = BIGRAM + run.slice(i, i + 2);
      terms.set(g, (terms.get(g) ?? 0) + 1);
    }
  }
  return { cleaned, terms, contentChars, wordCount: words.size };
}

/** Whether a text says enough to match other posts by its wording. */
export function informative(f: TextFeatures): boolean {
  return f.contentChars >= MIN_CONTENT_CHARS && f.wordCount >= MIN_WORDS;
}
