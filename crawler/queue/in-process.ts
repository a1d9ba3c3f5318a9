/**
 * The in-process job queue: on SQLite every job runs here, up to a concurrency limit — crawls one
 * per account at a time, and the jobs with a row (discovery, training, re-scoring, notifications:
 * crawler/jobs/) one run per row. The pg-boss queue offers the same interface, so the scheduler
 * and the handlers never know which one they run under.
 */
import { isCrawl, queueKey, type CrawlJob, type QueueItem } from "../jobs/types";

export type { CrawlJob, QueueItem } from "../jobs/types";

/** What every queue offers. */
export interface JobQueue {
  /** Queue a job; false (and nothing queued) when the same account, or the same Job row, is already queued or running. */
  enqueue(job: QueueItem): boolean | Promise<boolean>;
  /** Account ids now being crawled. */
  running(): number[];
  /** Resolves when nothing is queued or running. */
  onIdle(): Promise<void>;
  /** Stop taking jobs; resolves when the running ones have finished. */
  close(): Promise<void>;
}

/** The in-process queue: enqueueing is synchronous, so callers need not await it. */
export interface InProcessQueue<J extends QueueItem = QueueItem> extends JobQueue {
  enqueue(job: J): boolean;
}

/**
 * Create the in-process queue. `handler` errors, thrown or rejected, are reported through
 * `onError` and never escape (an error thrown by `onError` itself is printed and dropped): one
 * failing job must not take the scheduler's process down.
 */
export function createInProcessQueue<J extends QueueItem = CrawlJob>(
  handler: (job: J) => Promise<void>,
  { concurrency = 4, onError = (e: unknown) => console.error(e) }: { concurrency?: number; onError?: (e: unknown, job: J) => unknown } = {},
): InProcessQueue<J> {
  const pending: J[] = [];
  const active = new Map<string, { job: J; done: Promise<void> }>();
  let closed = false;
  let idleWaiters: (() => void)[] = [];

  const pump = () => {
    while (!closed && active.size < concurrency && pending.length > 0) {
      const job = pending.shift()!;
      const key = queueKey(job);
      // Started inside a promise chain so that a handler throwing synchronously is caught too.
      const done = Promise.resolve()
        .then(() => handler(job))
        .then(
          () => undefined,
          async (e: unknown) => void (await onError(e, job)),
        )
        .catch((e: unknown) => console.error(`job queue: the error handler of ${key} failed:`, e))
        .finally(() => {
          active.delete(key);
          pump();
        });
      active.set(key, { job, done });
    }
    if (active.size === 0 && pending.length === 0) {
      const w = idleWaiters;
      idleWaiters = [];
      w.forEach((f) => f());
    }
  };

  return {
    enqueue(job) {
      const key = queueKey(job);
      if (closed || active.has(key) || pending.some((j) => queueKey(j) === key)) return false;
      pending.push(job);
      queueMicrotask(pump);
      return true;
    },
    running: () => [...active.values()].flatMap(({ job }) => (isCrawl(job) ? [job.accountId] : [])),
    onIdle() {
      if (active.size === 0 && pending.length === 0) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
    async close() {
      closed = true;
      pending.length = 0;
      await Promise.allSettled([...active.values()].map((a) => a.done));
    },
  };
}
