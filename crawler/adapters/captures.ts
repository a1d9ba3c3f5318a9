/**
 * What the adapters' capture kinds (`Adapter.captureKinds`, read by `campuswatch parse`) share:
 * a saved body's JSON, the URL a saved page stands for, and a parsed thread page as the items the
 * crawl would store from it. The kinds themselves sit with each adapter, beside the code they run.
 */
import { NonRetryableError } from "../errors";
import type { CrawlItem, FieldWarning, ThreadPage } from "../types";

/** What a capture kind's `parse` is given besides the body (crawler/types.ts `CaptureKind`). */
export interface CaptureOptions {
  url?: string;
  now: Date;
  warn: (warning: FieldWarning) => void;
}

/** Where a saved page says it lives: its canonical link, `og:url`, `<base href>`, or a feed's own link. */
const OWN_URL = [
  /<link\b[^>]*\brel=["']canonical["'][^>]*\bhref=["'](https?:[^"']+)["']/i,
  /<meta\b[^>]*\bproperty=["']og:url["'][^>]*\bcontent=["'](https?:[^"']+)["']/i,
  /<base\b[^>]*\bhref=["'](https?:[^"']+)["']/i,
  /<channel>[\s\S]*?<link>\s*(https?:[^<\s]+)\s*<\/link>/i,
  /<feed\b[\s\S]*?<link\b[^>]*\bhref=["'](https?:[^"']+)["']/i,
];

/**
 * The URL a saved page stands for: the one the user gave (`--url`), else where the page says it
 * lives (its canonical link, og:url, base, a feed's link), else `fallback`, the platform's usual
 * address of such a page. Links in the page resolve against it.
 * @throws NonRetryableError when the given URL is not an absolute http(s) URL
 */
export function captureUrl(options: CaptureOptions, body: string, fallback: string): string {
  if (options.url === undefined) {
    const own = OWN_URL.map((re) => re.exec(body.slice(0, 200_000))?.[1]).find((u) => u !== undefined && URL.canParse(u.replace(/&amp;/g, "&")));
    return own ? own.replace(/&amp;/g, "&") : fallback;
  }
  let u: URL;
  try {
    u = new URL(options.url);
  } catch {
    throw new NonRetryableError(`not an absolute URL: ${options.url}`, options.url);
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") throw new NonRetryableError(`not an http(s) URL: ${options.url}`, options.url);
  return u.href;
}

/**
 * A saved API answer's JSON.
 * @throws NonRetryableError when the body is not JSON (a login page saved instead, a cut file)
 */
export function captureJson(body: string, url: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    throw new NonRetryableError(`expected a JSON answer, got ${JSON.stringify(body.trim().slice(0, 60))}…`, url);
  }
}

/** A thread page's items as the crawl stores them: its head post (on page 1), then its replies. */
export function threadPageItems(page: ThreadPage): CrawlItem[] {
  return page.head ? [page.head, ...page.replies] : page.replies;
}

/**
 * The first capture group of the first pattern that matches the URL, then the body: a thread's id
 * when the page is saved without its address. Null when none does.
 */
export function idFrom(patterns: readonly RegExp[], url: string | undefined, body: string): string | null {
  for (const text of [url ?? "", body]) {
    for (const re of patterns) {
      const m = re.exec(text);
      if (m?.[1]) return m[1];
    }
  }
  return null;
}
