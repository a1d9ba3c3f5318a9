/**
 * Noticing deletions. Nothing is ever removed: a post or reply the platform no longer serves is
 * marked `deletedAt` (the time the crawler noticed), and seeing it again clears the mark and adds
 * a version (crawler/store/index.ts). Three ways to notice:
 *
 * - a thread or post page answers 404 / a deletion notice ({@link GoneError} from the adapter);
 * - a reply missing from thread pages that were read whole around it (its time lies strictly
 *   inside the span those pages cover);
 * - a forum thread missing from the list where its last activity says it must be (lists are
 *   ordered by last reply, and activity only grows), confirmed by opening it.
 */
import { SHANGHAI_OFFSET_MS } from "../../lib/time";
import { GoneError } from "../errors";
import { knownPosts, markDeleted, prepareItem } from "../store";
import type { CrawlItem, ListItem, ThreadPage } from "../types";
import { commit } from "./commit";
import { note, type Crawl } from "./context";

/** True when the error says the requested post is gone (not that the crawl failed). */
export function isGone(e: unknown): e is GoneError {
  return e instanceof GoneError;
}

/**
 * A post's page is gone: mark it deleted. A post never stored (a new list entry whose thread is
 * already gone) is stored from its list entry first, so the deletion is on record.
 */
export async function postGone(c: Crawl, item: ListItem, e: GoneError): Promise<void> {
  const known = await knownPosts(c.services.db, c.accountId, [item.platformId], c.now());
  if (!known.has(item.platformId)) await commit(c, [prepareItem(item, { replyCount: item.replyCount ?? null })]);
  const n = await markDeleted(c.services.db, c.accountId, [item.platformId], c.now());
  if (n > 0) {
    c.s.deletedPosts += n;
    note(c, `deleted: ${item.platformId} (${e.message}; ${e.url ?? item.url})`);
  }
}

/** The span of time a run of consecutive thread pages covers, and the replies it showed. */
export interface Coverage {
  /** Exclusive bounds; null: open (the run starts at page 1, or ends at the last page). */
  after: Date | null;
  before: Date | null;
}

/** One forum page as read, for {@link coverageOf}. */
export interface ReadPage {
  page: number;
  pageCount: number;
  items: CrawlItem[];
}

/**
 * The time spans covered by the pages read: each run of consecutive page numbers covers from
 * its first page's oldest item to its last page's newest (open at page 1 and at the thread's
 * last page). Bounds are exclusive: replies of the same minute may sit on the neighbouring page.
 */
export function coverageOf(pages: ReadPage[]): Coverage[] {
  const sorted = [...pages].sort((a, b) => a.page - b.page);
  const out: Coverage[] = [];
  let i = 0;
  while (i < sorted.length) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1]!.page === sorted[j]!.page + 1) j++;
    const first = sorted[i]!;
    const last = sorted[j]!;
    const times = (p: ReadPage) => p.items.map((it) => it.publishedAt.getTime());
    const firstTimes = times(first);
    const lastTimes = times(last);
    out.push({
      after: first.page === 1 ? null : firstTimes.length ? new Date(Math.min(...firstTimes)) : null,
      before: last.page >= last.pageCount ? null : lastTimes.length ? new Date(Math.max(...lastTimes)) : null,
    });
    // A middle page without any item cannot bound a span: skip such runs entirely.
    if ((first.page !== 1 && firstTimes.length === 0) || (last.page < last.pageCount && lastTimes.length === 0)) out.pop();
    i = j + 1;
  }
  return out;
}

/**
 * Replies of `threadId` stored earlier, not deleted, whose time lies inside a covered span but
 * that the pages no longer show: mark them deleted. Returns how many were marked.
 */
