/**
 * The crawl queue on PostgreSQL: pg-boss, a maintained job queue that keeps its jobs in the same
 * database. The scheduler (or `campuswatch crawl enqueue`) only sends jobs; any number of
 * `campuswatch worker` processes, on any machines, claim and run them (./pg-worker.ts).
 *
 * The queue's policy is pg-boss's "stately": per account (the singleton key) at most one job
 * waiting and one running. A tick that finds both already there is refused and recorded as
 * skipped, like the in-process queue does.
 */
import pg from "pg";
import PgBoss from "pg-boss";
import { scaleOutConfig } from "../../lib/config";
import { isCrawl, type QueueItem } from "../jobs/types";
import type { JobQueue } from "./in-process";

/** The pg-boss queue crawl jobs go through. */
export const CRAWL_QUEUE = "crawl";

/**
 * The pg-boss queue the jobs with a row (discovery, training, re-scoring, notifications) go
 * through. Its messages only name the row; the row is the truth (claimed conditionally, retried by
 * the reaper when its process dies), so pg-boss neither deduplicates nor retries them.
 */
export const JOB_QUEUE = "job";

/** The PostgreSQL schema pg-boss keeps its tables in. */
export const BOSS_SCHEMA = "pgboss";

/** The crawl queue's settings, from {@link scaleOutConfig}. */
function crawlQueueOptions(): PgBoss.Queue {
  const s = scaleOutConfig();
  return {
    name: CRAWL_QUEUE,
    policy: "stately",
    retryLimit: s.jobRetries,
    retryDelay: s.jobRetryDelaySeconds,
    expireInSeconds: s.jobExpireSeconds,
    // Finished jobs stay visible on the dashboard for a week.
    retentionMinutes: 7 * 24 * 60,
  };
}

/** The job queue's settings: plain delivery; a message lives as long as the longest job may run. */
function jobQueueOptions(): PgBoss.Queue {
  return {
    name: JOB_QUEUE,
    policy: "standard",
    retryLimit: 0,
    expireInSeconds: Math.max(scaleOutConfig().jobExpireSeconds, 6 * 3600),
    retentionMinutes: 24 * 60,
  };
}

/**
 * Run `fn` while holding a session advisory lock that every CampusWatch process takes for
 * setting up pg-boss. Why: pg-boss's `create_queue` is not safe to run from several processes at
 * once. Two workers starting together on a new database both insert the queue row and attach
 * its partition, and PostgreSQL aborts one with "deadlock detected" (seen in the worker test
 * under load). The lock lives on its own connection; closing it releases the lock, even when
 * `fn` throws.
 */
async function withSetupLock<T>(url: string, fn: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, application_name: "campuswatch queue setup" });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock(hashtextextended('campuswatch:pg-boss setup', 0))");
    return await fn();
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Connect pg-boss to the database at `url` (creating its schema on first use) and make sure the
 * crawl and job queues exist with the current settings (CAMPUSWATCH_JOB_RETRIES and the like: a changed
 * setting is applied to the queue when a process starts). Safe to call from many processes at
 * once. `application_name` shows who holds each connection in pg_stat_activity.
 */
export async function startBoss(url: string, { name = "campuswatch", supervise = true }: { name?: string; supervise?: boolean } = {}): Promise<PgBoss> {
  const boss = new PgBoss({
    connectionString: url,
    schema: BOSS_SCHEMA,
    application_name: name,
    max: 4,
    // Maintenance (expiring, archiving) is cheap and idempotent; every process may run it.
    supervise,
    // The scheduler is ours (node-cron per account); pg-boss's cron is not used.
    schedule: false,
  });
  boss.on("error", (e: Error) => console.error(`[pg-boss] ${e.message}`));
  await withSetupLock(url, async () => {
    await boss.start();
    for (const wanted of [crawlQueueOptions(), jobQueueOptions()]) {
      const current = await boss.getQueue(wanted.name);
      if (!current) await boss.createQueue(wanted.name, wanted);
      else if ((["policy", "retryLimit", "retryDelay", "expireInSeconds", "retentionMinutes"] as const).some((k) => current[k] !== wanted[k])) {
        await boss.updateQueue(wanted.name, wanted);
      }
    }
  }).catch(async (e: unknown) => {
    await boss.stop({ graceful: false, wait: true }).catch(() => undefined);
    throw e;
  });
  return boss;
}

/**
 * The scheduler's side of the pg-boss queue: sending only. `running()` and `onIdle()` describe the
 * whole queue across all workers (read from pg-boss), not this process.
 */
export function createPgBossQueue(boss: PgBoss): JobQueue & { runningAsync(): Promise<number[]> } {
  let closed = false;
  const runningAsync = async () => {
    const { rows } = await boss.getDb().executeSql(`SELECT singleton_key FROM ${BOSS_SCHEMA}.job WHERE name = $1 AND state = 'active'`, [CRAWL_QUEUE]);
    return rows.map((r: { singleton_key: string }) => Number(r.singleton_key));
  };
  return {
    async enqueue(job: QueueItem) {
      if (closed) return false;
      if (!isCrawl(job)) return (await boss.send(JOB_QUEUE, job)) !== null;
      const id = await boss.send(CRAWL_QUEUE, job, { singletonKey: String(job.accountId) });
      return id !== null;
    },
    running: () => [],
    runningAsync,
    async onIdle() {
      for (;;) {
        const { rows } = await boss
          .getDb()
          .executeSql(`SELECT count(*)::int AS n FROM ${BOSS_SCHEMA}.job WHERE name = $1 AND state < 'completed'`, [CRAWL_QUEUE]);
        if ((rows as { n: number }[])[0]?.n === 0) return;
        await new Promise((r) => setTimeout(r, 250));
      }
    },
    close() {
      closed = true;
      return Promise.resolve();
    },
  };
}
