/**
 * The listing walk of one crawl: newest first, deciding from the history time table where to
 * stop and which threads to open; what it could not finish keeps the account's mark below it.
 */
import { archiveSource } from "../archive";
import { LoginExpiredError, NotModifiedError } from "../errors";
import { advanceMark, createThreadMarks, knownPosts, listHash, prepareItem, readMarks, readResumes, type KnownPost, type PreparedItem } from "../store";
import { sameHash } from "../text";
import type { CrawlItem, ListItem, ListPage } from "../types";
import { commit } from "./commit";
import { note, type Crawl } from "./context";
import { isGone, postGone, probeMissing } from "./deletions";
import { crawlThread, needsThread } from "./thread";
import { timed } from "../profile";

/** What the walk needs of the account row. */
export type AccountRow = { id: number; backfillDays: number | null; backfillPages: number | null; recheckDays: number; entryUrl: string; ocr: boolean };

/**
 * Walk the listing. Returns true when the listing itself could not be read to its natural end
 * (so the account's history mark must not move).
 */
export async function walk(c: Crawl, account: AccountRow): Promise<boolean> {
  try {
    return await walkListing(c, account);
  } finally {
    // Threads read to their end keep their marks, however the walk ended.
    await writeNewMarks(c);
  }
}

/** Write the first marks of the threads read to their end since the last call (one statement). */
async function writeNewMarks(c: Crawl): Promise<void> {
  const marks = c.newMarks;
  c.newMarks = [];
  await createThreadMarks(c.services.db, c.accountId, marks);
}

async function walkListing(c: Crawl, account: AccountRow): Promise<boolean> {
  const { services, adapter, ctx } = c;
  const { db } = services;
  const marks = await readMarks(db, account.id);
  const resumes = await readResumes(db, account.id);
  const oldMark = marks.get("") ?? null;
  const firstCrawl = oldMark === null;
  const cutoff = firstCrawl && account.backfillDays ? new Date(ctx.now.getTime() - account.backfillDays * 86_400_000) : null;
  const recheckFrom = account.recheckDays > 0 ? new Date(ctx.now.getTime() - account.recheckDays * 86_400_000) : null;
  let newest: Date | null = null;
  // If a thread could not be read (or is unfinished), the next run must reach it again: the mark stays below it.
  let ceiling: Date | null = null;
  let pageNo = 0;
  // What the walk saw, to notice posts gone from the list (worker/deletions.ts).
  const seen = new Set<string>();
  let oldestSeen: Date | null = null;
  let orderedByActivity = false;
  let orderedByRelevance = false;

  const iterator = adapter.list(ctx)[Symbol.asyncIterator]();
  for (;;) {
    if (services.signal?.aborted) return true;
    let next: IteratorResult<ListPage>;
    try {
      next = await iterator.next();
    } catch (e) {
      if (e instanceof NotModifiedError) {
        // The listing's head is as the last complete run left it (crawler/fetch/conditional.ts):
        // nothing new before any page, the natural end after some (a blog's entry page behind
        // its feed). Nothing was parsed, so no mark moves and no thread is probed.
        if (pageNo === 0) {
          note(c, `list not modified (HTTP 304): nothing new since the last complete run`);
          return false;
        }
        break;
      }
      c.record(e);
      return true;
    }
    if (next.done) break;
    const page = next.value;
    pageNo++;
    orderedByActivity ||= page.orderedByActivity === true;
    orderedByRelevance ||= page.orderedByRelevance === true;
    const timeOf = (it: ListItem) => (page.orderedByActivity ? (it.lastActivityAt ?? it.publishedAt) : it.publishedAt);
    for (const it of page.items) {
      seen.add(it.platformId);
      if (!it.pinned) oldestSeen = minDate(oldestSeen, timeOf(it));
    }
    const items = cutoff ? page.items.filter((it) => it.pinned || timeOf(it) >= cutoff) : page.items;
    const known = await timed("store", () =>
      knownPosts(
        db,
        account.id,
        items.map((i) => i.platformId),
        c.now(),
      ),
    );

    const prepared: PreparedItem[] = [];
    const threads: { item: ListItem; prev: KnownPost | undefined }[] = [];
    for (const item of items) {
      const prev = known.get(item.platformId);
      const t = timeOf(item);
      const mark = marks.get(item.platformId) ?? null;
      const wantsThread = !!adapter.replies && needsThread(item, prev, mark, recheckFrom, resumes.get(item.platformId));
      if (wantsThread && item.incomplete && adapter.repliesIncludeHead) {
        // The thread's first page carries the full head post: storing the list excerpt first
        // would make every new thread look edited.
        threads.push({ item, prev });
        continue;
      }
      try {
        const p = await prepareListItem(c, item, prev, recheckFrom);
        if (p) prepared.push(p);
        // Stored with partial text (a Weibo long text whose full text failed): keep the mark
        // below it, so the next run's walk reaches it again and completes it.
        if (p?.item.textIncomplete) ceiling = minDate(ceiling, t);
      } catch (e) {
        // An expired login ends the run, so the mark stays and nothing is read as a visitor.
        if (e instanceof LoginExpiredError) throw e;
        if (isGone(e)) {
          await postGone(c, item, e);
          continue;
        }
        c.record(e, item.url);
        ceiling = minDate(ceiling, t);
        continue;
      }
      if (wantsThread) threads.push({ item, prev });
    }
    await commit(c, prepared);

    for (const { item, prev } of threads) {
      if (services.signal?.aborted) return true;
      const recheck = recheckFrom !== null && item.publishedAt >= recheckFrom;
      const mark = prev ? (marks.get(item.platformId) ?? null) : null;
      const before = prev?.replyCount ?? null;
      const counted = item.replyCount !== undefined && before !== null && item.replyCount !== before;
      const newer = Boolean(mark && item.lastActivityAt && item.lastActivityAt > mark);
      const outcome = await crawlThread(c, item, {
        since: mark,
        resume: resumes.get(item.platformId),
        withHead: recheck || Boolean(prev?.deletedAt),
        // Fewer replies than stored (some went away), or more without newer activity (some came
        // back): they may sit on any page, and only a whole read tells which.
        whole: counted && (item.replyCount! < before || !newer),
        fresh: !prev,
        unmarked: !marks.has(item.platformId),
      });
      if (outcome === "failed" || outcome === "unfinished") ceiling = minDate(ceiling, timeOf(item));
    }
    await writeNewMarks(c);

    const unpinned = items.filter((i) => !i.pinned);
    for (const it of unpinned) newest = maxDate(newest, timeOf(it));
    services.onProgress?.(`page ${pageNo}: ${items.length} items, ${threads.length} threads opened`);

    // Stop at the first page whose non-pinned items are all no newer than what we already have.
    // Within the re-check window the walk goes on, to catch edits and new comments on recent posts.
    const inRecheck = recheckFrom !== null && unpinned.some((i) => i.publishedAt >= recheckFrom);
    // Results ordered by relevance (keyword watches) cannot end the walk by their dates.
    const byDate = page.orderedByRelevance !== true;
    if (byDate && oldMark && unpinned.length > 0 && unpinned.every((i) => timeOf(i) <= oldMark) && !inRecheck) break;
    if (firstCrawl && account.backfillPages && pageNo >= account.backfillPages) break;
    if (byDate && cutoff && page.items.filter((i) => !i.pinned).some((i) => timeOf(i) < cutoff)) break;
  }
  await iterator.return?.();

  // A list ordered as the adapter says (by last reply, or by publication) places every stored
  // post newer than the oldest row read among the rows read: one not listed is probably gone.
  // Pages ordered otherwise than the adapter declares tell nothing, and nothing is probed.
  const order = orderedByRelevance ? null : orderedByActivity ? "activity" : "published";
  if (adapter.listOrder === order && !firstCrawl && oldestSeen && !services.signal?.aborted) await probeMissing(c, order, seen, oldestSeen, marks);

  if (newest) {
    const target = ceiling && ceiling <= newest ? new Date(ceiling.getTime() - 1) : newest;
    if (!oldMark || target > oldMark) await advanceMark(db, account.id, "", target);
  }
  return false;
}

