/**
 * The worker: one crawl of one account. It walks the adapter's listing newest first, decides
 * from the history time table where to stop and which threads to open, stores each page in one
 * transaction, classifies what is new or changed, and records everything on a CrawlRun.
 *
 * It does not know which queue called it (in-process now, pg-boss later): its input is
 * `{ accountId }` plus shared services.
 */
import type { Db } from "../lib/db";
import { getAdapter } from "./adapters";
import { BlockedError, FatalError } from "./errors";
import type { Adapter, AdapterContext, CrawlItem, FetchMode, Fetcher, ListItem, ListPage, Platform } from "./types";
import { advanceMark, knownPosts, prepareItem, readMarks, storePage, type KnownPost, type PreparedItem } from "./store";
import { contentSha1, htmlToText } from "./text";
import type { PoliteFetcher, RequestInfo } from "./fetch";
import { archiveSource } from "./archive";
import type { Ocr } from "./ocr";
import { classifyPending } from "./classify/pending";
import { appendRunError } from "./runs";

/** Services a crawl needs; the caller owns their lifetime. */
export interface WorkerServices {
  db: Db;
  /** Creates the fetcher for one account (one browser context per account). */
  createFetcher: (account: { id: number; fetchMode: FetchMode; entryUrl?: string }, onRequest: (r: RequestInfo) => void) => PoliteFetcher;
  /** Classify new or changed posts and dequeue them from UnclassifiedPost (classifyPosts); omitted in storage-only tests. */
  classify?: (db: Db, postIds: number[]) => Promise<unknown>;
  /** The crawl's clock. @default () => new Date() */
  now?: () => Date;
  /** Where raw pages are archived; null disables the archive. */
  archiveDir?: string | null;
  /** Progress lines for the CLI. */
  onProgress?: (message: string) => void;
  /** Abort between pages (SIGTERM): the current page's transaction finishes first. */
  signal?: AbortSignal;
  /** Reads text in images for accounts with OCR on (crawler/ocr.ts). */
  ocr?: Ocr;
  /**
   * Deliver the run's new flags (lib/notify), batched per run. Called after the run is
   * recorded and not awaited by the crawl: a slow webhook never holds up crawling.
   */
  notify?: (db: Db, crawlRunId: number) => Promise<unknown>;
}

/** Counters of one crawl run (mirrors the CrawlRun columns). */
export interface RunSummary {
  runId: number;
  accountId: number;
  status: "ok" | "partial" | "failed" | "skipped";
  pagesList: number;
  pagesItem: number;
  pagesOther: number;
  browserPages: number;
  bytes: number;
  newPosts: number;
  changedPosts: number;
  unchangedPosts: number;
  blocks: number;
  errors: RunError[];
  /** Fields that could not be read while their items were still stored (AdapterContext.warn). */
  warnings: RunWarning[];
  durationMs: number;
}
export interface RunWarning {
  at: string;
  url: string;
  field: string;
  raw: string;
  reason: string;
}
export interface RunError {
  at: string;
  url?: string;
  kind: string;
  reason: string;
}

/**
 * Crawl one account once. Never throws for crawl problems: they are recorded on the run.
 * Throws only when the account does not exist.
 */
