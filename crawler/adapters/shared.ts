/**
 * Helpers every adapter uses: URLs built from the account's origin, JSON narrowing without
 * `any`, text/image extraction, and the generic "thread pages with a `since`" walk.
 */
import * as cheerio from "cheerio";
import { GoneError, NonRetryableError } from "../errors";
import {
  STRUCTURE_FIELD,
  type AdapterContext,
  type CrawlItem,
  type FetchOptions,
  type FetchResult,
  type FieldWarning,
  type ThreadPage,
  type ThreadReadOptions,
} from "../types";

/**
 * The account's origin ("https://m.weibo.cn", "http://127.0.0.1:41234"). Every request URL is
 * built from it, so a local copy of a platform is crawled exactly like the real one.
 */
export function originOf(ctx: AdapterContext): string {
  return new URL(ctx.account.entryUrl).origin;
}

/** `pathAndQuery` ("/f?kw=x") on the account's origin. */
export function onOrigin(ctx: AdapterContext, pathAndQuery: string): string {
  return new URL(pathAndQuery, originOf(ctx) + "/").href;
}

/**
 * A link found in a page, moved onto the account's origin: relative links are resolved against
 * the page, then only path, query and fragment are kept. Pages often carry absolute links to
 * their canonical host (the real captures do); requests must still go to the configured origin.
 */
export function rebase(ctx: AdapterContext, href: string, pageUrl: string): string {
  const u = new URL(href, pageUrl);
  return new URL(u.pathname + u.search + u.hash, originOf(ctx) + "/").href;
}

/** GET through the fetcher; a JSON request is parsed here so adapters get `unknown`, not text. */
export async function getJson(ctx: AdapterContext, url: string, options: FetchOptions): Promise<{ res: FetchResult; data: unknown }> {
  const res = await ctx.fetch.get(url, { ...options, json: true });
  try {
    return { res, data: JSON.parse(res.body) as unknown };
  } catch {
    throw new NonRetryableError(`expected JSON, got ${res.contentType || "unknown content"}`, res.url, res.status);
  }
}

// ---- JSON narrowing: platform JSON is untrusted, so every field is checked where it is read.

export type Json = Record<string, unknown>;

/** `value` as a plain object, or undefined. */
export function rec(value: unknown): Json | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Json) : undefined;
}

/** `value` as an array (an object of values counts: old APIs send `{"0": …, "1": …}`), or []. */
export function arr(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  const r = rec(value);
  return r ? Object.values(r) : [];
}

/** A string or number as a string; undefined otherwise. */
export function str(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return undefined;
}

/** A number or numeric string as a number; undefined otherwise. */
export function num(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value))) return Number(value);
  return undefined;
}

/**
 * Display counts: 1234, "1234", "1.2万", "100万+", "3亿". Weibo switches to the abbreviated
 * form above a threshold (the capture has "100万+"), so counts are lower bounds there.
 */
export function parseCount(value: unknown): number | undefined {
  const plain = num(value);
  if (plain !== undefined) return plain;
  if (typeof value !== "string") return undefined;
  const m = /^\s*([\d.]+)\s*(万|亿)?\+?\s*$/.exec(value);
  if (!m) return undefined;
  const base = Number(m[1]);
  if (!Number.isFinite(base)) return undefined;
  return Math.round(base * (m[2] === "亿" ? 1e8 : m[2] === "万" ? 1e4 : 1));
}

/** Path of a string ("a.b.c") into nested JSON. */
export function dig(value: unknown, path: string): unknown {
  let cur: unknown = value;
  for (const key of path.split(".")) {
    const r = rec(cur);
    if (!r) return undefined;
    cur = r[key];
  }
  return cur;
}

// ---- HTML helpers

/** A short title from body text for platforms whose posts have none (Weibo). */
export function titleFromText(text: string, max = 40): string {
  const t = text.replace(/\s+/g, " ").trim();
  return t.length > max ? `${t.slice(0, max)}…` : t;
}