/** Prepare a list item for storage, completing it (one item request) only when needed. */
async function prepareListItem(c: Crawl, item: ListItem, prev: KnownPost | undefined, recheckFrom: Date | null): Promise<PreparedItem | null> {
  const { services, adapter, ctx } = c;
  const extra = {
    replyCount: item.replyCount ?? null,
    // lastReplyAt is advanced by crawlThread once the replies are stored, never from the list alone.
    archivePath: item.source ? await archiveSource(services.archiveDir, ctx.account.id, item.source) : null,
  };
  if (!item.incomplete || !adapter.complete) {
    // Threads opened by crawlThread get their full head from page 1; store the list entry only when new.
    if (item.incomplete && prev) return null;
    return prepareItem(item, extra);
  }
  const listSha1 = listHash(item.title, item.html);
  const recheck = recheckFrom !== null && item.publishedAt >= recheckFrom;
  // A post marked deleted and listed again is read again: storing it clears the mark.
  if (prev && sameHash(prev.listSha1, listSha1) && !recheck && !prev.incomplete && !prev.deletedAt) return null;
  const full: CrawlItem = await adapter.complete(ctx, item);
  return prepareItem(full, {
    ...extra,
    listSha1,
    archivePath: full.source ? await archiveSource(services.archiveDir, ctx.account.id, full.source) : extra.archivePath,
  });
}

function maxDate(a: Date | null, b: Date | null): Date | null {
  if (!a) return b;
  if (!b) return a;
  return a >= b ? a : b;
}
function minDate(a: Date | null, b: Date | null): Date | null {
  if (!a) return b;
  if (!b) return a;
  return a <= b ? a : b;
}
