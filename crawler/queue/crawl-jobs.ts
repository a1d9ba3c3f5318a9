/**
 * What the long-running commands (`start`, `run`, `worker`) share around the queues: the
 * in-process job queue, and the process-level last resort for a rejection nobody caught.
 */
import { reasonOf } from "../runs";
import type { RunSummary, WorkerServices } from "../worker";
import { crawlHandler, createJobRunner, isCrawl, isSkipped, type CrawlJob, type JobRunner, type QueueItem } from "../jobs";
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
 * The in-process queue of every kind of job: crawls run through the crawl handler, the jobs with a
 * row through the {@link JobRunner} (claim, heartbeat, progress, outcome on the row). A crawl that
 * throws instead of returning a summary (a bug, a database gone away) is logged and written on the
 * account's run by the crawl handler; the queue, and the scheduler feeding it, keep going.
 */
export function createCrawlQueue(services: WorkerServices, opts: CrawlQueueOptions) {
  const runner = opts.runner ?? createJobRunner({ db: services.db, log: opts.log, signal: services.signal });
  const crawl = crawlHandler(services, { log: opts.log });
  const queue = createInProcessQueue<QueueItem>(
    async (job) => {
      if (!isCrawl(job)) {
        await runner.run(job.jobId);
        return;
      }
      const s = await crawl(job);
      if (!isSkipped(s)) opts.onSummary?.(job, s);
    },
    {
      concurrency: opts.concurrency,
      onError: (e, job) => {
        // A crawl's failure was logged and written on its run by the crawl handler.
        if (isCrawl(job)) return;
        // The runner writes a job's own failure on its row; this is the runner failing to (a database gone away).
        opts.log(`job ${job.jobId} (${job.kind}) could not run: ${reasonOf(e)}`);
      },
    },
  );
  return Object.assign(queue, { runner });
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
