/**
 * One handler per kind of background work. A handler does the work and says how it went; claiming
 * the job, heartbeats, progress writes and the outcome's row are the runner's (./runner.ts), so a
 * handler reads like the CLI command it replaces.
 *
 * A handler that throws fails its job at once with the error (a refusal of the samples, a topic
 * deleted meanwhile: trying again would fail again). Only a job whose process died is tried again.
 */
import type { Db } from "../../lib/db";
import { deliverNotification, deliverPending, notifyRun } from "../../lib/notify";
import { incidentsTick } from "../incidents/alerts";
import { learnTopic, rescoreOpenFlags, rescoreTopic, trainTopic } from "../classify";
import { classifyPending } from "../classify/pending";
import { clusterPending } from "../incidents/cluster";
import { revisitDiscovery, runDiscovery, type DiscoverySummary, type RevisitSummary } from "../discover";
import { pruneArchiveNow } from "../runtime";
import { drawRunScreenshots } from "../evidence/shots";
import { appendRunError, recordCrawlFailure, reasonOf } from "../runs";
import { crawlAccount, type RunSummary, type WorkerServices } from "../worker";
import { requestJob } from "./requests";
import { sendScheduledReport } from "./reports";
import type { CrawlJob, JobOutcome, JobProgress, JobSpec } from "./types";

/** What a handler of a job with a row gets besides its parameters. */
export interface JobContext {
  db: Db;
  /** Aborted when the process stops or the job was taken from it (declared dead): stop at a safe point. */
  signal: AbortSignal;
  /** Report progress (written on the row, at most a few times a second). */
  progress: (p: JobProgress) => void;
  log: (message: string) => void;
  /** 1 on the first attempt; more after the process running an earlier attempt died. */
  attempt: number;
}

/** The handlers of the kinds with a row, keyed by kind. */
export type JobHandlers = { [K in JobSpec["kind"]]: (ctx: JobContext, spec: Extract<JobSpec, { kind: K }>) => Promise<JobOutcome> };

/**
 * What a kind does once its job has finished well and its row says so (optional, per kind). The
 * runner calls it after writing the outcome; a failure is logged, the job stays done.
 */
export type JobAfterFinish = { [K in JobSpec["kind"]]?: (db: Db, spec: Extract<JobSpec, { kind: K }>, outcome: JobOutcome) => Promise<unknown> };

/** The product's follow-ups. */
export const afterJobFinished: JobAfterFinish = {
  // A job that learned nothing asks for none, so the lookups cannot loop.
  learn: (db, spec, outcome) => (outcome.step === "learnedNothing" ? Promise.resolve(false) : learnAgainIfReviewsWait(db, spec.topicId)),
};

/**
 * After a learn job has finished: ask for another when reviews of its topic still wait. A review
 * stored after the job's last look (crawler/classify/topic-learn.ts), while its row still said
 * "running", found that job active and asked for nothing (one job per key); now that the row is
 * finished the request makes a new job, so the answer is learned within seconds rather than at the
 * next review or the daily training. A review stored later than this look asks for its own job.
 */
export async function learnAgainIfReviewsWait(db: Db, topicId: number): Promise<boolean> {
  const waiting = await db.topicSample.count({ where: { topicId, source: "review", learnedAt: null } });
  if (waiting === 0) return false;
  return (await requestJob(db, { kind: "learn", topicId })).created;
}

/** A crawl that did not start, and why (another worker holds the account, the account was deleted). */
export interface CrawlSkipped {
  skipped: string;
}

/** Options of {@link crawlHandler}. */
export interface CrawlHandlerOptions {
  /**
   * Wraps each crawl: the pg-boss worker takes the account's advisory lock and lists the job as
   * its own around it, or skips the crawl. What it throws is a failure of the crawl like any other.
   */
  around?: (job: CrawlJob, crawl: () => Promise<RunSummary>) => Promise<RunSummary | CrawlSkipped>;
  log?: (message: string) => void;
}

/**
 * The crawl handler: the worker's crawl of one account (its record is the CrawlRun it writes).
 * Every crawl goes through it — the scheduler's in-process queue, `crawl once`, a pg-boss worker —
 * and it alone records a crawl that threw instead of returning a summary (a bug, the database gone
 * away): on the account's run, as failed with the reason. It then rethrows, so the caller can log
 * it, set the exit code or let pg-boss retry, without recording it again.
 */