/** An `<img` or `<image` start tag (the HTML parser reads `<image>` as an img element). */
const IMAGE_TAG = /<im(?:g|age)[\s/>]/i;

/**
 * Image URLs in an HTML fragment, for OCR. Lazy-loading attributes are preferred over `src`
 * (Hexo/NexT uses `data-src`, Tieba `data-original`); emoji/icon images are skipped.
 */
export function imagesIn(html: string, baseUrl: string): string[] {
  // Most floors and comments have no image: skip parsing them (a second parse of every item's
  // HTML, 3% of a crawl's CPU). The parser makes an img element only from an <img or <image tag.
  if (!IMAGE_TAG.test(html)) return [];
  const $ = cheerio.load(`<div>${html}</div>`);
  const out = new Set<string>();
  $("img").each((_i, el) => {
    const img = $(el);
    if (img.closest(".url-icon").length > 0 || /emoticon|face|emoji|icon/i.test(img.attr("class") ?? "")) return;
    const src = img.attr("data-original") ?? img.attr("data-src") ?? img.attr("src");
    if (!src || src.startsWith("data:")) return;
    if (/\/emotic|\/face\/|\/emoji\//i.test(src)) return;
    try {
      out.add(new URL(src, baseUrl).href);
    } catch {
      // An unparseable src is not an image we could OCR anyway.
    }
  });
  return [...out];
}

/** Parse JSON from an HTML attribute (Tieba's `data-field`), or undefined when malformed. */
export function jsonAttr(text: string | undefined): Json | undefined {
  if (!text) return undefined;
  try {
    return rec(JSON.parse(text));
  } catch {
    return undefined;
  }
}

// ---- Threads read page by page (Tieba, Discuz!)

/** One parsed thread page and what it says about the thread's length. */
export interface ParsedThreadPage extends ThreadPage {
  /** Total number of pages the thread has, as this page shows it. */
  pageCount: number;
}

/** Pages a thread may cost per run when the caller sets no budget. */
export const DEFAULT_THREAD_PAGE_BUDGET = 50;

/** The reason text of a {@link STRUCTURE_FIELD} warning; `expected` says what the adapter looked for. */
export const STRUCTURE_REASON = "page structure not recognised: expected ";

/**
 * A {@link STRUCTURE_FIELD} warning for `url`: `raw` is the page's `<title>` (what the page
 * says it is: "百度安全验证", "登录", the board's name), or its first text when it has none.
 */
export function structureWarning(url: string, expected: string, page: string): FieldWarning {
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(page)?.[1];
  const text = (title ?? page.replace(/<(script|style)[\s\S]*?<\/\1>/gi, " ").replace(/<[^>]*>/g, " "))
    .replace(/&nbsp;/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return { url, field: STRUCTURE_FIELD, raw: text.slice(0, 200), reason: STRUCTURE_REASON + expected };
}

/**
 * Yields a forum thread's pages oldest first, reading only what is newer than `since`, within a
 * page budget. Every yielded page carries `page` and `pageCount`, so the caller knows whether it
 * reached the end and where an unfinished read continues.
 *
 * - No `since` (a new thread): pages 1, 2, … in order.
 * - With `since`: start at `fromPage` (an unfinished read's next page, or the page that was the
 *   last one: new replies land there), or at the last page (known from page 1) when no page is
 *   stored. If the start page holds nothing at or before `since`, earlier pages may hold unseen
 *   replies (a page was never read, or deletions moved replies back): the page before is tried,
 *   then a binary search finds the last page that starts at or before `since` (pages are in time
 *   order). From there every page to the end is yielded, until the budget is spent.
 *
 * Replies at or before `since` on the boundary page are yielded too: the caller's dedupe skips
 * them cheaply and sees edits. The budget counts requests; at least one page is always yielded,
 * so a run always makes progress.
 * @param fetchPage reads one page; a page past the end may answer {@link GoneError} (Tieba's 404
 *   "该页不存在"): the walk then asks page 1 for the real page count.
 */
export async function* walkThreadPages(
  since: Date | null,
  fetchPage: (page: number) => Promise<ParsedThreadPage>,
  options: ThreadReadOptions = {},
): AsyncGenerator<ThreadPage> {
  const budget = Math.max(1, options.pageBudget ?? DEFAULT_THREAD_PAGE_BUDGET);
  const cache = new Map<number, ParsedThreadPage>();
  let spent = 0;
  const get = async (p: number): Promise<ParsedThreadPage> => {
    const hit = cache.get(p);
    if (hit) return hit;
    spent++;
    const page = await fetchPage(p);
    cache.set(p, page);
    return page;
  };

  let start = options.fromPage ?? 1;
  if (since !== null) {
    const target = options.fromPage ?? (await get(1)).pageCount;
    start = Math.max(1, target);
    let page: ParsedThreadPage;
    try {
      page = await get(start);
    } catch (e) {
      // A stored page number past the thread's end (replies deleted): page 1 says where it ends.
      if (!(e instanceof GoneError) || start === 1) throw e;
      start = Math.min(start, (await get(1)).pageCount);
      page = await get(start);
    }
    // Discuz! answers a page past the end with the last page: use the number it really is.
    if (page.pageCount < start) {
      cache.delete(start);
      start = page.pageCount;
      cache.set(start, page);
    }
    if (start > 1 && !startsBy(page, since)) start = await boundary(get, start, since);
  }

  const withHead = options.withHead === true && start > 1;
  if (withHead) yield numbered(await get(1), 1);
  let pageCount = start;
  for (let p = start; p <= pageCount; p++) {
    if (p > start && !cache.has(p) && spent >= budget) return;
    const page = await get(p);
    pageCount = page.pageCount;
    yield numbered(page, p);
  }
}

/**
 * The last page at or below `above` that starts at or before `since` (page 1 always does: it
 * holds the head post). `above` itself does not.
 */
async function boundary(get: (p: number) => Promise<ParsedThreadPage>, above: number, since: Date): Promise<number> {
  // Most often the page just before does (an unfinished read resumes one page after the last one read).
  if (above - 1 <= 1 || startsBy(await get(above - 1), since)) return above - 1;
  let lo = 1;
  let hi = above - 1;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (startsBy(await get(mid), since)) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** True when the page holds an item (head or reply) published at or before `since`. */
function startsBy(page: ParsedThreadPage, since: Date): boolean {
  const oldest = earliest(page.head ? [page.head, ...page.replies] : page.replies);
  return oldest !== null && oldest <= since.getTime();
}

function numbered(page: ParsedThreadPage, p: number): ThreadPage {
  return { ...page, page: p, pageCount: page.pageCount };
}

function earliest(items: CrawlItem[]): number | null {
  let min: number | null = null;
  for (const it of items) {
    const t = it.publishedAt.getTime();
    if (min === null || t < min) min = t;
  }
  return min;
}

/**
 * GET a thread (or post) page, telling a deleted one apart: HTTP 404/410, or a page without the
 * platform's post container that carries a deletion notice, throws {@link GoneError} naming the
 * requested URL. A notice quoted inside a living thread is not a deletion, hence `isThread`.
 */
export async function getThreadPage(ctx: AdapterContext, url: string, notices: RegExp, isThread: (body: string) => boolean): Promise<FetchResult> {
  let res: FetchResult;
  try {
    res = await ctx.fetch.get(url, { kind: "item" });
  } catch (e) {
    if (e instanceof NonRetryableError && (e.status === 404 || e.status === 410)) {
      throw new GoneError(`HTTP ${e.status}: the page is gone`, e.url ?? url, e.status);
    }
    throw e;
  }
  const notice = notices.exec(res.body);
  if (notice && !isThread(res.body)) throw new GoneError(`deleted: the page says "${notice[0]}"`, res.url, res.status);
  return res;
}
