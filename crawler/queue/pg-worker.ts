/**
 * A worker on PostgreSQL (`campuswatch worker`): claims crawl jobs from pg-boss and runs them through
 * the same crawl handler the in-process queue uses, and the jobs with a row (discovery, training,
 * re-scoring, notifications, catch-up classification) with the same runner (crawler/jobs/). Run any number of
 * them, on any machines, against one database.
 *
 * Guarantees and how they are kept:
 * - One account is never crawled by two workers at once: pg-boss's "stately" policy lets one job
 *   per account be active, and the worker also holds a PostgreSQL advisory lock on the account
 *   for the whole crawl (released by PostgreSQL if the worker dies), so even a job handed out
 *   twice (a worker declared dead that was only stalled) cannot crawl concurrently: the second
 *   one finds the lock taken and is recorded as skipped.
 * - Per-host politeness across all workers: {@link PgHostScheduler}.
 * - A killed worker's job is retried by another: every worker heartbeats in "CrawlWorker" and
 *   lists its running jobs in "WorkerJob". Every worker also watches the others: one whose
 *   heartbeat is older than `deadAfterMs` is marked dead and its jobs are failed in pg-boss,
 *   which queues them again (retryLimit). The retry starts a new crawl of the account; stored
 *   posts are keyed by (account, platform id), so the retry neither duplicates nor loses one.
 */
import os from "node:os";
import crypto from "node:crypto";
import type PgBoss from "pg-boss";
import pg from "pg";
import type { Db } from "../../lib/db";
import { scaleOutConfig } from "../../lib/config";
import type { RunSummary } from "../worker";
import { createServices } from "../runtime";
import { closeSharedBrowser } from "../fetch";
import { PgHostScheduler } from "../fetch/pg-politeness";
import { CRAWL_QUEUE, JOB_QUEUE, startBoss } from "./pg-boss";
import { crawlHandler, createJobRunner, dispatchQueuedJobs, isSkipped, reapDeadJobs, requestCatchUp, type CrawlSkipped } from "../jobs";
import { segment } from "../classify/tokenizer";
import type { CrawlJob } from "../jobs/types";
import { createSkippedRun, reasonOf } from "../runs";

/** Options of {@link startWorker}. */
export interface WorkerOptions {
  db: Db;
  /** The postgresql:// URL `db` was opened with (pg-boss and the locks need their own connections). */
  url: string;
  /** Crawl jobs run at once by this worker. @default 2 */
  concurrency?: number;
  /** Minimum delay between requests to one host, across all workers. @default CAMPUSWATCH_HOST_DELAY_MS or 1000 */
  hostDelayMs?: number;
  /** How often the worker proves it is alive. @default CAMPUSWATCH_WORKER_HEARTBEAT_MS or 5000 */
  heartbeatMs?: number;
  /** A worker silent this long is dead and its jobs are retried elsewhere. @default CAMPUSWATCH_WORKER_DEAD_MS or 30000 */
  deadAfterMs?: number;
  /** How often an idle worker asks pg-boss for a job, in seconds (pg-boss's minimum is 0.5). @default 1 */
  pollSeconds?: number;
  log?: (message: string) => void;
}

/** A running worker. */
export interface RunningWorker {
  id: string;
  /** Stop taking jobs, let running crawls stop at their next safe point, deregister. */
  stop(): Promise<void>;
  /** Resolves once stopped. */
  done: Promise<void>;
  /** Ids of the jobs with a row this worker is running now. */
  activeJobs(): ReadonlySet<number>;
}

