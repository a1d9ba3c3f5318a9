/**
 * One handler per kind of background work. A handler does the work and says how it went; claiming
 * the job, heartbeats, progress writes and the outcome's row are the runner's (./runner.ts), so a
 * handler reads like the CLI command it replaces.
 *
 * A handler that throws fails its job at once with the error (a refusal of the samples, a topic
 * deleted meanwhile: trying again would fail again). Only a job whose process died is tried again.
 */
import type { Db } from "../../lib/db";
import { deliverNotification } from "../../lib/notify";
import { learnTopic, rescoreOpenFlags, rescoreTopic, trainTopic } from "../classify";
import { runDiscovery } from "../discover";
import { crawlAccount, type RunSummary, type WorkerServices } from "../worker";
import { requestJob } from "./requests";
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

/** The crawl handler: the worker's crawl of one account (its record is the CrawlRun it writes). */
export function crawlHandler(services: WorkerServices): (job: CrawlJob) => Promise<RunSummary> {
  return (job) => crawlAccount(services, job.accountId, job.trigger);
}

/** The product's handlers. */
export const jobHandlers: JobHandlers = {
  async discover(ctx, spec) {
    // An attempt after a dead one finds the run still "running" (its process was killed): take it over.
    const force = spec.force === true || ctx.attempt > 1;
    const summary = await runDiscovery(ctx.db, spec.runId, {
      force,
      // Asked for through requestDiscoveryRun, the run waits "queued"; paused meanwhile, it stays paused.
      claimFrom: ["queued"],
      signal: ctx.signal,
      log: ctx.log,
      onPage: (e) =>
        ctx.progress({
          message: `${e.crawled} pages crawled, ${e.relevantSoFar} relevant`,
          step: "discovering",
          values: { crawled: e.crawled, relevant: e.relevantSoFar },
          done: e.crawled,
        }),
    });
    return {
      message: `discovery run ${spec.runId} ${summary.status}: ${summary.crawled} pages, ${summary.relevant} relevant`,
      step: "discovered",
      values: { status: summary.status, crawled: summary.crawled, relevant: summary.relevant },
    };
  },

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
};
