/**
 * The in-process job queue: crawl jobs run here by default, up to a concurrency limit, one per
 * account at a time. The pg-boss queue of the scale-out issue offers the same interface, so the
 * scheduler and the worker never know which one they run under.
 */

/** A crawl job: which account, and why. */
export interface CrawlJob {
  accountId: number;
  trigger: "schedule" | "manual" | "cli";
}

/** What every queue offers. */
export interface JobQueue {
  /** Queue a job; false (and nothing queued) when that account is already queued or running. */
  enqueue(job: CrawlJob): boolean | Promise<boolean>;
  /** Account ids now running. */
  running(): number[];
  /** Resolves when nothing is queued or running. */
  onIdle(): Promise<void>;
  /** Stop taking jobs; resolves when the running ones have finished. */
  close(): Promise<void>;
}

/** The in-process queue: enqueueing is synchronous, so callers need not await it. */
export interface InProcessQueue extends JobQueue {
  enqueue(job: CrawlJob): boolean;
}

/**
 * Create the in-process queue. `handler` errors, thrown or rejected, are reported through
 * `onError` and never escape (an error thrown by `onError` itself is printed and dropped): one
 * failing job must not take the scheduler's process down.
 */
export function createInProcessQueue(
  handler: (job: CrawlJob) => Promise<void>,
  { concurrency = 4, onError = (e: unknown) => console.error(e) }: { concurrency?: number; onError?: (e: unknown, job: CrawlJob) => unknown } = {},
): InProcessQueue {
  const pending: CrawlJob[] = [];
  const active = new Map<number, Promise<void>>();
  let closed = false;
  let idleWaiters: (() => void)[] = [];

  const pump = () => {
    while (!closed && active.size < concurrency && pending.length > 0) {
      const job = pending.shift()!;
      // Started inside a promise chain so that a handler throwing synchronously is caught too.
      const p = Promise.resolve()
        .then(() => handler(job))
        .then(
          () => undefined,
          async (e: unknown) => void (await onError(e, job)),
        )
        .catch((e: unknown) => console.error(`crawl queue: the error handler of account ${job.accountId} failed:`, e))
        .finally(() => {
          active.delete(job.accountId);
          pump();
        });
      active.set(job.accountId, p);
    }
    if (active.size === 0 && pending.length === 0) {
      const w = idleWaiters;
      idleWaiters = [];
      w.forEach((f) => f());
    }
  };

  return {
    enqueue(job) {
      if (closed || active.has(job.accountId) || pending.some((j) => j.accountId === job.accountId)) return false;
      pending.push(job);
      queueMicrotask(pump);
      return true;
    },
    running: () => [...active.keys()],
    onIdle() {
      if (active.size === 0 && pending.length === 0) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
    async close() {
      closed = true;
      pending.length = 0;
      await Promise.allSettled([...active.values()]);
    },
  };
}
