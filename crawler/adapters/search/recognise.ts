/**
 * Keyword watches: accounts whose entry URL is a platform's own search. This module tells such
 * a URL apart from the platform's other entry URLs, reads the word (and the Tieba bar) out of
 * it, refuses a search URL without a word, and builds the URL the dashboard registers.
 *
 * The forms (what a browser shows after searching):
 * - Weibo: `https://m.weibo.cn/search?containerid=100103type%3D1%26q%3D{word}` (综合, mixed
 *   order) or `…type%3D61%26q%3D{word}` (实时, newest first);
 * - Tieba in-bar search: `https://tieba.baidu.com/f/search/res?ie=utf-8&kw={bar}&qw={word}`
 *   (`sm=1` asks for newest first; without it the order is Tieba's, treated as relevance);
 * - Discuz!: `{board dir}search.php?mod=forum&srchtxt={word}&searchsubmit=yes`, or the
 *   `searchid=…&kw={word}` URL the board redirects to (search ids expire, so every run searches
 *   again with the word).
 *
 * How deep a watch reads: results ordered by relevance are read to a fixed number of pages
 * (default {@link DEFAULT_SEARCH_PAGES}, per watch with the `cw_pages=N` parameter, which is
 * never sent to the platform) and dedupe does the rest; results ordered by time are read until
 * the history mark, at most {@link SEARCH_TIME_PAGE_CAP} pages a run.
 */
import type { Platform } from "../../types";
// Only the type: lib/validation loads cron-parser, which a crawl does not need (test/unit/cli-startup).
import type { Problem } from "../../../lib/validation";

/** Result pages a relevance-ordered watch reads per run unless its URL says `cw_pages=N`. */
export const DEFAULT_SEARCH_PAGES = 3;
/** The most result pages a watch may ask for with `cw_pages`. */
export const MAX_SEARCH_PAGES = 20;
/** Time-ordered results are read until the history mark, but never more pages than this in one run. */
export const SEARCH_TIME_PAGE_CAP = 20;
/** The watch's own URL parameter (result pages per run); stripped from every request. */
export const PAGES_PARAM = "cw_pages";

/** The platforms whose search a watch can follow. */
export type SearchPlatform = Extract<Platform, "weibo" | "tieba" | "discuz">;
export const SEARCH_PLATFORMS: readonly SearchPlatform[] = ["weibo", "tieba", "discuz"];

/** A keyword watch as its entry URL describes it. */
export interface SearchWatch {
  platform: SearchPlatform;
  /** The word searched for (decoded, whitespace collapsed). */
  word: string;
  /** Tieba: the bar searched in ("" searches all of Tieba). */
  bar?: string;
  /** Discuz!: the board's script directory ("https://bbs.example.edu.cn/bbs/"). */
  base?: string;
  /** Weibo: the containerid's `type` (1 综合, 61 实时). */
  weiboType?: string;
  /** True when the platform returns these results newest first (stop at the history mark). */
  byTime: boolean;
  /** Result pages to read per run when the order is not by time. */
  pages: number;
}

const WEIBO_HOSTS = /(^|\.)weibo\.(com|cn)$/i;
/** containerid of a Weibo search: `100103type={n}&q={word}[&t=…]`. */
const WEIBO_CONTAINER = /^100103type=(\d+)&q=([^&]*)/;

const clean = (s: string): string => s.replace(/[\s\u00a0\u3000]+/g, " ").trim();

/** Which platform's search the URL's shape is, whether or not it names a word. */
function searchShape(u: URL): SearchPlatform | null {
  const container = u.searchParams.get("containerid") ?? "";
  if (u.pathname === "/search" && (container.startsWith("100103") || (WEIBO_HOSTS.test(u.hostname) && !container))) return "weibo";
  if (/^\/f\/search\/res\/?$/.test(u.pathname)) return "tieba";
  if (/\/search\.php$/.test(u.pathname) && (u.searchParams.get("mod") === "forum" || u.searchParams.has("srchtxt"))) return "discuz";
  return null;
}

/** `cw_pages` as a page count: the default when absent, null when it is not 1…MAX_SEARCH_PAGES. */
function pagesOf(u: URL): number | null {
  const raw = u.searchParams.get(PAGES_PARAM);
  if (raw === null) return DEFAULT_SEARCH_PAGES;
  const n = Number(raw);
  return Number.isInteger(n) && n >= 1 && n <= MAX_SEARCH_PAGES ? n : null;
}

