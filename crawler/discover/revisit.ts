/**
 * Revisiting a run's crawled pages (method.md §4's periodic refresh). Apart from the loop because
 * it walks the pages already crawled, not the frontier's queue, and leaves the harvest figures
 * alone: they describe the first crawl.
 */
import type { Db } from "../../lib/db";
import { FatalError } from "../errors";
import type { Fetcher, FetchResult } from "../types";
import { CandidateTally } from "./candidates";
import type { FrontierEntry } from "./frontier";
import { parseDiscoveryOptions } from "./options";
import { writeCheckpoint } from "./persist";
import { DiscoveryBusyError, errorMessage, openSession, type RunDiscoveryOptions, type RunRow, type Session } from "./session";
import { examine, isHtml, validatorsOf } from "./visit";

/** What a revisit found. */
export interface RevisitSummary {
  runId: number;
  /** Crawled pages asked for again. */
  checked: number;
  /** Answered 304 Not Modified to the conditional GET. */
  notModified: number;
  /** Answered in full, but the checkpoint (MD5 + length) was unchanged. */
  unchanged: number;
  /** Changed, and processed again. */
  changed: number;
  failed: number;
  /** URLs the changed pages added to the frontier. */
  newLinks: number;
  status: string;
}

/** The options a revisit takes: those of a crawl session that have no meaning for it left out. */
type RevisitOptions = Omit<RunDiscoveryOptions, "stopAfter" | "onPage" | "flushEvery" | "clock">;

/**
 * Revisit a run's crawled pages (method.md §4's periodic refresh): a conditional GET with the
 * stored ETag / Last-Modified (or, without either, the time the last change was seen), then the
 * checkpoint; only a changed page is processed again (re-judged, its new links queued). Harvest
 * figures are not touched: they describe the first crawl. A run that gained URLs to crawl is left
 * "paused", so resuming crawls them.
 * @throws DiscoveryBusyError when the run is running elsewhere (unless `force`); any other error
 * after the run is marked "failed" with it.
 */
export async function revisitDiscovery(db: Db, runId: number, opts: RevisitOptions = {}): Promise<RevisitSummary> {
  const run = await db.discoveryRun.findUnique({ where: { id: runId } });
  if (!run) throw new DiscoveryBusyError(`no discovery run ${runId}`);
  const claim = await db.discoveryRun.updateMany({
    where: { id: runId, status: { in: opts.force ? ["paused", "failed", "done", "running"] : ["paused", "failed", "done"] } },
    data: { status: "running", note: "revisiting" },
  });
  if (claim.count === 0) throw new DiscoveryBusyError(`discovery run ${runId} is already running`);
  try {
    return await revisitClaimed(db, run, opts);
  } catch (e) {
    // The run must not stay "running" after a failure: say why, and leave it resumable.
    await db.discoveryRun.update({ where: { id: runId }, data: { status: "failed", note: `revisit failed: ${errorMessage(e)}`.slice(0, 500) } });
    throw e;
  }
}

async function revisitClaimed(db: Db, run: RunRow, opts: RevisitOptions): Promise<RevisitSummary> {
  const runId = run.id;
  const options = parseDiscoveryOptions(run.options);
  const log = opts.log ?? (() => undefined);
  const { session, fetcher, ownFetcher } = await openSession(db, run, options, opts, log);
  const summary: RevisitSummary = { runId, checked: 0, notModified: 0, unchanged: 0, changed: 0, failed: 0, newLinks: 0, status: run.status };
  const { frontier } = session.state;
  try {
    const crawledEntries = frontier.entries().filter((e) => e.fetchedAt !== null && e.relevant !== null);
    for (const entry of crawledEntries) {
      if (opts.signal?.aborted) break;
      summary.checked++;
      await revisitPage(session, fetcher, entry, summary);
    }
  } finally {
    await ownFetcher?.close();
  }
  // Candidates from the pages' current verdicts.
  const tally = new CandidateTally({ minRelevantPages: options.candidateMinPages });
  for (const e of frontier.entries()) if (e.fetchedAt !== null && e.relevant !== null) tally.observe(e.url, e.relevant);
  const todo = frontier.counts().todo;
  const status = todo > 0 && run.crawled < run.maxPages ? "paused" : run.status === "running" ? "paused" : run.status;
  const note = `revisited ${summary.checked} pages: ${summary.notModified} not modified, ${summary.unchanged} unchanged, ${summary.changed} changed (${summary.newLinks} new links)`;
  await writeCheckpoint(db, runId, frontier, { candidates: tally.proposed(), run: { status, note } });
  summary.status = status;
  log(`run ${runId}: ${note}`);
  return summary;
}

/**
 * Ask for one crawled page again and, only when it changed, process it again; counts the outcome
 * in `summary`. A fetch error counts as failed; a FatalError fails the revisit.
 */
async function revisitPage(s: Session, fetcher: Fetcher, entry: FrontierEntry, summary: RevisitSummary): Promise<void> {
  const { frontier } = s.state;
  const headers: Record<string, string> = {};
  if (entry.etag) headers["if-none-match"] = entry.etag;
  const since = entry.lastModified ?? entry.changedAt?.toUTCString();
  if (since) headers["if-modified-since"] = since;
  let res: FetchResult;
  try {
    res = await fetcher.get(entry.url, { kind: "other", headers });
  } catch (e) {
    if (e instanceof FatalError) throw e;
    summary.failed++;
    return;
  }
  if (res.status === 304) {
    summary.notModified++;
    return;
  }
  if (!isHtml(res)) {
    summary.failed++;
    return;
  }
  const ex = examine(s, entry, res);
  const validators = validatorsOf(res);
  if (ex.checksum === entry.checksum && ex.length === entry.contentLength) {
    summary.unchanged++;
    if (validators.etag !== entry.etag || validators.lastModified !== entry.lastModified) frontier.update(entry, validators);
    return;
  }
  summary.changed++;
  for (const v of ex.verdicts) if (frontier.offer(v, entry.layer) === "added") summary.newLinks++;
  const pageState = s.strategy.pageState(ex.view);
  frontier.update(entry, {
    state: pageState,
    reason: pageState === "irrelevant" ? `off-topic page (score ${ex.view.judgement.score.toFixed(3)})` : null,
    pageType: ex.view.pageType.type,
    relevance: ex.view.judgement.score,
    relevant: ex.view.judgement.relevant,
    checksum: ex.checksum,
    contentLength: ex.length,
    changedAt: new Date(),
    ...validators,
  });
}
