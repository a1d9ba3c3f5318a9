/**
 * Helpers every adapter uses: URLs built from the account's origin, JSON narrowing without
 * `any`, text/image extraction, and the generic "thread pages with a `since`" walk.
 */
import * as cheerio from "cheerio";
import { NonRetryableError } from "../errors";
import type { AdapterContext, CrawlItem, FetchOptions, FetchResult, ThreadPage } from "../types";

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

/** Visible text of an HTML fragment, whitespace collapsed. */
export function htmlToText(html: string): string {
  return cheerio.load(`<div>${html}</div>`).root().text().replace(/\s+/g, " ").trim();
}

/** A short title from body text for platforms whose posts have none (Weibo). */
export function titleFromText(text: string, max = 40): string {
  const t = text.replace(/\s+/g, " ").trim();
  return t.length > max ? `${t.slice(0, max)}…` : t;
}

/**
 * Image URLs in an HTML fragment, for OCR. Lazy-loading attributes are preferred over `src`
 * (Hexo/NexT uses `data-src`, Tieba `data-original`); emoji/icon images are skipped.
 */
export function imagesIn(html: string, baseUrl: string): string[] {
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

/**
 * Yields a forum thread's pages oldest first, reading as little as `since` allows.
 *
 * Forum threads grow at the end, so with `since` (newest reply already stored) the interesting
 * pages are the last ones. Page 1 is always read (it holds the head post and the page count);
 * then pages are read backwards from the last until one starts at or before `since` (the page
 * holding the boundary), and those pages are yielded in ascending order. Without `since`, every
 * page is read and yielded lazily. Replies at or before `since` on the boundary page are still
 * yielded: the caller's dedupe skips them cheaply and sees edits.
 */
export async function* walkThreadPages(
  since: Date | null,
  fetchPage: (page: number) => Promise<ParsedThreadPage>,
): AsyncGenerator<ThreadPage> {
  const first = await fetchPage(1);
  yield strip(first);
  const last = first.pageCount;
  if (last <= 1) return;
  if (since === null) {
    for (let p = 2; p <= last; p++) yield strip(await fetchPage(p));
    return;
  }
  const tail: ThreadPage[] = [];
  for (let p = last; p >= 2; p--) {
    const page = await fetchPage(p);
    tail.unshift(strip(page));
    const oldest = earliest(page.replies);
    if (oldest !== null && oldest <= since.getTime()) break;
  }
  yield* tail;
}

function strip(page: ParsedThreadPage): ThreadPage {
  const { pageCount: _pageCount, ...rest } = page;
  return rest;
}

function earliest(items: CrawlItem[]): number | null {
  let min: number | null = null;
  for (const it of items) {
    const t = it.publishedAt.getTime();
    if (min === null || t < min) min = t;
  }
  return min;
}
