/**
 * Reading one thread's replies (and, for forums, its head post) within the run's page budget.
 *
 * Forum adapters number their pages, so a thread that does not fit in the budget is left
 * unfinished on purpose: its mark moves only over the pages stored, `HistoryMark.resume` says
 * where the next run continues, and the run is "partial" until the thread is whole. A finished
 * thread remembers its last page, so new replies cost one request (there) next time. Flows
 * without page numbers (Weibo comments, ordered by popularity) are read to the budget and the
 * run says where it stopped.
 */
import { LoginExpiredError } from "../errors";
import {
  advanceMark,
  clearResume,
  finishThreadMark,
  listHash,
  prepareItem,
  setResume,
  type KnownPost,
  type PageExtras,
  type PreparedItem,
  type ThreadResume,
} from "../store";
import type { ListItem } from "../types";
import { commit } from "./commit";
import { note, type Crawl } from "./context";
import { isGone, markMissingReplies, postGone, readPageOf, type ReadPage } from "./deletions";

/** What became of a thread this run. "unfinished" and "failed" keep the account's mark below it. */
export type ThreadOutcome = "done" | "unfinished" | "failed" | "gone";

/**
 * Does this thread need opening: new, newer activity than its mark, a changed reply count, in
 * the re-check window, unfinished by an earlier run, or marked deleted and listed again.
 */
export function needsThread(
  item: ListItem,
  prev: KnownPost | undefined,
  mark: Date | null,
  recheckFrom: Date | null,
  resume: ThreadResume | undefined,
): boolean {
  if (!item.hasReplies && !item.incomplete) return false;
  if (!prev || !mark) return Boolean(item.hasReplies || item.incomplete);
  if (resume?.page !== undefined || prev.deletedAt) return true;
  if (item.lastActivityAt && item.lastActivityAt > mark) return true;
  if (item.replyCount !== undefined && prev.replyCount !== null && item.replyCount !== prev.replyCount) return true;
  return recheckFrom !== null && item.publishedAt >= recheckFrom;
}

/** How to read a thread this run, decided by the list walk. */
export interface ThreadPlan {
  /** Newest reply time already stored (the thread's mark), or null for a new thread. */
  since: Date | null;
  resume: ThreadResume | undefined;
  /** Read page 1 as well: the re-check window, or a deleted thread listed again. */
  withHead: boolean;
  /** Read from page 1 to the end (replies went away: find which), unless unfinished. */
  whole: boolean;
  /**
   * No post of the site was stored for this thread before this run: every reply stored under it
   * was shown this run, so none can be missing and the check for missing replies is skipped.
   */
  fresh?: boolean;
  /** The thread had no history mark when the run started (the run writes its first). */
  unmarked?: boolean;
}

/**
 * Read a thread's new replies (and its full head post) page by page. Each page is stored once the
 * next one has been read (or the thread has ended), so the thread's last page carries its
 * last-reply time into the same transaction when the thread is read to its end.
 */