export function crawlHandler(services: WorkerServices, opts: CrawlHandlerOptions = {}): (job: CrawlJob) => Promise<RunSummary | CrawlSkipped> {
  const crawl = (job: CrawlJob) => () => crawlAccount(services, job.accountId, job.trigger);
  return async (job) => {
    try {
      return opts.around ? await opts.around(job, crawl(job)) : await crawl(job)();
    } catch (e) {
      opts.log?.(`account ${job.accountId} crashed: ${reasonOf(e)}`);
      await recordCrawlFailure(services.db, job.accountId, job.trigger, e, opts.log);
      throw e;
    }
  };
}

/** True for a crawl the handler skipped. */
export function isSkipped(r: RunSummary | CrawlSkipped): r is CrawlSkipped {
  return "skipped" in r;
}

/** Options of {@link discoverWork}: what the CLI adds to the job's own reporting. */
export interface DiscoverWorkOptions {
  /** Called with each crawled page's counts (the CLI prints every hundredth). */
  onPage?: (e: { crawled: number; relevantSoFar: number }) => void;
  /** Called with the run's summary (the CLI prints it). */
  onSummary?: (s: DiscoverySummary | RevisitSummary) => void;
  log?: (message: string) => void;
}

/**
 * A discover job's work: run (or resume, or revisit) the run, reporting pages as progress. The
 * product's handler and the CLI's `discover` both do this; the CLI only prints more.
 */
export async function discoverWork(ctx: JobContext, spec: Extract<JobSpec, { kind: "discover" }>, opts: DiscoverWorkOptions = {}): Promise<JobOutcome> {
  // An attempt after a dead one finds the run still "running" (its process was killed): take it over.
  const force = spec.force === true || ctx.attempt > 1;
  const log = (m: string) => {
    ctx.log(m);
    opts.log?.(m);
  };
  if (spec.revisit) {
    const r = await revisitDiscovery(ctx.db, spec.runId, { force, signal: ctx.signal, log });
    opts.onSummary?.(r);
    return {
      message: `discovery run ${spec.runId} revisited: ${r.checked} pages, ${r.changed} changed; status ${r.status}`,
      step: "revisited",
      values: { status: r.status, checked: r.checked, changed: r.changed },
    };
  }
  const summary = await runDiscovery(ctx.db, spec.runId, {
    force,
    // Asked for through requestDiscoveryRun, the run waits "queued"; paused meanwhile, it stays paused.
    claimFrom: ["queued"],
    signal: ctx.signal,
    log,
    onPage: (e) => {
      ctx.progress({
        message: `${e.crawled} pages crawled, ${e.relevantSoFar} relevant`,
        step: "discovering",
        values: { crawled: e.crawled, relevant: e.relevantSoFar },
        done: e.crawled,
      });
      opts.onPage?.(e);
    },
  });
  opts.onSummary?.(summary);
  return {
    message: `discovery run ${spec.runId} ${summary.status}: ${summary.crawled} pages, ${summary.relevant} relevant`,
    step: "discovered",
    values: { status: summary.status, crawled: summary.crawled, relevant: summary.relevant },
  };
}

/** Options of {@link catchUpWork}. */
export interface CatchUpWorkOptions {
  /** The classifier. @default classifyPosts */
  classify?: (db: Db, postIds: number[]) => Promise<unknown>;
}

/**
 * A catch-up job's work: classify, in batches, the posts killed or failed runs left in
 * UnclassifiedPost (crawler/classify/pending.ts). Stops between batches when the process stops;
 * what is left stays queued for the next start or the account's next crawl. A classifier failure
 * fails the job (the posts stay queued).
 */
export async function catchUpWork(ctx: JobContext, spec: Extract<JobSpec, { kind: "catchUp" }>, opts: CatchUpWorkOptions = {}): Promise<JobOutcome> {
  const n = await classifyPending(ctx.db, { batch: 200, classify: opts.classify, signal: ctx.signal, queuedBefore: new Date(spec.queuedBefore) });
  // Clustering follows classification (flags count in an incident's figures).
  const c = ctx.signal.aborted ? 0 : await clusterPending(ctx.db, { batch: 200, signal: ctx.signal, queuedBefore: new Date(spec.queuedBefore) });
  const stopped = ctx.signal.aborted ? " (stopped early: the rest stay queued)" : "";
  return {
    message: `classified ${n} posts left unclassified by an earlier run; clustered ${c} posts into incidents${stopped}`,
    step: "caughtUp",
    values: { posts: n, clustered: c },
  };
}

