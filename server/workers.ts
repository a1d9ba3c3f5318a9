/**
 * What the Workers page shows: on PostgreSQL, the `campuswatch worker` processes (alive, stale or
 * gone), the jobs each is running, and the pg-boss crawl queue (depth, recent jobs); on SQLite,
 * that crawls run inside the scheduler process, with the crawls running now. On both, how the
 * crawler's Chromium on this machine is confined (sandboxed or not), as the crawling process
 * recorded it in the data dir.
 */
import type { Db } from "../lib/db";
import { dialectOf } from "../lib/db";
import { scaleOutConfig } from "../lib/config";
import { readBrowserSandboxNote, type BrowserSandboxNote } from "../lib/browser-sandbox";
import { toNumber, type SqlNumber } from "./sql";

/** A worker as the dashboard shows it. `stale`: still registered as running but silent too long. */
export interface WorkerRow {
  id: string;
  hostname: string;
  pid: number;
  concurrency: number;
  status: "running" | "stale" | "stopped" | "dead";
  startedAt: Date;
  heartbeatAt: Date;
  stoppedAt: Date | null;
  jobsDone: number;
  jobs: { jobId: string; accountId: number; accountName: string; startedAt: Date }[];
}

/** A pg-boss crawl job. */
export interface QueueJobRow {
  id: string;
  accountId: number;
  accountName: string;
  state: string;
  retryCount: number;
  createdOn: Date;
  startedOn: Date | null;
  completedOn: Date | null;
}

export type WorkerOverview = (
  | { dialect: "sqlite"; running: { runId: number; accountId: number; accountName: string; startedAt: Date }[] }
  | {
      dialect: "postgresql";
      workers: WorkerRow[];
      /** Jobs per state in the crawl queue; `waiting` = created + retry (claimable). */
      queue: { waiting: number; retry: number; active: number; completedLastHour: number; failedLastHour: number };
      recentJobs: QueueJobRow[];
      /** False until a scheduler or worker has started pg-boss on this database. */
      queueInstalled: boolean;
    }
) & {
  /**
   * How Chromium was confined when a crawling process on this machine last launched it
   * (lib/browser-sandbox.ts); null when none has yet. Workers on other machines keep theirs.
   */
  browser: BrowserSandboxNote | null;
};

/** Everything the Workers page shows. Stopped and dead workers are listed for a day. */
export async function getWorkerOverview(db: Db, now = new Date()): Promise<WorkerOverview> {
  const browser = readBrowserSandboxNote();
  const accounts = new Map((await db.account.findMany({ select: { id: true, name: true } })).map((a) => [a.id, a.name]));
  const nameOf = (id: number) => accounts.get(id) ?? `#${id} (deleted)`;
  if (dialectOf(db) === "sqlite") {
    const runs = await db.crawlRun.findMany({ where: { status: "running" }, orderBy: { startedAt: "asc" } });
    return {
      dialect: "sqlite",
      browser,
      running: runs.map((r) => ({ runId: r.id, accountId: r.accountId, accountName: nameOf(r.accountId), startedAt: r.startedAt })),
    };
  }
  const since = new Date(now.getTime() - 86_400_000);
  const rows = await db.crawlWorker.findMany({
    where: { OR: [{ status: "running" }, { stoppedAt: { gte: since } }] },
    include: { jobs: { orderBy: { startedAt: "asc" } } },
    orderBy: [{ status: "asc" }, { startedAt: "desc" }],
  });
  // Silent for longer than the dead-worker timeout, but no live worker has noticed yet.
  const stale = scaleOutConfig().deadAfterMs;
  const workers: WorkerRow[] = rows.map((w) => ({
    id: w.id,
    hostname: w.hostname,
    pid: w.pid,
    concurrency: w.concurrency,
    status: w.status === "running" && now.getTime() - w.heartbeatAt.getTime() > stale ? "stale" : (w.status as WorkerRow["status"]),
    startedAt: w.startedAt,
    heartbeatAt: w.heartbeatAt,
    stoppedAt: w.stoppedAt,
    jobsDone: w.jobsDone,
    jobs: w.jobs.map((j) => ({ jobId: j.jobId, accountId: j.accountId, accountName: nameOf(j.accountId), startedAt: j.startedAt })),
  }));

  const [probe] = await db.$queryRaw<{ installed: boolean }[]>`SELECT to_regclass('pgboss.job') IS NOT NULL AS "installed"`;
  if (!probe?.installed) {
    return {
      dialect: "postgresql",
      browser,
      workers,
      queue: { waiting: 0, retry: 0, active: 0, completedLastHour: 0, failedLastHour: 0 },
      recentJobs: [],
      queueInstalled: false,
    };
  }
  // pg-boss's own columns: enum and uuid values are cast to text (the driver adapter reads text).
  const counts = await db.$queryRaw<{ state: string; n: SqlNumber; lastHour: SqlNumber }[]>`
    SELECT j.state::text AS "state", count(*) AS "n",
           count(*) FILTER (WHERE j.completed_on > now() - interval '1 hour') AS "lastHour"
    FROM pgboss.job j WHERE j.name = 'crawl' GROUP BY j.state`;
  const by = new Map(counts.map((c) => [c.state, { n: toNumber(c.n), lastHour: toNumber(c.lastHour) }]));
  const jobs = await db.$queryRaw<
    { id: string; key: string | null; state: string; retryCount: number; createdOn: Date; startedOn: Date | null; completedOn: Date | null }[]
  >`
    SELECT j.id::text AS "id", j.singleton_key AS "key", j.state::text AS "state", j.retry_count AS "retryCount",
           j.created_on AS "createdOn", j.started_on AS "startedOn", j.completed_on AS "completedOn"
    FROM pgboss.job j WHERE j.name = 'crawl' ORDER BY j.created_on DESC LIMIT 30`;
  return {
    dialect: "postgresql",
    browser,
    workers,
    queue: {
      waiting: (by.get("created")?.n ?? 0) + (by.get("retry")?.n ?? 0),
      retry: by.get("retry")?.n ?? 0,
      active: by.get("active")?.n ?? 0,
      completedLastHour: by.get("completed")?.lastHour ?? 0,
      failedLastHour: by.get("failed")?.lastHour ?? 0,
    },
    recentJobs: jobs.map((j) => ({
      id: j.id,
      accountId: Number(j.key),
      accountName: nameOf(Number(j.key)),
      state: j.state,
      retryCount: toNumber(j.retryCount),
      createdOn: new Date(j.createdOn),
      startedOn: j.startedOn ? new Date(j.startedOn) : null,
      completedOn: j.completedOn ? new Date(j.completedOn) : null,
    })),
    queueInstalled: true,
  };
}