/** Register a worker, start claiming crawl jobs, and keep the heartbeat and the dead-worker watch going. */
export async function startWorker(opts: WorkerOptions): Promise<RunningWorker> {
  const { db, url } = opts;
  const log = opts.log ?? ((m: string) => console.log(`[worker] ${m}`));
  const concurrency = opts.concurrency ?? 2;
  const settings = scaleOutConfig();
  const heartbeatMs = opts.heartbeatMs ?? settings.heartbeatMs;
  const deadAfterMs = opts.deadAfterMs ?? settings.deadAfterMs;
  if (deadAfterMs < 2 * heartbeatMs) throw new Error("the dead-worker timeout must be at least two heartbeats");
  const id = crypto.randomUUID();

  // Account locks: one connection per running job, so each lock lives exactly as long as its crawl.
  const lockPool = new pg.Pool({ connectionString: url, max: concurrency + 1, application_name: `campuswatch worker ${id}` });
  lockPool.on("error", () => undefined);
  const hosts = new PgHostScheduler(url, { maxConnections: Math.max(4, concurrency * 2) });
  const abort = new AbortController();
  const services = createServices({ db, hostDelayMs: opts.hostDelayMs, signal: abort.signal, hostGate: hosts, onProgress: undefined });

  // Load jieba's dictionaries now (about a second of synchronous work): done during the first
  // crawl instead, it would hold up the heartbeat when the worker has just registered.
  segment("预热");

  await db.$executeRaw`
    INSERT INTO "CrawlWorker" ("id", "hostname", "pid", "concurrency", "status", "startedAt", "heartbeatAt", "jobsDone")
    VALUES (${id}, ${os.hostname()}, ${process.pid}, ${concurrency}, 'running', now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC', 0)`;

  const boss: PgBoss = await startBoss(url, { name: `campuswatch worker ${id}` });
  // Posts a killed process stored but never classified: a catch-up job (one however many workers
  // start), handed to pg-boss by the heartbeat below like any queued job.
  await requestCatchUp(db);
  let stopping = false;

  /**
   * Around each crawl: list the job as this worker's, and hold the account's advisory lock, or
   * skip the crawl when another worker holds it. Run inside the crawl handler, which records
   * whatever this throws as the crawl's failure.
   */
  const exclusively = async (job: PgBoss.Job<CrawlJob>, crawl: () => Promise<RunSummary>): Promise<RunSummary | CrawlSkipped> => {
    const { accountId, trigger } = job.data;
    await db.$executeRaw`
      INSERT INTO "WorkerJob" ("jobId", "workerId", "accountId", "startedAt") VALUES (${job.id}, ${id}, ${accountId}, now() AT TIME ZONE 'UTC')
      ON CONFLICT ("jobId") DO UPDATE SET "workerId" = excluded."workerId", "startedAt" = excluded."startedAt"`;
    const lock = await lockPool.connect();
    let clean = false;
    try {
      const { rows } = await lock.query<{ ok: boolean }>("SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS ok", [`account:${accountId}`]);
      if (!rows[0]!.ok) {
        const now = new Date();
        await createSkippedRun(db, accountId, trigger, "another worker is crawling this account", now);
        clean = true;
        return { skipped: "another worker is crawling this account" };
      }
      try {
        const exists = await db.account.count({ where: { id: accountId } });
        if (!exists) return { skipped: "account was deleted" };
        return await crawl();
      } finally {
        await lock.query("SELECT pg_advisory_unlock(hashtextextended($1, 0))", [`account:${accountId}`]);
        clean = true;
      }
    } finally {
      lock.release(!clean);
      await db.$executeRaw`DELETE FROM "WorkerJob" WHERE "jobId" = ${job.id} AND "workerId" = ${id}`;
      await db.$executeRaw`UPDATE "CrawlWorker" SET "jobsDone" = "jobsDone" + 1 WHERE "id" = ${id}`;
    }
  };

  // Jobs with a row (discovery, training, re-scoring, notifications), one at a time per worker:
  // training and re-scoring are CPU-bound, and a second one would only slow the crawls down.
  const runner = createJobRunner({ db, owner: id, heartbeatMs, signal: abort.signal, log });
  const workIds: string[] = [];
  workIds.push(
    await boss.work<{ jobId: number }>(JOB_QUEUE, { batchSize: 1, pollingIntervalSeconds: opts.pollSeconds ?? 1 }, async ([job]) => {
      if (!job) return;
      const done = await runner.run(job.data.jobId);
      return done ? { jobId: done.id, status: done.status } : { jobId: job.data.jobId, status: "not claimed" };
    }),
  );

  // pg-boss v10 runs one batch per work() registration at a time: register `concurrency` of them.
  for (let i = 0; i < concurrency; i++) {
    workIds.push(
      await boss.work<CrawlJob>(CRAWL_QUEUE, { batchSize: 1, pollingIntervalSeconds: opts.pollSeconds ?? 1 }, async ([job]) => {
        if (!job) return;
        // The crawl handler records a crawl that threw on the account's run and rethrows: pg-boss
        // then fails the job and retries it (CAMPUSWATCH_JOB_RETRIES).
        const crawl = crawlHandler(services, { around: (_job, run) => exclusively(job, run), log: (m) => log(`job ${job.id}: ${m}`) });
        const r = await crawl(job.data);
        if (isSkipped(r)) log(`job ${job.id}: account ${job.data.accountId} skipped: ${r.skipped}`);
        else log(`job ${job.id}: account ${r.accountId} ${r.status}: ${r.newPosts} new, ${r.changedPosts} changed, ${r.errors.length} errors`);
        return isSkipped(r) ? r : { runId: r.runId, status: r.status, newPosts: r.newPosts };
      }),
    );
  }

  /** Heartbeat, then fail the jobs of workers whose heartbeat stopped. */
  const beat = async () => {
    const alive = await db.$executeRaw`
      UPDATE "CrawlWorker" SET "heartbeatAt" = now() AT TIME ZONE 'UTC' WHERE "id" = ${id} AND "status" = 'running'`;
    if (alive === 0 && !stopping) {
      // Others declared us dead (we stalled longer than the timeout) and our jobs are being
      // retried elsewhere: stop crawling at once rather than race the retries.
      log("this worker was declared dead by another (heartbeat too late); stopping");
      void stop(1).catch((e: unknown) => log(`stopping failed: ${reasonOf(e)}`));
      return;
    }
    const dead = await db.$queryRaw<{ id: string }[]>`
      UPDATE "CrawlWorker" SET "status" = 'dead', "stoppedAt" = now() AT TIME ZONE 'UTC'
      WHERE "status" = 'running' AND "heartbeatAt" < (now() AT TIME ZONE 'UTC') - ${deadAfterMs} * interval '1 millisecond'
      RETURNING "id"`;
    for (const w of dead) {
      const jobs = await db.workerJob.findMany({ where: { workerId: w.id } });
      if (jobs.length)
        await boss.fail(
          CRAWL_QUEUE,
          jobs.map((j) => j.jobId),
        );
      await db.workerJob.deleteMany({ where: { workerId: w.id } });
      log(`worker ${w.id} stopped answering; ${jobs.length} of its jobs failed for retry`);
    }
    // Jobs with a row whose process died: queued again or failed (their own heartbeat says so).
    // Then hand queued ones to pg-boss, so the dashboard's jobs run even with no scheduler up.
    await reapDeadJobs(db, { deadAfterMs, alive: runner.active(), log });
    await dispatchQueuedJobs(db, async (item) => (await boss.send(JOB_QUEUE, item)) !== null);
    // A worker that died between claiming a job and listing it in "WorkerJob" leaves an active
    // job nobody owns: fail those too once they are older than the timeout.
    const orphans = await db.$queryRaw<{ id: string }[]>`
      SELECT j.id::text AS id FROM pgboss.job j
      WHERE j.name = ${CRAWL_QUEUE} AND j.state = 'active' AND j.started_on < now() - ${deadAfterMs} * interval '1 millisecond'
        AND NOT EXISTS (SELECT 1 FROM "WorkerJob" w WHERE w."jobId" = j.id::text)`;
    if (orphans.length) {
      await boss.fail(
        CRAWL_QUEUE,
        orphans.map((o) => o.id),
      );
      log(`${orphans.length} claimed jobs had no live worker; failed for retry`);
    }
  };
  // A heartbeat that fires late means this process's event loop was blocked (long synchronous
  // work, or a starved machine). Said in the log: enough of it gets a live worker declared dead.
  let lastTick = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    const lateMs = Math.round(now - lastTick - heartbeatMs);
    lastTick = now;
    if (lateMs > deadAfterMs / 4) log(`heartbeat ${lateMs} ms late: the event loop was blocked (a worker silent for ${deadAfterMs} ms is declared dead)`);
    beat().catch((e: unknown) => log(`heartbeat failed: ${(e as Error).message}`));
  }, heartbeatMs);
  log(`worker ${id} on ${os.hostname()} pid ${process.pid}: ${concurrency} jobs at once, queue "${CRAWL_QUEUE}"`);

  let resolveDone!: () => void;
  const done = new Promise<void>((r) => (resolveDone = r));
  let stopped: Promise<void> | undefined;
  const stop = (code = 0): Promise<void> =>
    (stopped ??= (async () => {
      stopping = true;
      clearInterval(timer);
      try {
        for (const w of workIds) await boss.offWork({ id: w }).catch(() => undefined);
        // Running crawls stop at their next page boundary; pg-boss then completes their jobs.
        abort.abort();
        await boss.stop({ graceful: true, wait: true, timeout: 60_000 }).catch(() => undefined);
        await services.flush();
        await db.$executeRaw`
          UPDATE "CrawlWorker" SET "status" = CASE WHEN "status" = 'running' THEN 'stopped' ELSE "status" END, "stoppedAt" = now() AT TIME ZONE 'UTC'
          WHERE "id" = ${id}`.catch(() => undefined);
        await hosts.close();
        await lockPool.end();
        await closeSharedBrowser();
      } finally {
        // Even when a clean-up step failed, the worker has stopped: `done` must resolve, or the
        // process would wait forever with nothing running.
        if (code) process.exitCode = code;
        log("stopped");
        resolveDone();
      }
    })());
  return { id, stop: () => stop(0), done, activeJobs: () => runner.active() };
}