export async function crawlAccount(
  services: WorkerServices,
  accountId: number,
  trigger: "schedule" | "manual" | "cli" = "cli",
): Promise<RunSummary> {
  const { db } = services;
  const clock = services.now ?? (() => new Date());
  const account = await db.account.findUnique({ where: { id: accountId } });
  if (!account) throw new FatalError(`no account with id ${accountId}`);
  // `started` is the crawl's clock (dates are resolved against it); the run itself is recorded
  // in wall-clock time, like everything else the database stamps (flags, reviews).
  const started = clock();
  const wallStart = new Date();
  // One account never has two runs at once (the queue sees to that), so a run still marked
  // "running" belongs to a process that died mid-run: close it honestly.
  await db.crawlRun.updateMany({
    where: { accountId, status: "running" },
    data: { status: "failed", finishedAt: wallStart, note: "interrupted: the crawling process ended mid-run" },
  });
  const run = await db.crawlRun.create({ data: { accountId, trigger, status: "running", startedAt: wallStart } });
  await db.account.update({ where: { id: accountId }, data: { status: "running" } });

  const s: RunSummary = {
    runId: run.id,
    accountId,
    status: "ok",
    pagesList: 0,
    pagesItem: 0,
    pagesOther: 0,
    browserPages: 0,
    bytes: 0,
    newPosts: 0,
    changedPosts: 0,
    unchangedPosts: 0,
    blocks: 0,
    errors: [],
    warnings: [],
    durationMs: 0,
  };
  // The entry URL's host is the one host this account's fetcher trusts on an internal address.
  const fetcher = services.createFetcher({ id: account.id, fetchMode: account.fetchMode as FetchMode, entryUrl: account.entryUrl }, (r) => {
    if (r.kind === "list") s.pagesList++;
    else if (r.kind === "item") s.pagesItem++;
    else s.pagesOther++;
    if (r.viaBrowser) s.browserPages++;
    s.bytes += r.bytes;
  });
  const record = (e: unknown, url?: string) => {
    const err = e as Error;
    if (err instanceof BlockedError) s.blocks++;
    s.errors.push({ at: new Date().toISOString(), url: url ?? (err as { url?: string }).url, kind: err.name || "Error", reason: err.message });
  };

  // Posts an earlier run stored but never classified (killed, or the classifier failed) go first.
  if (services.classify) {
    await classifyPending(db, { accountId, classify: services.classify }).catch((e: unknown) =>
      record(new Error(`classification of posts left by an earlier run failed: ${(e as Error).message}`)),
    );
  }

  let listFailed = false;
  try {
    const adapter = getAdapter(account.platform as Platform);
    const ctx: AdapterContext = {
      account: { id: account.id, entryUrl: account.entryUrl, platform: account.platform as Platform, fetchMode: account.fetchMode as FetchMode },
      fetch: fetcher,
      now: started,
      log: (m) => services.onProgress?.(m),
      warn: (w) => {
        s.warnings.push({ at: new Date().toISOString(), url: w.url, field: w.field, raw: w.raw.slice(0, 200), reason: w.reason });
        services.onProgress?.(`warning: ${w.field} unreadable on ${w.url}: ${JSON.stringify(w.raw.slice(0, 80))} (${w.reason})`);
      },
    };
    // OCR reads images through the account's own fetcher, so it is polite like any request.
    const ocrFetch = account.ocr && services.ocr && (await services.ocr.available()) ? fetcher : null;
    listFailed = await walk(services, adapter, ctx, account, s, record, ocrFetch);
  } catch (e) {
    record(e);
    listFailed = true;
  } finally {
    await fetcher.close().catch(() => undefined);
  }

  const finished = new Date();
  s.durationMs = finished.getTime() - wallStart.getTime();
  s.status = listFailed ? (s.newPosts + s.changedPosts + s.unchangedPosts > 0 ? "partial" : "failed") : s.errors.length ? "partial" : "ok";
  await db.crawlRun.update({
    where: { id: run.id },
    data: {
      status: s.status,
      finishedAt: finished,
      pagesList: s.pagesList,
      pagesItem: s.pagesItem,
      pagesOther: s.pagesOther,
      browserPages: s.browserPages,
      bytes: s.bytes,
      newPosts: s.newPosts,
      changedPosts: s.changedPosts,
      unchangedPosts: s.unchangedPosts,
      blocks: s.blocks,
      errorCount: s.errors.length,
      errors: JSON.stringify(s.errors.slice(0, 200)),
      warningCount: s.warnings.length,
      warnings: JSON.stringify(s.warnings.slice(0, 200)),
    },
  });
  const lastError = s.errors.at(-1);
  await db.account.update({
    where: { id: accountId },
    data: {
      status: s.blocks > 0 && listFailed ? "blocked" : s.status === "failed" ? "error" : "idle",
      lastRunAt: wallStart,
      lastError: lastError ? `${lastError.kind}: ${lastError.reason}` : null,
    },
  });
  // Not awaited (a slow webhook must not hold up crawling), so a failure is caught here and written on the run.
  const notify = services.notify;
  if (notify) void Promise.resolve().then(() => notify(db, run.id)).catch((e: unknown) => appendRunError(db, run.id, "NotifyError", e, services.onProgress));
  return s;
}

type AccountRow = { id: number; backfillDays: number | null; backfillPages: number | null; recheckDays: number; entryUrl: string; ocr: boolean };

/**
 * Walk the listing. Returns true when the listing itself could not be read to its natural end
 * (so the account's history mark must not move).
 */
