/**
 * The discovery loop: URL store → URL manager → fetcher → page-type analyser → page splitter →
 * page filter → URL parser → URL filter → URL store (method.md §3), one page at a time. This
 * module decides when to stop, pause and write; what happens to one page is visit.ts.
 *
 * One page at a time keeps the crawl a pure function of the frontier: the next URL depends only
 * on what was fetched before, so a paused run resumes into exactly the crawl an uninterrupted run
 * makes. Politeness does not suffer: the fetcher's per-host queue holds one request per host, and
 * consecutive URLs are usually on different hosts, so the host delay rarely costs wall time.
 *
 * Persistence: the frontier, the harvest points, the candidate tallies and the run's counters are
 * written together in one transaction every `flushEvery` pages and whenever the loop stops
 * (persist.ts). A crash therefore loses at most the pages since the last write, and the stored
 * state is always the state after some whole page, from which the crawl replays identically.
 */
import type { Db } from "../../lib/db";
import type { PoliteFetcher } from "../fetch";
import type { Fetcher } from "../types";
import type { FrontierState } from "./frontier";
import { parseDiscoveryOptions } from "./options";
import { writeCheckpoint, type RunRowUpdate } from "./persist";
import { DiscoveryBusyError, errorMessage, openSession, systemClock, type RunDiscoveryOptions, type Session } from "./session";
import { STRATEGIES, type StrategyName } from "./strategies";
import { crawlPage } from "./visit";

/** Why a session ended. */
export type StopReason = "max-pages" | "exhausted" | "paused" | "stop-after" | "failed";

/** The outcome of a session of {@link runDiscovery}. */
export interface DiscoverySummary {
  runId: number;
  strategy: StrategyName;
  /** The run's status afterwards: "done", "paused" or "failed". */
  status: string;
  reason: StopReason;
  crawled: number;
  relevant: number;
  /** relevant / crawled (0 before the first page). */
  harvestRate: number;
  frontier: Record<FrontierState, number>;
  /** Candidate accounts proposed so far. */
  candidates: number;
  error?: string;
}

/**
 * Longest time between two writes of a running run, so its `updatedAt` keeps moving (the
 * dashboard takes a "running" run that stopped moving for minutes for dead) even when pages come
 * slowly (a long host delay) or during a pause window.
 */
const HEARTBEAT_MS = 30_000;

/**
 * Crawl a run until it reaches its max pages, its frontier is empty, it is paused (signal, or
 * status set to "paused" by the dashboard), or `stopAfter` pages were crawled in this session.
 * Resumes from the stored frontier. Fetch failures mark the URL irrelevant and do not count as
 * crawled pages; only a FatalError or a database error fails the run (status "failed", the
 * error in its note), and the summary says so instead of throwing.
 * @throws DiscoveryBusyError when the run is running elsewhere (unless `force`).
 */
