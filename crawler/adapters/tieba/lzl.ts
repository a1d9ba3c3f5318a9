/**
 * Requests for a thread page's 楼中楼 (formats in ./comments).
 *
 * Only floors that say they have comments cost requests, and only as many as the page does not
 * show itself: one `/p/totalComment` per thread page (the first 10 of every floor on it), then
 * `/p/comment` pages for a floor with more. With `since` (the newest reply stored for the
 * thread), a floor's later comment pages are read from the last one back, stopping at the page
 * that reaches `since`: older comments are stored already, and new ones land at the end.
 *
 * A failed 楼中楼 request costs only what it would have read: the page is yielded with its floors,
 * the 楼中楼 the page shows itself and those other requests read, marked `missed`; the failure is a
 * warning on the run naming the URL (../missed.ts), and the worker reads the thread again on the
 * next run instead of letting its mark move past the comments it missed. When `/p/totalComment`
 * fails, the floors' `/p/comment` pages are still tried; a block ends the page's 楼中楼 requests
 * (asking a blocking host again only prolongs the block).
 */
import { BlockedError } from "../../errors";
import { NonRetryableError } from "../../errors";
import type { AdapterContext, CrawlItem, ThreadPage } from "../../types";
import { getJson, onOrigin, rebase } from "../shared";
import { missedRequest } from "../missed";
import { parseCommentPage, parseTotalComment, TIEBA_COMMENTS_PER_PAGE, type CommentParseContext, type FloorRef } from "./comments";
import type { TiebaThreadPage } from "./thread";

/** `/p/totalComment` of one thread page. */
export function totalCommentPath(tid: string, fid: string | null, pn: number): string {
  return `/p/totalComment?tid=${tid}&fid=${fid ?? ""}&pn=${pn}`;
}

/** `/p/comment`: one page of one floor's 楼中楼. */
export function commentPagePath(tid: string, pid: string, pn: number): string {
  return `/p/comment?tid=${tid}&pid=${pid}&pn=${pn}`;
}

/** A thread page as read, by its URL, with its page number (`/p/totalComment` is asked per page). */
export type ReadPages = Map<string, { pn: number; page: TiebaThreadPage }>;

/**
 * Yields each thread page with its floors followed by their 楼中楼 (parents before children, as
 * the store wants them). Comments are read only for pages the walk yields (not for pages it
 * merely looked at to find where to start). A page some of whose 楼中楼 failed is yielded with
 * the rest, marked `missed`.
 * @param read the pages as parsed by the walk's fetch, by URL
 */
export async function* withComments(ctx: AdapterContext, pages: AsyncIterable<ThreadPage>, read: ReadPages, since: Date | null): AsyncGenerator<ThreadPage> {
  for await (const yielded of pages) {
    const { forumId: _f, floors: _fl, commentCounts: _c, inlineComments: _i, ...rest } = yielded as ThreadPage & Partial<TiebaThreadPage>;
    const parsed = read.get(yielded.url);
    if (!parsed) {
      yield rest;
      continue;
    }
    const comments = new Map<string, CrawlItem>(parsed.page.inlineComments.map((c) => [c.platformId, c]));
    const missed = await readComments(ctx, parsed.page, parsed.pn, since, comments);
    yield { ...rest, replies: [...rest.replies, ...comments.values()], ...(missed ? { missed } : {}) };
  }
}

/** Read a page's 楼中楼 into `comments`; true when some request failed (each is warned about). */
async function readComments(ctx: AdapterContext, page: TiebaThreadPage, pn: number, since: Date | null, comments: Map<string, CrawlItem>): Promise<boolean> {
  const have = (pid: string) => {
    const parent = page.floors.get(pid)?.parentPlatformId;
    return [...comments.values()].filter((x) => x.parentPlatformId === parent).length;
  };
  const wanting = [...page.commentCounts].filter(([pid, n]) => n > have(pid));
  if (wanting.length === 0) return false;
  const tid = [...page.floors.values()][0]?.tid;
  if (!tid) return false;
  const origin = new URL(page.url).origin;
  const c: CommentParseContext = { origin, now: ctx.now, warn: ctx.warn };
  const shown = () => `the floors and the ${comments.size} 楼中楼 read on ${page.url}`;
  let missed = false;

  const apiUrl = onOrigin(ctx, totalCommentPath(tid, page.forumId, pn));
  const totals = new Map(page.commentCounts);
  try {
    const { res, data } = await getJson(ctx, apiUrl, { kind: "item" });
    const errno = (data as { errno?: unknown } | null)?.errno;
    if (errno !== undefined && errno !== 0 && errno !== "0")
      throw new NonRetryableError(`Tieba totalComment answered errno ${JSON.stringify(errno)}`, res.url, res.status);
    for (const floor of parseTotalComment(data, (pid) => page.floors.get(pid) ?? null, res.url, res.body, c)) {
      for (const item of floor.comments) comments.set(item.platformId, item);
      totals.set(floor.pid, Math.max(floor.total, totals.get(floor.pid) ?? 0));
    }
  } catch (e) {
    missedRequest(ctx, e, apiUrl, shown());
    if (e instanceof BlockedError) return true;
    missed = true;
  }
  for (const [pid, total] of totals) {
    const ref = page.floors.get(pid);
    if (!ref || total <= have(pid)) continue;
    try {
      await readCommentPages(ctx, ref, total, have(pid), since, comments, c);
    } catch (e) {
      missedRequest(ctx, e, onOrigin(ctx, commentPagePath(ref.tid, ref.pid, 1)), shown());
      if (e instanceof BlockedError) return true;
      missed = true;
    }
  }
  return missed;
}

/** One floor's `/p/comment` pages past the `known` comments already read. */
async function readCommentPages(
  ctx: AdapterContext,
  ref: FloorRef,
  total: number,
  known: number,
  since: Date | null,
  comments: Map<string, CrawlItem>,
  c: CommentParseContext,
): Promise<void> {
  const first = Math.floor(known / TIEBA_COMMENTS_PER_PAGE) + 1;
  let last = Math.ceil(total / TIEBA_COMMENTS_PER_PAGE);
  const read = async (n: number) => {
    const res = await ctx.fetch.get(onOrigin(ctx, commentPagePath(ref.tid, ref.pid, n)), { kind: "item" });
    const page = parseCommentPage(res.body, ref, rebase(ctx, res.url, res.url), c);
    for (const item of page.comments) comments.set(item.platformId, item);
    return page;
  };
  if (since === null) {
    for (let n = first; n <= last; n++) {
      const page = await read(n);
      if (page.pages !== null) last = Math.min(last, page.pages);
      if (page.comments.length === 0) return;
    }
    return;
  }
  // Newest page first, back to the one that reaches what is stored.
  for (let n = last; n >= first; n--) {
    const page = await read(n);
    if (page.comments.some((x) => x.publishedAt <= since)) return;
  }
}