async function walk(
  services: WorkerServices,
  adapter: Adapter,
  ctx: AdapterContext,
  account: AccountRow,
  s: RunSummary,
  record: (e: unknown, url?: string) => void,
  ocrFetch: Fetcher | null,
): Promise<boolean> {
  const { db } = services;
  const marks = await readMarks(db, account.id);
  const oldMark = marks.get("") ?? null;
  const firstCrawl = oldMark === null;
  const cutoff = firstCrawl && account.backfillDays ? new Date(ctx.now.getTime() - account.backfillDays * 86_400_000) : null;
  const recheckFrom = account.recheckDays > 0 ? new Date(ctx.now.getTime() - account.recheckDays * 86_400_000) : null;
  let newest: Date | null = null;
  // If a thread could not be read, the next run must reach it again: the mark stays below it.
  let ceiling: Date | null = null;
  let pageNo = 0;

  const iterator = adapter.list(ctx)[Symbol.asyncIterator]();
  for (;;) {
    if (services.signal?.aborted) return true;
    let next: IteratorResult<ListPage>;
    try {
      next = await iterator.next();
    } catch (e) {
      record(e);
      return true;
    }
    if (next.done) break;
    const page = next.value;
    pageNo++;
    const timeOf = (it: ListItem) => (page.orderedByActivity ? it.lastActivityAt ?? it.publishedAt : it.publishedAt);
    const items = cutoff ? page.items.filter((it) => it.pinned || timeOf(it) >= cutoff) : page.items;
    const known = await knownPosts(db, account.id, items.map((i) => i.platformId));

    const prepared: PreparedItem[] = [];
    const threads: ListItem[] = [];
    for (const item of items) {
      const prev = known.get(item.platformId);
      const t = timeOf(item);
      const wantsThread = Boolean(adapter.replies) && needsThread(item, prev, marks.get(item.platformId) ?? null, recheckFrom);
      if (wantsThread && item.incomplete && adapter.repliesIncludeHead) {
        // The thread's first page carries the full head post: storing the list excerpt first
        // would make every new thread look edited.
        threads.push(item);
        continue;
      }
      try {
        const p = await prepareListItem(services, adapter, ctx, item, prev, recheckFrom);
        if (p) prepared.push(p);
      } catch (e) {
        record(e, item.url);
        ceiling = minDate(ceiling, t);
        continue;
      }
      if (wantsThread) threads.push(item);
    }
    await commit(services, account.id, prepared, s, ocrFetch, record);

    for (const thread of threads) {
      if (services.signal?.aborted) return true;
      const ok = await crawlThread(services, adapter, ctx, account.id, thread, marks.get(thread.platformId) ?? null, s, record, ocrFetch);
      if (!ok) ceiling = minDate(ceiling, timeOf(thread));
    }

    const unpinned = items.filter((i) => !i.pinned);
    for (const it of unpinned) newest = maxDate(newest, timeOf(it));
    services.onProgress?.(`page ${pageNo}: ${items.length} items, ${threads.length} threads opened`);

    // Stop at the first page whose non-pinned items are all no newer than what we already have.
    // Within the re-check window the walk goes on, to catch edits and new comments on recent posts.
    const inRecheck = recheckFrom !== null && unpinned.some((i) => i.publishedAt >= recheckFrom);
    if (oldMark && unpinned.length > 0 && unpinned.every((i) => timeOf(i) <= oldMark) && !inRecheck) break;
    if (firstCrawl && account.backfillPages && pageNo >= account.backfillPages) break;
    if (cutoff && page.items.filter((i) => !i.pinned).some((i) => timeOf(i) < cutoff)) break;
  }
  await iterator.return?.();

  if (newest) {
    const target = ceiling && ceiling <= newest ? new Date(ceiling.getTime() - 1) : newest;
    if (!oldMark || target > oldMark) await advanceMark(db, account.id, "", target);
  }
  return false;
}

/** Prepare a list item for storage, completing it (one item request) only when needed. */
async function prepareListItem(
  services: WorkerServices,
  adapter: Adapter,
  ctx: AdapterContext,
  item: ListItem,
  prev: KnownPost | undefined,
  recheckFrom: Date | null,
): Promise<PreparedItem | null> {
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
  const listSha1 = contentSha1(item.title, htmlToText(item.html));
  const recheck = recheckFrom !== null && item.publishedAt >= recheckFrom;
  if (prev && prev.listSha1 === listSha1 && !recheck && !prev.incomplete) return null;
  const full: CrawlItem = await adapter.complete(ctx, item);
  return prepareItem(full, {
    ...extra,
    listSha1,
    archivePath: full.source ? await archiveSource(services.archiveDir, ctx.account.id, full.source) : extra.archivePath,
  });
}

/** Does this thread need opening: new, newer activity than its mark, a changed reply count, or in the re-check window. */
function needsThread(item: ListItem, prev: KnownPost | undefined, mark: Date | null, recheckFrom: Date | null): boolean {
  if (!item.hasReplies && !item.incomplete) return false;
  if (!prev || !mark) return Boolean(item.hasReplies || item.incomplete);
  if (item.lastActivityAt && item.lastActivityAt > mark) return true;
  if (item.replyCount !== undefined && prev.replyCount !== null && item.replyCount !== prev.replyCount) return true;
  return recheckFrom !== null && item.publishedAt >= recheckFrom;
}

