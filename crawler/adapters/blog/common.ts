/**
 * Small pieces every blog module uses: post identity, whitespace, dates read with a fallback
 * (an unreadable date is a warning on the run, never a lost post), and what a page tells about
 * a WordPress post (its numeric id, its comment feed, the REST API root).
 */
import { tryParsePlatformDate } from "../../dates";
import type { FieldWarning } from "../../types";

/** Records an unreadable field (AdapterContext.warn); parsers take it optionally, for unit tests. */
export type Warn = (warning: FieldWarning) => void;

/** The path (and query) of a URL: the stable identity of a blog post across feed and listing. */
export function postId(url: string): string {
  const u = new URL(url);
  return u.pathname + u.search;
}

/** Titles and names as the page shows them: runs of whitespace (newlines, NBSP) become one space. */
export function collapse(text: string | undefined | null): string {
  return (text ?? "").replace(/[\s\u00a0\u3000]+/g, " ").trim();
}

/**
 * The first of `raws` that parses as a blog date. When none does, the field is recorded as a
 * warning (with the first non-empty raw text) and `fallback` is returned: the post is still stored.
 */
export function readDate(
  raws: (string | undefined)[],
  now: Date,
  fallback: { at: Date; reason: string },
  where: { url: string; warn?: Warn; field?: string },
): Date {
  for (const raw of raws) {
    const at = tryParsePlatformDate(collapse(raw), now, "blog") ?? tryParsePlatformDate(collapse(raw), now);
    if (at) return at;
  }
  where.warn?.({ url: where.url, field: where.field ?? "date", raw: collapse(raws.find((r) => collapse(r) !== "") ?? ""), reason: fallback.reason });
  return fallback.at;
}

/** What a feed or page tells about a WordPress post, for reading its comments. */
export interface WpPostInfo {
  /** The numeric post id (`?p=123`, `article#post-123`, `postid-123`). */
  wpId?: string;
  /** The per-post comment feed (`wfw:commentRss`, else the permalink + `feed/`). */
  commentFeed?: string;
  /** The REST API root (`<link rel="https://api.w.org/">`), e.g. "https://site/wp-json/". */
  restRoot?: string;
  /** True when the page or feed is WordPress's: its comments can be read. */
  wordpress?: boolean;
}

/** A WordPress post id in a shortlink or guid (`…/?p=123`), a `post-123` id/class or a `postid-123` body class. */
export function wpIdIn(text: string | undefined): string | undefined {
  if (!text) return undefined;
  return /[?&]p=(\d+)/.exec(text)?.[1] ?? /\bpost(?:id)?-(\d+)\b/.exec(text)?.[1];
}

/** A count in a comments link ("3 条评论", "1 Comment"); 0 for "发表评论"/"Leave a comment". */
export function countIn(text: string): number {
  const m = /\d[\d,]*/.exec(text);
  return m ? Number(m[0].replace(/,/g, "")) : 0;
}
