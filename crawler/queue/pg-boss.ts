/**
 * The crawl queue on PostgreSQL: pg-boss, a maintained job queue that keeps its jobs in the same
 * database. The scheduler (or `campuswatch crawl enqueue`) only sends jobs; any number of
 * `campuswatch worker` processes, on any machines, claim and run them (./pg-worker.ts).
 *
 * The queue's policy is pg-boss's "stately": per account (the singleton key) at most one job
 * waiting and one running. A tick that finds both already there is refused and recorded as
 * skipped, like the in-process queue does.
 */
import PgBoss from "pg-boss";
import { scaleOutConfig } from "../../lib/config";
import type { CrawlJob, JobQueue } from "./in-process";

/** The pg-boss queue crawl jobs go through. */
export const CRAWL_QUEUE = "crawl";

/** The PostgreSQL schema pg-boss keeps its tables in. */
export const BOSS_SCHEMA = "pgboss";

/**
 * Connect pg-boss to the database at `url` (creating its schema on first use) and make sure the
 * crawl queue exists. `application_name` shows who holds each connection in pg_stat_activity.
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
  await boss.start();
  const s = scaleOutConfig();
  await boss.createQueue(CRAWL_QUEUE, {
    name: CRAWL_QUEUE,
    policy: "stately",
    retryLimit: s.jobRetries,
    retryDelay: s.jobRetryDelaySeconds,
    expireInSeconds: s.jobExpireSeconds,
    // Finished jobs stay visible on the dashboard for a week.
    retentionMinutes: 7 * 24 * 60,
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
    const { rows } = await boss
      .getDb()
      .executeSql(`SELECT singleton_key FROM ${BOSS_SCHEMA}.job WHERE name = $1 AND state = 'active'`, [CRAWL_QUEUE]);
    return rows.map((r: { singleton_key: string }) => Number(r.singleton_key));
  };
  return {
    async enqueue(job: CrawlJob) {
      if (closed) return false;
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
        if (rows[0].n === 0) return;
        await new Promise((r) => setTimeout(r, 250));
      }
    },
    async close() {
      closed = true;
    },
  };
}
