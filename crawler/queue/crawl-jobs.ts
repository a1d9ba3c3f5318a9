/**
 * What the long-running commands (`start`, `run`, `worker`) share around the queues: the
 * in-process job queue with its failures written on runs, the start-up catch-up of posts left
 * unclassified, and the process-level last resort for a rejection nobody caught.
 */
import type { Db } from "../../lib/db";
import { classifyPending } from "../classify/pending";
import { recordCrawlFailure, reasonOf } from "../runs";
import type { RunSummary, WorkerServices } from "../worker";
import { crawlHandler, createJobRunner, isCrawl, type CrawlJob, type JobRunner, type QueueItem } from "../jobs";
import { createInProcessQueue } from "./in-process";

/** Options of {@link createCrawlQueue}. */
export interface CrawlQueueOptions {
  concurrency: number;
  log: (message: string) => void;
  /** Called with each finished run's summary. */
  onSummary?: (job: CrawlJob, summary: RunSummary) => void;
  /** Runs the jobs with a row (discovery, training, …). @default a runner of its own on `services.db` */
  runner?: JobRunner;
}

/**
 * The in-process queue of every kind of job: crawls run {@link crawlAccount}, the jobs with a row
 * run through the {@link JobRunner} (claim, heartbeat, progress, outcome on the row). A crawl that
 * throws instead of returning a summary (a bug, a database gone away) is logged and written on the
 * account's run as failed with the reason; the queue, and the scheduler feeding it, keep going.
 */
export function createCrawlQueue(services: WorkerServices, opts: CrawlQueueOptions) {
  const runner = opts.runner ?? createJobRunner({ db: services.db, log: opts.log });
  const crawl = crawlHandler(services);
  const queue = createInProcessQueue<QueueItem>(
    async (job) => {
      if (!isCrawl(job)) {
        await runner.run(job.jobId);
        return;
      }
      const s = await crawl(job);
      opts.onSummary?.(job, s);
    },
    {
      concurrency: opts.concurrency,
      onError: async (e, job) => {
        if (!isCrawl(job)) {
          // The runner writes a job's own failure on its row; this is the runner failing to (a database gone away).
          opts.log(`job ${job.jobId} (${job.kind}) could not run: ${reasonOf(e)}`);
          return;
        }
        opts.log(`account ${job.accountId} crashed: ${reasonOf(e)}`);
        await recordCrawlFailure(services.db, job.accountId, job.trigger, e, opts.log);
      },
    },
  );
  return Object.assign(queue, { runner });
}

/** Options of {@link catchUpClassification}. */
export interface CatchUpOptions {
  log: (message: string) => void;
  /** Stop between batches (shutdown). */
  signal?: AbortSignal;
  /** The classifier. @default classifyPosts */
  classify?: (db: Db, postIds: number[]) => Promise<unknown>;
}

/**
 * Classify, in the background, every post a killed or failed run left in UnclassifiedPost
 * (crawler/classify/pending.ts). Started once when the scheduler or a worker starts; crawls do not
 * wait for it (each crawl also catches up its own account first). The returned promise never
 * rejects: failures are logged, and the posts stay queued for the next crawl or start.
 */
export async function catchUpClassification(db: Db, opts: CatchUpOptions): Promise<void> {
  const { log } = opts;
  try {
    const n = await classifyPending(db, { batch: 200, classify: opts.classify, signal: opts.signal, queuedBefore: new Date() });
    if (n > 0) log(`classified ${n} posts left unclassified by an earlier run`);
  } catch (e) {
    log(`classifying posts left unclassified by an earlier run failed (they stay queued): ${reasonOf(e)}`);
  }
}

let rejectionLog: ((message: string) => void) | null = null;

/**
 * Last resort for the long-running commands: a promise rejection nobody caught is logged and the
 * process keeps going, instead of Node ending it (its default). The real fix is catching where a
 * promise starts, which the scheduler and the queues do; this only keeps an overlooked one from
 * stopping every account's crawling. Installed once per process; a later call changes the log.
 */
export function logUnhandledRejections(log: (message: string) => void): void {
  const installed = rejectionLog !== null;
  rejectionLog = log;
  if (installed) return;
  process.on("unhandledRejection", (reason: unknown) => {
    const stack = reason instanceof Error && reason.stack ? `\n${reason.stack}` : "";
    rejectionLog?.(`unhandled promise rejection (kept running): ${reasonOf(reason)}${stack}`);
  });
}