export async function crawlThread(c: Crawl, thread: ListItem, plan: ThreadPlan): Promise<ThreadOutcome> {
  const { adapter, ctx, services } = c;
  const whole = plan.whole && plan.resume?.page === undefined;
  const since = whole ? null : plan.since;
  const fromPage = whole ? 1 : (plan.resume?.page ?? plan.resume?.last ?? null);
  let newest: Date | null = plan.since;
  let storedNewest: Date | null = null;
  let headSeen = false;
  let flowPages = 0;
  let bounded = false;
  // The first page some of whose replies could not be read (1 for a flow without page numbers).
  let missedPage: number | null = null;
  /** Pages stored (committed). */
  const read: ReadPage[] = [];
  const shown = new Set<string>();
  // The page read last and not stored yet: the next page (or the thread's end) decides whether it
  // is the thread's last one.
  let pending: { batch: PreparedItem[]; page: ReadPage | null } | null = null;
  const flush = async (extras: PageExtras = {}) => {
    const p = pending;
    pending = null;
    if (p) await commit(c, p.batch, extras);
    else if (extras.thread) await commit(c, [], extras);
    if (p?.page) read.push(p.page);
  };
  let last: ReadPage | null = null;
  let isUnfinished = false;
  try {
    for await (const tp of adapter.replies!(ctx, thread, since, { fromPage, pageBudget: c.pageBudget, withHead: plan.withHead })) {
      // Flows without page numbers (Weibo's comments, by popularity) cannot resume: bound them.
      if (tp.page === undefined && ++flowPages > c.pageBudget) {
        bounded = true;
        break;
      }
      // The thread goes on: the page before this one is not its last.
      await flush();
      if (tp.missed && missedPage === null) missedPage = tp.page ?? 1;
      const batch: PreparedItem[] = [];
      if (tp.head) {
        headSeen = true;
        // Remember the list excerpt, so an unchanged thread needs no item request next time.
        const listSha1 = listHash(thread.title, thread.html);
        batch.push(prepareItem(tp.head, { replyCount: thread.replyCount ?? null, listSha1 }));
      }
      for (const r of tp.replies) {
        batch.push(prepareItem(r));
        shown.add(r.platformId);
        // Sub-replies (楼中楼, child comments) answer a floor, and may be much newer than the
        // floors around them: the thread's time line is its own replies'.
        if (r.parentPlatformId !== thread.platformId) continue;
        newest = maxDate(newest, r.publishedAt);
        storedNewest = maxDate(storedNewest, r.publishedAt);
      }
      pending = { batch, page: readPageOf(tp, thread.platformId) };
    }
    const pages = pending?.page ? [...read, pending.page] : read;
    last = pages.reduce<ReadPage | null>((a, p) => (!a || p.page > a.page ? p : a), null);
    isUnfinished = last !== null && last.page < last.pageCount;
    // A thread read to its end: its last page carries the thread's last-reply time (the thread may
    // have been stored first by another account of the site, crawler/store/index.ts).
    await flush(isUnfinished ? {} : { thread: { platformId: thread.platformId, lastReplyAt: newest } });
  } catch (thrown) {
    // The page read before the failure is stored first, as if the failed request had come after it
    // (nothing is left to store when storing was what failed).
    let e = thrown;
    try {
      await flush();
    } catch (storeError) {
      // Storing that page would have failed before the request that failed: that is the error.
      e = storeError;
    }
    // An expired login ends the whole run (the walk rethrows it): nothing more is read as a visitor.
    if (e instanceof LoginExpiredError) throw e;
    if (isGone(e) && read.length === 0) {
      await postGone(c, thread, e);
      return "gone";
    }
    // The error names the URL it requested (the page or API), not the thread it belongs to.
    c.record(e, thread.url);
    // Keep at least the list entry of a new thread whose head only its first page carries (the
    // walk stored nothing for it), so a post is never lost. The entry is an excerpt: stored
    // marked incomplete, it never replaces a text already stored whole (another account's, or
    // one completed earlier; crawler/store/prepared.ts changeOf), and the next run reopens the
    // thread (its mark did not move) and completes it in place. Adapters whose post comes from
    // the list (Weibo: completed by `complete()` before its comments are read) stored it already.
    if (adapter.repliesIncludeHead && !headSeen && thread.incomplete && read.length === 0 && plan.since === null) {
      await commit(c, [prepareItem({ ...thread, textIncomplete: true }, { replyCount: thread.replyCount ?? null })]);
    }
    // Pages already stored stay stored, but neither the mark nor the resume point moves: an
    // adapter may fail after yielding a page it could not read whole (Tieba's 楼中楼 requests
    // fail after their floors are yielded), so the next run reads this run's pages again.
    return "failed";
  }

  // Pages some of whose replies could not be read (a failed 楼中楼 or 点评 request) do not show
  // everything the thread has: what they lack is not gone.
  if (!plan.fresh && missedPage === null) await markMissingReplies(c, thread.platformId, read, shown);
  if (missedPage !== null) {
    await missed(c, thread, missedPage);
    return "unfinished";
  }
  if (isUnfinished) {
    await unfinished(c, thread, read, storedNewest);
    return "unfinished";
  }
  if (bounded) note(c, `thread ${thread.platformId}: read the first ${c.pageBudget} pages of comments only (ordered by popularity, not time; ${thread.url})`);
  // Mark the thread only after all its pages are committed.
  const activity = maxDate(newest, thread.lastActivityAt ?? null) ?? thread.publishedAt;
  const resume = last ? { last: last.pageCount } : null;
  // A flow read again because comments were missed (see missed()) is whole now.
  if (!last && plan.resume?.page !== undefined) await clearResume(services.db, c.accountId, thread.platformId);
  // A thread's first mark waits for its list page's other threads: one insert for them all.
  if (plan.unmarked) c.newMarks.push({ scope: thread.platformId, newestAt: activity, resume });
  else await finishThreadMark(services.db, c.accountId, thread.platformId, activity, resume);
  return "done";
}

/** Record an unfinished thread: its mark moves over the stored pages only, and where it resumes. */
async function unfinished(c: Crawl, thread: ListItem, read: ReadPage[], storedNewest: Date | null): Promise<void> {
  const pages = read.map((p) => p.page).sort((a, b) => a - b);
  const lastPage = pages.at(-1)!;
  const pageCount = read.find((p) => p.page === lastPage)!.pageCount;
  const next = lastPage + 1;
  const { db } = c.services;
  if (storedNewest) await advanceMark(db, c.accountId, thread.platformId, storedNewest);
  await setResume(db, c.accountId, thread.platformId, { page: next }, storedNewest ?? thread.publishedAt);
  c.s.unfinishedThreads++;
  note(
    c,
    `thread ${thread.platformId} unfinished: read pages ${pages[0]}–${lastPage} of ${pageCount} (budget ${c.pageBudget} pages per run); the next run resumes at page ${next} (${thread.url})`,
  );
}

/**
 * Record a thread some of whose replies could not be read (a failed child-comment or 楼中楼
 * request, warned about by the adapter): its pages are stored, but its mark does not move and
 * the next run reads it again from the first page that missed some (page 1 of a flow).
 */
async function missed(c: Crawl, thread: ListItem, page: number): Promise<void> {
  await setResume(c.services.db, c.accountId, thread.platformId, { page }, thread.publishedAt);
  c.s.unfinishedThreads++;
  note(c, `thread ${thread.platformId}: some comments could not be read (see the warnings); the next run reads it again from page ${page} (${thread.url})`);
}

function maxDate(a: Date | null, b: Date | null): Date | null {
  if (!a) return b;
  if (!b) return a;
  return a >= b ? a : b;
}
