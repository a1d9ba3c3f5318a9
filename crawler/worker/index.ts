/**
 * The worker: one crawl of one account. It walks the adapter's listing newest first, decides
 * from the history time table where to stop and which threads to open, stores each page in one
 * transaction, classifies what is new or changed, and records everything on a CrawlRun.
 *
 * It does not know which queue called it (in-process now, pg-boss later): its input is
 * `{ accountId }` plus shared services.
 *
 * Its parts live beside it in this folder: the listing walk (walk.ts), one thread within the page budget
 * (thread.ts), storing a page (commit.ts) and noticing deletions (deletions.ts). Posts are written
 * only by ../store, the CrawlRun row only by ../runs.ts.
 */
import { getAdapter } from "../adapters";
import { readAccounts } from "../account-rows";
import { BlockedError, FatalError, LoginExpiredError } from "../errors";
import type { AdapterContext, FetchMode, Platform } from "../types";
import type { RobotsPolicy } from "../fetch";
import { classifyPending } from "../classify/pending";
import { clusterPending } from "../incidents/cluster";
import {
  appendRunError,
  closeDeadRuns,
  finishRun,
  setAccountState,
  startRun,
  unrecognisedTwice,
  type RunError,
  type RunSummary,
  type RunTrigger,
  type RunWarning,
} from "../runs";
import { holdSiteKey } from "../store";
import { siteKeyOf } from "../site-key";
import { DEFAULT_THREAD_PAGE_BUDGET, STRUCTURE_REASON } from "../adapters/shared";
import { UNRECOGNISED, unrecognisedError } from "../../lib/account-problems";
import type { Crawl, WorkerServices } from "./context";
import { classifyStored } from "./commit";
import { walk } from "./walk";
import { queueDeletionNotices } from "./deletions";
import { crawlFinished, crawlStarted, profiling, timed } from "../profile";
import { flushSearchIndex } from "../../lib/search-index";
import { flushArchive } from "../archive";
import { conditionalLayer, nextListValidators, parseListValidators } from "../fetch/conditional";

// The run's types belong to the CrawlRun lifecycle (./runs.ts); importers of the worker keep finding them here.
export type { RunError, RunSummary, RunWarning };
// The services live with the crawl state that carries them (./context.ts), below this module.
export type { WorkerServices };

/**
 * Crawl one account once. Never throws for crawl problems: they are recorded on the run.
 * Throws only when the account does not exist.
 */