export async function markMissingReplies(c: Crawl, threadId: string, pages: ReadPage[], shown: Set<string>): Promise<number> {
  const spans = coverageOf(pages);
  if (spans.length === 0) return 0;
  const { db } = c.services;
  // The thread may have been stored first by another account of the site (crawler/store/index.ts).
  const parent = await db.post.findFirst({ where: { platformId: threadId, sources: { some: { accountId: c.accountId } } }, select: { id: true } });
  if (!parent) return 0;
  const stored = await db.post.findMany({ where: { parentId: parent.id, deletedAt: null }, select: { platformId: true, publishedAt: true } });
  const inside = (t: Date) => spans.some((s) => (s.after === null || t > s.after) && (s.before === null || t < s.before));
  const missing = stored.filter((r) => !shown.has(r.platformId) && inside(r.publishedAt)).map((r) => r.platformId);
  const n = await markDeleted(db, c.accountId, missing, c.now());
  if (n > 0) {
    c.s.deletedPosts += n;
    note(c, `deleted: ${n} repl${n === 1 ? "y" : "ies"} gone from thread ${threadId} (${missing.slice(0, 10).join(", ")}${missing.length > 10 ? ", …" : ""})`);
  }
  return n;
}

/** Pages of a thread as the worker saw them, flattened for {@link markMissingReplies}. */
export function readPageOf(tp: ThreadPage, threadId: string): ReadPage | null {
  if (tp.page === undefined || tp.pageCount === undefined) return null;
  // Only the thread's own floors place the page in time (sub-replies can be much newer).
  const floors = tp.replies.filter((r) => r.parentPlatformId === threadId);
  return { page: tp.page, pageCount: tp.pageCount, items: tp.head ? [tp.head, ...floors] : floors };
}

/**
 * How coarse a list time is. Lists print older rows as a day ("6-14") or a month ("2024-05") in
 * Beijing time, read as its midnight: a row shown so could have been active any time in that day
 * or month, so only a thread active after that span is known to belong above it.
 */
export function listPrecisionMs(t: Date): number {
  const beijing = new Date(t.getTime() + SHANGHAI_OFFSET_MS);
  if (beijing.getUTCHours() !== 0 || beijing.getUTCMinutes() !== 0) return 60_000;
  return beijing.getUTCDate() === 1 ? 31 * 86_400_000 : 86_400_000;
}

/** Threads opened per run to confirm they are gone from the list: each costs a request. */
const MAX_PROBES = 5;

/**
 * Forum lists are ordered by last reply and a thread's activity only grows, so a stored thread
 * whose last activity is newer than the oldest (unpinned) row the walk read must have been
 * listed. One that was not is opened: a GoneError marks it deleted; a thread that opens is only
 * listed elsewhere (moved, or the list lags), and nothing changes.
 * @param seen platformIds of every row the walk read (pinned ones included)
 * @param oldest the oldest activity among the unpinned rows read
 * @param marks each thread's newest activity already crawled (HistoryMark)
 */
export async function probeMissingThreads(c: Crawl, seen: Set<string>, oldest: Date, marks: Map<string, Date>): Promise<void> {
  if (!c.adapter.complete) return;
  // A thread within the list's precision of the edge may sit on the next page.
  const edge = new Date(oldest.getTime() + listPrecisionMs(oldest));
  const rows = await c.services.db.post.findMany({
    where: { sources: { some: { accountId: c.accountId } }, kind: "post", deletedAt: null, OR: [{ publishedAt: { gt: edge } }, { lastReplyAt: { gt: edge } }] },
    select: { platformId: true, url: true, title: true, author: true, publishedAt: true, lastReplyAt: true },
    orderBy: { publishedAt: "desc" },
  });
  const suspects = rows.filter((r) => {
    if (seen.has(r.platformId)) return false;
    const activity = marks.get(r.platformId) ?? r.lastReplyAt ?? r.publishedAt;
    return activity > edge;
  });
  for (const r of suspects.slice(0, MAX_PROBES)) {
    const item: ListItem = {
      platformId: r.platformId,
      kind: "post",
      url: r.url,
      title: r.title,
      author: r.author,
      publishedAt: r.publishedAt,
      html: "",
      incomplete: true,
    };
    try {
      await c.adapter.complete(c.ctx, item);
    } catch (e) {
      if (isGone(e)) await postGone(c, item, e);
      else c.record(e, r.url);
    }
  }
}