/** The keyword watch an entry URL describes, or null when it is not a search URL with a word. */
export function searchWatchOf(url: string | URL): SearchWatch | null {
  const u = toUrl(url);
  if (!u) return null;
  const platform = searchShape(u);
  const pages = pagesOf(u);
  if (!platform || pages === null) return null;
  if (platform === "weibo") {
    const m = WEIBO_CONTAINER.exec(u.searchParams.get("containerid") ?? "");
    const word = m ? clean(safeDecode(m[2]!)) : "";
    return word ? { platform, word, weiboType: m![1]!, byTime: m![1] === "61", pages } : null;
  }
  if (platform === "tieba") {
    const word = clean(u.searchParams.get("qw") ?? "");
    return word
      ? {
          platform,
          word,
          bar: clean(u.searchParams.get("kw") ?? ""),
          byTime: u.searchParams.get("sm") === "1",
          pages,
        }
      : null;
  }
  const word = clean(u.searchParams.get("srchtxt") ?? u.searchParams.get("kw") ?? "");
  const base = u.origin + u.pathname.replace(/search\.php$/, "");
  return word ? { platform, word, base, byTime: false, pages } : null;
}

/** `q=` inside the containerid is itself percent-encoded once more in some links. */
function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, " "));
  } catch {
    return s;
  }
}

/** Example search URLs per platform, for messages. */
export const SEARCH_URL_EXAMPLES: Record<SearchPlatform, string> = {
  weibo: "https://m.weibo.cn/search?containerid=100103type%3D61%26q%3D食堂",
  tieba: "https://tieba.baidu.com/f/search/res?ie=utf-8&kw=北江大学&qw=食堂",
  discuz: "https://bbs.example.edu.cn/search.php?mod=forum&srchtxt=食堂&searchsubmit=yes",
};

/**
 * Why a URL shaped like a platform search cannot be a keyword watch (no word, a bad `cw_pages`),
 * as a code of server/accounts.ts `searchUrlProblems` with its values and the English message, or null: for
 * URLs that are not searches at all, and for good ones.
 */
export function searchUrlProblemCode(url: string | URL): Problem | null {
  const u = toUrl(url);
  if (!u) return null;
  const platform = searchShape(u);
  if (!platform) return null;
  if (pagesOf(u) === null)
    return {
      code: "pagesParam",
      values: { max: MAX_SEARCH_PAGES },
      message: `${PAGES_PARAM} must be a whole number of result pages from 1 to ${MAX_SEARCH_PAGES}`,
    };
  if (searchWatchOf(u)) return null;
  const example = SEARCH_URL_EXAMPLES[platform];
  return { code: "noWord", values: { example }, message: `a search URL with no word: add the word to search for, like ${example}` };
}

/** {@link searchUrlProblemCode}'s English message (the CLI prints it), or null. */
export function searchUrlProblem(url: string | URL): string | null {
  return searchUrlProblemCode(url)?.message ?? null;
}

/** The platform's search URL for a word, as the dashboard's "keyword watch" builds it. */
export interface WatchRequest {
  platform: SearchPlatform;
  word: string;
  /** Tieba: the bar ("" or absent: all of Tieba). */
  bar?: string;
  /** Discuz!: the board's directory URL ("https://bbs.example.edu.cn/bbs/"). */
  base?: string;
  /** Result pages per run (default {@link DEFAULT_SEARCH_PAGES}). */
  pages?: number;
}

/**
 * Build a watch's entry URL. Weibo watches use the 实时 (newest first) search, so each run stops
 * at what it already has; Tieba and Discuz! searches are read to a fixed number of pages.
 * @param weiboOrigin where the Weibo search lives (a local copy in tests)
 * @param tiebaOrigin where Tieba lives (a local copy in tests)
 */
export function buildSearchUrl(req: WatchRequest, origins: { weibo?: string; tieba?: string } = {}): string {
  const word = clean(req.word);
  const pages = req.pages && req.pages !== DEFAULT_SEARCH_PAGES ? `&${PAGES_PARAM}=${req.pages}` : "";
  if (req.platform === "weibo") {
    return `${origins.weibo ?? "https://m.weibo.cn"}/search?containerid=${encodeURIComponent(`100103type=61&q=${word}`)}${pages}`;
  }
  if (req.platform === "tieba") {
    return `${origins.tieba ?? "https://tieba.baidu.com"}/f/search/res?ie=utf-8&kw=${encodeURIComponent(clean(req.bar ?? ""))}&qw=${encodeURIComponent(word)}&rn=10${pages}`;
  }
  if (!req.base) throw new Error("a Discuz! watch needs the board's directory URL");
  return `${req.base}search.php?mod=forum&srchtxt=${encodeURIComponent(word)}&searchsubmit=yes${pages}`;
}

/** `url` as a URL, or null when it does not parse. */
function toUrl(url: string | URL): URL | null {
  if (typeof url !== "string") return url;
  try {
    return new URL(url);
  } catch {
    return null;
  }
}