export async function runDiscovery(db: Db, runId: number, opts: RunDiscoveryOptions = {}): Promise<DiscoverySummary> {
  const run = await db.discoveryRun.findUnique({ where: { id: runId } });
  if (!run) throw new DiscoveryBusyError(`no discovery run ${runId}`);
  const strategyName = run.strategy as StrategyName;
  if (!STRATEGIES.includes(strategyName)) throw new DiscoveryBusyError(`run ${runId} has an unknown strategy "${run.strategy}"`);
  const options = parseDiscoveryOptions(run.options);
  // A run the dashboard asked for waits "queued" for a worker (crawler/jobs/); such a job claims
  // only from "queued", so a Pause pressed before it started is not overridden.
  const claimable = [...(opts.claimFrom ?? ["paused", "failed", "done", "queued"]), ...(opts.force ? ["running"] : [])];
  const claim = await db.discoveryRun.updateMany({
    where: { id: runId, status: { in: claimable } },
    data: { status: "running", note: "", finishedAt: null },
  });
  if (claim.count === 0) {
    const now = await db.discoveryRun.findUnique({ where: { id: runId }, select: { status: true } });
    if (now?.status !== "running") throw new DiscoveryBusyError(`discovery run ${runId} is ${now?.status ?? "gone"}, not waiting to run`);
    throw new DiscoveryBusyError(`discovery run ${runId} is already running (if its process died, resume with --force)`);
  }
  opts.onClaimed?.();

  const log = opts.log ?? (() => undefined);
  const clock = opts.clock ?? systemClock;
  const flushEvery = Math.max(1, opts.flushEvery ?? 20);
  const pollStatus = opts.pollStatus ?? true;
  let session: Session;
  let fetcher: Fetcher;
  let ownFetcher: PoliteFetcher | null;
  try {
    ({ session, fetcher, ownFetcher } = await openSession(db, run, options, opts, log));
  } catch (e) {
    // Claimed but never started: the run must not stay "running".
    await db.discoveryRun.update({ where: { id: runId }, data: { status: "failed", note: errorMessage(e).slice(0, 500) } });
    throw e;
  }

  const { frontier, tally } = session.state;
  let crawled = run.crawled;
  let relevant = run.relevant;
  let points: { crawled: number; relevant: number }[] = [];
  let sinceFlush = 0;
  let lastFlush = clock.now();

  const flush = async (final?: RunRowUpdate) => {
    await writeCheckpoint(db, runId, frontier, { points, candidates: tally.takeChanged(), run: { crawled, relevant, ...(final ?? {}) } });
    points = [];
    sinceFlush = 0;
    lastFlush = clock.now();
  };

  const externallyPaused = async (): Promise<boolean> => {
    const row = await db.discoveryRun.findUnique({ where: { id: runId }, select: { status: true } });
    return row?.status !== "running";
  };

  let reason: StopReason | null = null;
  let error: string | undefined;
  let stoppedOutside = false;
  let sessionPages = 0;
  let windowStart = clock.now();
  log(`run ${runId} (${strategyName}): ${crawled} pages crawled so far, ${frontier.counts().todo} URLs to crawl`);
  try {
    for (;;) {
      if (crawled >= run.maxPages) {
        reason = "max-pages";
        break;
      }
      if (opts.stopAfter !== undefined && sessionPages >= opts.stopAfter) {
        reason = "stop-after";
        break;
      }
      if (opts.signal?.aborted) {
        reason = "paused";
        break;
      }
      if (pollStatus && (await externallyPaused())) {
        reason = "paused";
        stoppedOutside = true;
        break;
      }
      if (options.workMs > 0 && clock.now() - windowStart >= options.workMs) {
        // Polite pause (method.md §5): write what we have, then wait without holding anything.
        await flush();
        const note = `work window over: pausing ${Math.round(options.pauseMs / 1000)} s`;
        log(`run ${runId}: ${note}`);
        const until = clock.now() + options.pauseMs;
        let beat = clock.now();
        while (clock.now() < until && !opts.signal?.aborted) {
          await clock.sleep(Math.min(1_000, until - clock.now()), opts.signal);
          if (pollStatus && (await externallyPaused())) break;
          if (clock.now() - beat >= HEARTBEAT_MS) {
            beat = clock.now();
            await db.discoveryRun.update({ where: { id: runId }, data: { note } });
          }
        }
        windowStart = clock.now();
        continue;
      }
      const entry = frontier.pop();
      if (!entry) {
        reason = "exhausted";
        break;
      }

      const page = await crawlPage(session, fetcher, entry, log);
      if (!page) continue;
      crawled++;
      sessionPages++;
      sinceFlush++;
      if (page.relevant) relevant++;
      points.push({ crawled, relevant });
      await opts.onPage?.({
        runId,
        url: entry.url,
        layer: entry.layer,
        crawled,
        relevantSoFar: relevant,
        relevant: page.relevant,
        score: page.score,
        pageType: page.pageType,
        state: entry.state,
        queued: page.queued,
        rejected: page.rejected,
      });
      if (sinceFlush >= flushEvery || clock.now() - lastFlush >= HEARTBEAT_MS) await flush();
    }
  } catch (e) {
    reason = "failed";
    error = errorMessage(e);
    log(`run ${runId} failed: ${error}`);
  } finally {
    await ownFetcher?.close();
  }

  const stop = reason ?? "failed";
  const counts = frontier.counts();
  const status = stop === "max-pages" || stop === "exhausted" ? "done" : stop === "failed" ? "failed" : "paused";
  const note = stopNote(stop, { maxPages: run.maxPages, crawled, sessionPages, error });
  // The state after the last whole page is consistent (pages are applied to memory at once), so
  // it is written even when the run failed: a resume continues from there.
  // Stopped from outside (the dashboard's Pause): its status and note stay as it set them.
  await flush(stoppedOutside ? undefined : { status, note, finishedAt: status === "done" ? new Date() : null });
  const finalStatus = stoppedOutside ? ((await db.discoveryRun.findUnique({ where: { id: runId }, select: { status: true } }))?.status ?? "paused") : status;
  log(`run ${runId}: ${note}; ${crawled} crawled, ${relevant} relevant`);
  return {
    runId,
    strategy: strategyName,
    status: finalStatus,
    reason: stop,
    crawled,
    relevant,
    harvestRate: crawled === 0 ? 0 : relevant / crawled,
    frontier: counts,
    candidates: tally.proposed().length,
    ...(error !== undefined ? { error } : {}),
  };
}

/** The run's note after a session, in the words the dashboard and the CLI show. */
function stopNote(stop: StopReason, f: { maxPages: number; crawled: number; sessionPages: number; error: string | undefined }): string {
  switch (stop) {
    case "max-pages":
      return `reached ${f.maxPages} pages`;
    case "exhausted":
      return `frontier exhausted after ${f.crawled} pages`;
    case "stop-after":
      return `stopped after ${f.sessionPages} pages in this session`;
    case "paused":
      return "paused";
    case "failed":
      return `failed: ${f.error ?? "unknown error"}`;
  }
}