export async function crawlAccount(services: WorkerServices, accountId: number, trigger: RunTrigger = "cli"): Promise<RunSummary> {
  const { db } = services;
  // CAMPUSWATCH_PROFILE=1: where the crawl's time goes (crawler/profile.ts); one test when off.
  const profiledFrom = profiling ? crawlStarted() : 0;
  const clock = services.now ?? (() => new Date());
  const [account] = await readAccounts(db, { id: accountId });
  if (!account) throw new FatalError(`no account with id ${accountId}`);
  // `started` is the crawl's clock (dates are resolved against it); the run itself is recorded
  // in wall-clock time, like everything else the database stamps (flags, reviews).
  const started = clock();
  const wallStart = new Date();
  // One account never has two runs at once (the queue sees to that), so a run still marked
  // "running" belongs to a process that died mid-run: close it honestly.
  await closeDeadRuns(db, accountId, wallStart);
  // The robots.txt policy is fixed for the run and recorded on it, with who chose "ignore" and when.
  const robotsPolicy: RobotsPolicy = account.robotsPolicy === "ignore" ? "ignore" : "obey";
  const runId = await startRun(db, {
    accountId,
    trigger,
    startedAt: wallStart,
    robotsPolicy,
    robotsPolicySetBy: account.robotsPolicySetBy,
    robotsPolicySetAt: account.robotsPolicySetAt,
  });
  await setAccountState(db, accountId, { status: "running" });

  const s: RunSummary = {
    runId,
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
    deletedPosts: 0,
    restoredPosts: 0,
    unfinishedThreads: 0,
    notes: [],
    durationMs: 0,
  };
  // The entry URL's host is the one host this account's fetcher may trust on an internal address
  // (when it was registered there: addressClass).
  const fetcher = services.createFetcher(
    { id: account.id, fetchMode: account.fetchMode as FetchMode, entryUrl: account.entryUrl, addressClass: account.addressClass, robotsPolicy },
    (r) => {
      if (r.kind === "list") s.pagesList++;
      else if (r.kind === "item") s.pagesItem++;
      else s.pagesOther++;
      if (r.viaBrowser) s.browserPages++;
      s.bytes += r.bytes;
    },
  );
  if (profiling) {
    const get = fetcher.get.bind(fetcher);
    fetcher.get = (url, options) => timed("fetch", () => get(url, options));
  }
  // The listing's head is asked for conditionally when the last complete run kept its validators.
  // Not with a re-check window: edits do not change a list page, and a 304 would skip the re-check.
  const validators = parseListValidators(account.listValidators);
  const conditional = conditionalLayer(fetcher, validators, account.recheckDays === 0);
  // The URL an error names is the one that was requested (an API URL, a thread's page 37); the
  // caller's URL (the post it belongs to) is only a fallback for errors that name none. A
  // redirect target refused before any request names the page that redirected (the reason
  // names the target).
  const record = (e: unknown, fallbackUrl?: string) => {
    const err = e as Error;
    if (err instanceof BlockedError) s.blocks++;
    const { url: own, redirectedFrom } = err as { url?: unknown; redirectedFrom?: unknown };
    const requested = [redirectedFrom, own].find((u): u is string => typeof u === "string" && u.length > 0);
    const url = requested ?? fallbackUrl;
    s.errors.push({ at: new Date().toISOString(), ...(url ? { url } : {}), kind: err.name || "Error", reason: err.message });
  };

  // Posts an earlier run stored but never classified (killed, or the classifier failed) go first.
  if (services.classify) {
    await classifyPending(db, { accountId, classify: services.classify }).catch((e: unknown) =>
      record(new Error(`classification of posts left by an earlier run failed: ${(e as Error).message}`)),
    );
    // Then the posts of this account an earlier run stored but never clustered.
    await clusterPending(db, { accountId, signal: services.signal }).catch((e: unknown) =>
      record(new Error(`incident clustering of posts left by an earlier run failed: ${(e as Error).message}`)),
    );
  }

  let listFailed = false;
  let crawl: Crawl | undefined;
  // The account's site key is fixed for the run, as its entry URL is: read once, not per page.
  const releaseSiteKey = holdSiteKey(db, account.id, siteKeyOf(account.platform, account.entryUrl));
  try {
    // A keyword watch (the entry URL is the platform's search) gets the search adapter.
    const adapter = getAdapter(account.platform as Platform, account.entryUrl);
    const ctx: AdapterContext = {
      account: {
        id: account.id,
        entryUrl: account.entryUrl,
        platform: account.platform as Platform,
        fetchMode: account.fetchMode as FetchMode,
        // With login cookies the adapter checks each answer is logged in (LoginExpiredError).
        hasLoginCookies: Boolean(account.cookies),
      },
      fetch: conditional.fetcher,
      now: started,
      log: (m) => services.onProgress?.(m),
      warn: (w) => {
        s.warnings.push({ at: new Date().toISOString(), url: w.url, field: w.field, raw: w.raw.slice(0, 200), reason: w.reason });
        services.onProgress?.(`warning: ${w.field} unreadable on ${w.url}: ${JSON.stringify(w.raw.slice(0, 80))} (${w.reason})`);
      },
    };
    // OCR reads images through the account's own fetcher, so it is polite like any request.
    const ocrFetch = account.ocr && services.ocr && (await services.ocr.available()) ? fetcher : null;
    crawl = {
      services,
      adapter,
      ctx,
      accountId: account.id,
      s,
      record,
      ocrFetch,
      pageBudget: pageBudgetOf(services),
      now: () => clock(),
      toClassify: { ids: [], posts: [] },
      classifying: { chain: Promise.resolve(), batches: 0 },
      newMarks: [],
      deleted: [],
    };
    listFailed = await walk(crawl, account);
  } catch (e) {
    record(e);
    listFailed = true;
  } finally {
    await fetcher.close().catch(() => undefined);
  }
  // What the last pages stored is classified before the run is recorded (and its flags notified).
  if (crawl) await classifyStored(crawl);
  // The raw archive is written beside the crawl (./archive.ts): a finished run has its files.
  await flushArchive();
  releaseSiteKey();
  // The run's new and edited posts go into SQLite's full-text index in one statement
  // (lib/search-index.ts). If that fails they stay queued: the next run or search indexes them.
  await flushSearchIndex(db).catch((e: unknown) =>
    s.notes.push(`search index not updated (${(e as Error).message}); the next run or search will index these posts`),
  );

  // An expired login (the adapter refused a logged-out page): the account needs new cookies.
  const loginExpired = s.errors.find((e) => e.kind === LOGIN_EXPIRED);
  if (loginExpired) s.notes.push(`login expired (seen on ${loginExpired.url ?? account.entryUrl}): the account needs re-login; set its login cookies again`);
  const finished = new Date();
  s.durationMs = finished.getTime() - wallStart.getTime();
  // A thread left unfinished is not "ok": replies are still unread, even if nothing failed.
  s.status = listFailed
    ? s.newPosts + s.changedPosts + s.unchangedPosts > 0
      ? "partial"
      : "failed"
    : s.errors.length || s.unfinishedThreads
      ? "partial"
      : "ok";
  // A page recognised but read as nothing, in this run and the one before: 页面结构无法识别.
  const unrecognised = await unrecognisedTwice(db, s, accountId);
  if (unrecognised) s.notes.push(`page structure not recognised in two runs in a row: ${unrecognised.url} (${unrecognised.reason})`);
  await finishRun(db, s, finished);
  const lastError = s.errors.at(-1);
  await setAccountState(db, accountId, {
    status: loginExpired ? "relogin" : s.blocks > 0 && listFailed ? "blocked" : s.status === "failed" ? "error" : unrecognised ? UNRECOGNISED : "idle",
    lastRunAt: wallStart,
    // Kept only from a run that stored all it read: after anything less the next run reads the listing whole.
    listValidators: JSON.stringify(nextListValidators(validators, conditional, s.status === "ok", finished)),
    lastError: lastError
      ? `${lastError.kind}: ${lastError.reason}`
      : unrecognised
        ? unrecognisedError(unrecognised.url, unrecognised.reason.replace(STRUCTURE_REASON, ""))
        : null,
  });
  // 删帖提醒: deletions of flagged posts and of posts in open incidents, queued as the run's
  // notifications (sent by its notifyRun job with the rest). A failure is written on the run.
  if (crawl?.deleted.length)
    await queueDeletionNotices(db, runId, crawl.deleted).catch((e: unknown) => appendRunError(db, runId, "NotifyError", e, services.onProgress));
  // The run's notifications are asked for (a notifyRun job: crawler/jobs/), not sent here: a slow
  // webhook never holds up crawling. A failure to ask is written on the run.
  if (services.notify) await services.notify(db, runId).catch((e: unknown) => appendRunError(db, runId, "NotifyError", e, services.onProgress));
  if (profiling) crawlFinished(profiledFrom);
  return s;
}

/** The error kind of an expired login on the run (and the account's "relogin" status, 需要重新登录). */
const LOGIN_EXPIRED = new LoginExpiredError("").name;

/** The per-thread page budget: the service's, else CAMPUSWATCH_THREAD_PAGE_BUDGET, else 50. */
function pageBudgetOf(services: WorkerServices): number {
  const fromEnv = Number(process.env.CAMPUSWATCH_THREAD_PAGE_BUDGET);
  const budget = services.threadPageBudget ?? (Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : DEFAULT_THREAD_PAGE_BUDGET);
  return Math.max(1, Math.floor(budget));
}