/** The product's handlers. */
export const jobHandlers: JobHandlers = {
  discover: (ctx, spec) => discoverWork(ctx, spec),

  async train(ctx, spec) {
    const r = await trainTopic(ctx.db, spec.topicId, undefined, { onProgress: (p) => ctx.progress(p) });
    // Calibration moved the threshold: the open flags were judged by the old one. (All stored posts
    // are re-scored only when asked: Re-score.)
    if (r.calibration.applied && r.calibration.threshold !== r.calibration.previous) await rescoreOpenFlags(ctx.db, spec.topicId, (p) => ctx.progress(p));
    return {
      message: `model v${r.modelVersion} trained on ${r.samples} samples (${r.reviewSamples} from reviews)`,
      step: "trained",
      values: { version: r.modelVersion, samples: r.samples, reviews: r.reviewSamples },
    };
  },

  async rescore(ctx, spec) {
    const r = await rescoreTopic(ctx.db, spec.topicId, { onProgress: (p) => ctx.progress(p) });
    return {
      message: `re-scored ${r.posts} posts: ${r.flagsOpened} new flags, ${r.flagsUpdated} updated, ${r.flagsClosed} closed`,
      step: "rescored",
      values: { posts: r.posts, opened: r.flagsOpened, updated: r.flagsUpdated, closed: r.flagsClosed },
    };
  },

  async learn(ctx, spec) {
    const r = await learnTopic(ctx.db, spec.topicId, { full: spec.full, onProgress: (p) => ctx.progress(p) });
    const flags = r.rescored ? `; open flags re-scored: ${r.rescored.flagsUpdated} updated, ${r.rescored.flagsClosed} closed` : "";
    return {
      message:
        r.mode === "nothing"
          ? `nothing learned: ${r.reason ?? ""}`
          : `model v${r.modelVersion}: ${r.learned} review samples ${r.mode}${r.reason ? ` (${r.reason})` : ""}${flags}`,
      step: r.mode === "nothing" ? "learnedNothing" : r.mode === "folded" ? "learned" : "relearned",
      values: { version: r.modelVersion, reviews: r.learned, updated: r.rescored?.flagsUpdated ?? 0, closed: r.rescored?.flagsClosed ?? 0 },
    };
  },

  async notify(ctx, spec) {
    const ids =
      spec.notificationIds ??
      (await ctx.db.notification.findMany({ where: { status: "pending" }, select: { id: true }, orderBy: { id: "asc" }, take: 200 })).map((n) => n.id);
    let sent = 0;
    let failed = 0;
    for (const [i, id] of ids.entries()) {
      if (ctx.signal.aborted) break;
      ctx.progress({ message: `sending ${i + 1} of ${ids.length}`, step: "sending", done: i, total: ids.length });
      if ((await deliverNotification(ctx.db, id)) === "sent") sent++;
      else failed++;
    }
    return { message: `${sent} sent, ${failed} failed`, step: "notified", values: { sent, failed } };
  },

  async notifyRun(ctx, spec) {
    try {
      const r = await notifyRun(ctx.db, spec.crawlRunId);
      return { message: `${r.notifications} notifications: ${r.sent} sent, ${r.failed} failed`, step: "notified", values: { ...r } };
    } catch (e) {
      // Also on the run, where the dashboard has always shown a notification that could not go out.
      await appendRunError(ctx.db, spec.crawlRunId, "NotifyError", e, ctx.log);
      throw e;
    }
  },

  catchUp: (ctx, spec) => catchUpWork(ctx, spec),

  async incidents(ctx) {
    const now = new Date();
    const r = await incidentsTick(ctx.db, now);
    const d = await deliverPending(ctx.db, { clock: () => now.getTime() });
    return {
      message: `heat of ${r.heated} incidents; ${r.alerts} alerts and ${r.updates} updates queued; ${d.sent} messages sent, ${d.failed} failed, ${d.held ?? 0} held`,
      step: "incidentsChecked",
      values: { heated: r.heated, alerts: r.alerts, updates: r.updates, sent: d.sent, failed: d.failed, held: d.held ?? 0 },
    };
  },

  async evidenceShots(ctx, spec) {
    const r = await drawRunScreenshots(ctx.db, spec.crawlRunId, {
      signal: ctx.signal,
      log: ctx.log,
      progress: (done, total) => ctx.progress({ message: `screenshot ${done + 1} of ${total}`, step: "drawing", done, total }),
    });
    return { message: `screenshots: ${r.drawn} drawn, ${r.skipped} already there or gone, ${r.failed} failed`, step: "drawn", values: { ...r } };
  },

  async pruneArchive(ctx) {
    const n = await pruneArchiveNow(ctx.db);
    return { message: `archive: removed ${n} old files`, step: "pruned", values: { files: n } };
  },

  report: (ctx, spec) => sendScheduledReport(ctx, spec),
};