/** Read a thread's new replies (and its full head post) page by page. Returns false if it failed. */
async function crawlThread(
  services: WorkerServices,
  adapter: Adapter,
  ctx: AdapterContext,
  accountId: number,
  thread: ListItem,
  since: Date | null,
  s: RunSummary,
  record: (e: unknown, url?: string) => void,
  ocrFetch: Fetcher | null,
): Promise<boolean> {
  let newest: Date | null = since;
  let headSeen = false;
  let pages = 0;
  try {
    for await (const tp of adapter.replies!(ctx, thread, since)) {
      // Weibo's comment flow is ordered by popularity, so it cannot stop at `since`: bound it.
      if (++pages > MAX_THREAD_PAGES) {
        ctx.log(`thread ${thread.platformId}: stopped after ${MAX_THREAD_PAGES} pages of replies`);
        break;
      }
      const batch: PreparedItem[] = [];
      if (tp.head) {
        headSeen = true;
        // Remember the list excerpt, so an unchanged thread needs no item request next time.
        const listSha1 = contentSha1(thread.title, htmlToText(thread.html));
        batch.push(prepareItem(tp.head, { replyCount: thread.replyCount ?? null, listSha1 }));
      }
      for (const r of tp.replies) {
        batch.push(prepareItem(r));
        newest = maxDate(newest, r.publishedAt);
      }
      await commit(services, accountId, batch, s, ocrFetch, record);
    }
  } catch (e) {
    record(e, thread.url);
    // Keep at least the list entry of a new thread, so a post is never lost; the next run
    // reopens the thread (its mark did not move) and stores the full head as a new version.
    if (!headSeen && thread.incomplete) {
      const known = await knownPosts(services.db, accountId, [thread.platformId]);
      if (!known.has(thread.platformId)) await commit(services, accountId, [prepareItem(thread, { replyCount: thread.replyCount ?? null })], s, ocrFetch, record);
    }
    return false;
  }
  // Mark the thread only after all its pages are committed.
  const activity = maxDate(newest, thread.lastActivityAt ?? null) ?? thread.publishedAt;
  await advanceMark(services.db, accountId, thread.platformId, activity);
  await services.db.post.updateMany({ where: { accountId, platformId: thread.platformId }, data: { lastReplyAt: newest } });
  return true;
}

/** Store a page, count it, read images of what it created or changed (OCR), and classify those. */
async function commit(
  services: WorkerServices,
  accountId: number,
  prepared: PreparedItem[],
  s: RunSummary,
  ocrFetch: Fetcher | null,
  record: (e: unknown, url?: string) => void,
) {
  if (prepared.length === 0) return;
  const out = await storePage(services.db, accountId, prepared, (services.now ?? (() => new Date()))());
  s.newPosts += out.created.length;
  s.changedPosts += out.changed.length;
  s.unchangedPosts += out.unchanged;
  // Exists for test/integration/crawl/kill-classify.test.ts only: die like a killed process right
  // after the first commit that created posts, before they are classified. Inert unless set.
  if (out.created.length > 0 && process.env.CAMPUSWATCH_TEST_EXIT_AFTER_STORE === "1") process.kill(process.pid, "SIGKILL");
  const touched = [...out.created, ...out.changed];
  if (touched.length === 0) return;
  if (ocrFetch && services.ocr) await readImages(services, touched, prepared, ocrFetch, record);
  if (!services.classify) return;
  try {
    await services.classify(services.db, touched);
  } catch (e) {
    // The posts are stored; a classifier failure must not lose them or stop the crawl. They stay
    // in UnclassifiedPost and are classified at the start of the account's next crawl.
    record(new Error(`classification of ${touched.length} posts failed: ${(e as Error).message}`));
  }
}

/** OCR the images of stored posts; a failed image is recorded and skipped, never fatal. */
async function readImages(
  services: WorkerServices,
  postIds: number[],
  prepared: PreparedItem[],
  fetch: Fetcher,
  record: (e: unknown, url?: string) => void,
) {
  const byPlatformId = new Map(prepared.map((p) => [p.item.platformId, p.item.images ?? []]));
  const rows = await services.db.post.findMany({ where: { id: { in: postIds } }, select: { id: true, platformId: true } });
  for (const row of rows) {
    const images = (byPlatformId.get(row.platformId) ?? []).slice(0, MAX_IMAGES_PER_POST);
    if (images.length === 0) continue;
    const texts: string[] = [];
    for (const url of images) {
      try {
        const res = await fetch.get(url, { kind: "other", binary: true });
        if (res.raw && res.raw.length > 0) texts.push(await services.ocr!.read(res.raw));
      } catch (e) {
        record(e, url);
      }
    }
    const ocrText = texts.filter(Boolean).join("\n");
    if (ocrText) await services.db.post.update({ where: { id: row.id }, data: { ocrText } });
  }
}

/** Reply pages read per thread and run at most (a hot Weibo post has thousands of comments). */
const MAX_THREAD_PAGES = 50;

/** Images read per post at most: a gallery post should not stall the crawl. */
const MAX_IMAGES_PER_POST = 6;

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
