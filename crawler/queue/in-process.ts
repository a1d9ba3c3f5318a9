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
  {
    concurrency = 4,
    onError = (e: unknown) => console.error(e),
    groupOf,
  }: {
    concurrency?: number;
    onError?: (e: unknown, job: J) => unknown;
    /**
     * The group a job belongs to (for crawls: the host its account is on), or undefined. A free
     * slot takes the first waiting job of the group with the fewest jobs running, rather than the
     * first job: each host takes one request at a time (crawler/fetch/politeness.ts), so a second
     * account of a busy host mostly waits for the first, while an account on an idle host has the
     * host to itself. Without it, jobs start in the order they were queued.
     */
    groupOf?: (job: J) => string | undefined;
  } = {},
): InProcessQueue<J> {
  const pending: J[] = [];
  const active = new Map<string, { job: J; done: Promise<void> }>();
  let closed = false;
  let idleWaiters: (() => void)[] = [];

  /** Running jobs of `group`. */
  const runningIn = (group: string) => {
    let n = 0;
    for (const { job } of active.values()) if (groupOf!(job) === group) n++;
    return n;
  };
  /** The next job to start (see `groupOf`). */
  const take = (): J => {
    if (!groupOf) return pending.shift()!;
    let best = 0;
    let fewest = Infinity;
    for (let i = 0; i < pending.length && fewest > 0; i++) {
      const group = groupOf(pending[i]!);
      const n = group === undefined ? 0 : runningIn(group);
      if (n < fewest) [best, fewest] = [i, n];
    }
    return pending.splice(best, 1)[0]!;
  };

  const pump = () => {
    while (!closed && active.size < concurrency && pending.length > 0) {
      const job = take();
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
