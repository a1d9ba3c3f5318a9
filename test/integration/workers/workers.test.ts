/**
 * Scale-out on PostgreSQL: three `campuswatch worker` processes claim crawl jobs from pg-boss;
 * one is killed (SIGKILL, no clean-up) in the middle of a crawl. Its job is retried by another
 * worker, every post is stored exactly once, no account is crawled by two workers at once, and
 * the one host every account lives on sees one polite crawler: one request at a time, at least
 * the delay apart, measured by the server.
 *
 * Runs when the suite runs on PostgreSQL (CAMPUSWATCH_TEST_DB=postgresql, as `npm test` does in
 * its second pass); workers do not exist on SQLite.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, onTestFailed } from "vitest";
import type PgBoss from "pg-boss";
import { BOSS_SCHEMA, CRAWL_QUEUE, createPgBossQueue, startBoss } from "../../../crawler/queue/pg-boss";
import { Scheduler } from "../../../crawler/scheduler";
import { crawlFixture, type CrawlFixture } from "../crawl/support";
import { testDbKind } from "../../support/pg";
import { createTestDb } from "../../support/db";
import { getWorkerOverview } from "../../../server/workers";

const root = path.resolve(import.meta.dirname, "../../..");
const DELAY_MS = 40;
const onPostgres = testDbKind() === "postgresql";
if (!onPostgres) console.log("skipping worker tests: they need the PostgreSQL pass (CAMPUSWATCH_TEST_DB=postgresql)");

/** Run the CLI as a user would, against the database at `url`. */
const cli = (args: string[], url: string) =>
  new Promise<{ code: number; out: string; err: string }>((resolve) =>
    execFile(process.execPath, [path.join(root, "bin/campuswatch.mjs"), ...args], { cwd: root, env: { ...process.env, DATABASE_URL: url } }, (e, out, err) =>
      resolve({ code: e ? Number(e.code ?? 1) : 0, out, err }),
    ),
  );

/** SIGTERM the workers still running and wait for them to exit. */
const stopWorkers = async (procs: ChildProcess[]) => {
  const running = procs.filter((w) => w.exitCode === null && w.signalCode === null);
  await Promise.all(running.map((w) => new Promise((r) => (w.once("exit", r), w.kill("SIGTERM")))));
};

const until = async (what: string, check: () => Promise<boolean> | boolean, { timeoutMs = 90_000, everyMs = 25 } = {}) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
};

describe.runIf(onPostgres)("crawl workers on PostgreSQL", () => {
  let f: CrawlFixture | undefined;
  let boss: PgBoss | undefined;
  const workers: ChildProcess[] = [];
  let dataDir = "";
  afterAll(async () => {
    await stopWorkers(workers);
    await boss?.stop({ graceful: false, wait: true });
    await f?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("three workers, one killed mid-crawl: every post once, its job retried, politeness held per host", async () => {
    // Workers crawl with the wall clock, so the site's clock follows it.
    f = await crawlFixture({
      seed: 77,
      now: new Date(),
      accounts: { weibo: 1, tieba: 2, discuz: 2, blog: 1 },
      postsPerAccount: 14,
      repliesPerPost: [0, 6],
      weiboDates: "rfc",
    });
    const fx = f;
    // Slow thread pages, so that the kill lands in the middle of a crawl.
    fx.site.fault((u) => u.searchParams.get("mod") === "viewthread" || u.pathname.startsWith("/p/"), { type: "slow", delayMs: 15 });
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-workers-"));
    onTestFailed(() => {
      for (let i = 0; i < 3; i++) {
        const file = path.join(dataDir, `worker-${i}.log`);
        if (fs.existsSync(file))
          console.log(`--- worker ${i} (pid ${workers[i]?.pid}) log:\n${fs.readFileSync(file, "utf8").split("\n").slice(-60).join("\n")}`);
      }
    });
    const env = {
      ...process.env,
      DATABASE_URL: fx.t.url,
      CAMPUSWATCH_DATA_DIR: dataDir,
      // Short, so the test does not wait long for the retry; but well above the event-loop stalls
      // a worker can have on a 2-core machine running the rest of the suite (a full CI run once
      // saw a live worker declared dead with 1.5 s).
      CAMPUSWATCH_WORKER_HEARTBEAT_MS: "400",
      CAMPUSWATCH_WORKER_DEAD_MS: "6000",
      CAMPUSWATCH_JOB_RETRY_DELAY_S: "0",
    };
    // Each worker's output goes to a file: an unread pipe would block a worker once it filled
    // (writes to pipes are synchronous on Linux), and the files tell what happened on failure.
    for (let i = 0; i < 3; i++) {
      const out = fs.openSync(path.join(dataDir, `worker-${i}.log`), "w");
      workers.push(
        spawn(process.execPath, [path.join(root, "bin/campuswatch.mjs"), "worker", "--concurrency", "2", "--host-delay-ms", String(DELAY_MS)], {
          cwd: root,
          env,
          stdio: ["ignore", out, out],
        }),
      );
      fs.closeSync(out);
    }
    const db = fx.t.db;
    await until("three workers registered", async () => (await db.crawlWorker.count({ where: { status: "running" } })) === 3);

    boss = await startBoss(fx.t.url, { name: "campuswatch test" });
    const queue = createPgBossQueue(boss);
    for (const id of fx.ids.values()) expect(await queue.enqueue({ accountId: id, trigger: "manual" })).toBe(true);

    // Kill a worker once it has been crawling an account for a while (a few of its item pages served).
    let victim: { workerId: string; pid: number; accountId: number } | undefined;
    await until("a worker in the middle of a crawl", async () => {
      const jobs = await db.workerJob.findMany({ include: { worker: true } });
      for (const j of jobs) {
        const key = [...fx.ids].find(([, id]) => id === j.accountId)![0];
        if (fx.site.requests({ kind: "item" }).filter((r) => r.accountKey === key).length >= 3) {
          victim = { workerId: j.workerId, pid: j.worker.pid, accountId: j.accountId };
          return true;
        }
      }
      return false;
    });
    const killedAt = Date.now();
    const proc = workers.find((w) => w.pid === victim!.pid)!;
    proc.kill("SIGKILL");
    await new Promise((r) => proc.once("exit", r));
    const victimKey = [...fx.ids].find(([, id]) => id === victim!.accountId)![0];
    const partial = await fx.stored(victimKey);
    expect(partial.size).toBeLessThan(fx.expected(victimKey).size);

    // Polled gently: this process is also the platform server whose clock measures politeness.
    await until(
      "the queue to drain",
      async () => {
        const { rows } = await boss!
          .getDb()
          .executeSql(`SELECT count(*)::int AS n FROM ${BOSS_SCHEMA}.job WHERE name = $1 AND state < 'completed'`, [CRAWL_QUEUE]);
        return (rows as { n: number }[])[0]?.n === 0;
      },
      { everyMs: 250 },
    );

    // The other two workers are still up (a worker that exits on its own would be declared dead
    // too; its log is printed when this fails).
    expect(workers.filter((w) => w !== proc).map((w) => w.exitCode ?? w.signalCode)).toEqual([null, null]);
    // The killed worker was noticed and its job retried by another, to completion.
    expect(await db.crawlWorker.findUnique({ where: { id: victim!.workerId } })).toMatchObject({ status: "dead" });
    const { rows: jobs } = await boss
      .getDb()
      .executeSql(`SELECT singleton_key, state, retry_count FROM ${BOSS_SCHEMA}.job WHERE name = $1 ORDER BY singleton_key`, [CRAWL_QUEUE]);
    const jobRows = jobs as { singleton_key: string; state: string; retry_count: number }[];
    expect(jobRows.every((j) => j.state === "completed")).toBe(true);
    expect(jobRows.find((j) => Number(j.singleton_key) === victim!.accountId)!.retry_count).toBeGreaterThanOrEqual(1);

    // What the dashboard's Workers page shows: two live workers, the dead one, an empty queue,
    // and the retried job.
    const overview = await getWorkerOverview(db);
    if (overview.dialect !== "postgresql") throw new Error("expected the PostgreSQL overview");
    expect(overview.workers.map((w) => w.status).sort()).toEqual(["dead", "running", "running"]);
    expect(overview.queue).toMatchObject({ waiting: 0, active: 0, completedLastHour: fx.ids.size });
    expect(overview.recentJobs.find((j) => j.accountId === victim!.accountId)).toMatchObject({ state: "completed", accountName: expect.any(String) });
    expect(overview.recentJobs.find((j) => j.accountId === victim!.accountId)!.retryCount).toBeGreaterThanOrEqual(1);

    // Every post and reply of every account stored exactly once, with its text, as version 1.
    let total = 0;
    for (const key of fx.ids.keys()) {
      const stored = await fx.stored(key);
      const expected = fx.expected(key);
      expect([...stored.keys()].sort(), key).toEqual([...expected.keys()].sort());
      for (const [id, row] of stored) {
        expect(row.version, `${key} ${id}`).toBe(1);
        expect(row.text, `${key} ${id}`).toBe(expected.get(id)!.text);
      }
      total += expected.size;
    }
    expect(await db.post.count()).toBe(total);
    expect(await db.postVersion.count()).toBe(0);

    // Runs: the killed one closed as interrupted, then one ok run per account; no two runs of
    // one account ever overlapped in time.
    const runs = await db.crawlRun.findMany({ orderBy: { id: "asc" } });
    for (const id of fx.ids.values()) {
      const mine = runs.filter((r) => r.accountId === id && r.status !== "skipped");
      expect(mine.at(-1)!.status, `account ${id}`).toBe("ok");
      for (let i = 1; i < mine.length; i++) expect(mine[i]!.startedAt.getTime()).toBeGreaterThanOrEqual(mine[i - 1]!.finishedAt!.getTime());
    }
    expect(runs.filter((r) => r.accountId === victim!.accountId).map((r) => r.status)).toEqual(["failed", "ok"]);
    expect(runs.find((r) => r.accountId === victim!.accountId)!.note).toMatch(/interrupted/);

    // Politeness, as the host saw it, across all three workers. The request the killed worker had
    // in flight is the host's own business (the server finished it for a dead client, and its end
    // was never recorded): it is left out, with the gap that follows it.
    const log = fx.site.requests();
    const orphan = (r: (typeof log)[number]) => r.accountKey === victimKey && r.startedMs <= killedAt && (r.endedMs ?? Infinity) >= killedAt;
    const sorted = log.filter((r) => !orphan(r)).sort((a, b) => a.startedMs - b.startedMs);
    expect(sorted.length).toBeGreaterThan(60);
    expect(new Set(sorted.map((r) => r.accountKey).filter(Boolean)).size).toBe(fx.ids.size);
    const gaps = sorted.slice(1).map((r, i) => ({ gap: r.startedMs - sorted[i]!.endedMs!, at: `${sorted[i]!.url} → ${r.url}` }));
    const median = [...gaps].sort((a, b) => a.gap - b.gap)[gaps.length >> 1]!.gap;
    console.log(`politeness on the host: ${gaps.length} gaps, min ${Math.min(...gaps.map((g) => g.gap))} ms, median ${median} ms, delay ${DELAY_MS} ms`);
    // Never two requests at once, and every gap well apart. The server stamps a request's end
    // when its answer is handed to the OS; on a 2-core machine busy with the rest of the suite
    // (three workers, PostgreSQL, other test files) that stamp can still come some milliseconds
    // after the worker read the response and started timing the delay from the database's
    // clock. So single gaps get half the delay as slack (a stamp, not a measurement of speed),
    // while the typical gap must be the full delay. Without shared politeness the gaps are
    // ~0 ms and requests overlap.
    for (const { gap, at } of gaps) expect(gap, at).toBeGreaterThanOrEqual(DELAY_MS / 2);
    expect(median).toBeGreaterThanOrEqual(DELAY_MS);
  }, 180_000);

  it("the scheduler only enqueues: crawl-now requests become pg-boss jobs, one waiting per account", async () => {
    const fx = f!;
    const queue = createPgBossQueue(boss!);
    const scheduler = new Scheduler({ db: fx.t.db, queue, pollMs: 60_000 });
    const ids = [...fx.ids.values()];
    const before = await fx.t.db.crawlRun.count();
    // Stop the workers first, so the jobs stay queued where the test can see them.
    await stopWorkers(workers);
    expect(await fx.t.db.crawlWorker.count({ where: { status: "running" } })).toBe(0);

    await fx.t.db.account.updateMany({ data: { crawlRequestedAt: new Date() } });
    await scheduler.refresh();
    scheduler.stop();
    const { rows } = await boss!.getDb().executeSql(`SELECT singleton_key FROM ${BOSS_SCHEMA}.job WHERE name = $1 AND state = 'created'`, [CRAWL_QUEUE]);
    expect(rows.map((r: { singleton_key: string }) => Number(r.singleton_key)).sort((a: number, b: number) => a - b)).toEqual(ids.sort((a, b) => a - b));
    // Nothing crawled here: the scheduler process does not run jobs.
    expect(await fx.t.db.crawlRun.count()).toBe(before);
    // A second request while one is waiting is refused and recorded as a skipped tick.
    expect(await scheduler.submit({ accountId: ids[0]!, trigger: "manual" })).toBe(false);
    expect(await fx.t.db.crawlRun.count({ where: { status: "skipped" } })).toBeGreaterThanOrEqual(1);
    // So is `campuswatch crawl enqueue`, which says so.
    const out = await cli(["crawl", "enqueue"], fx.t.url);
    expect(out).toMatchObject({ code: 0, out: `queued 0 of ${ids.length} accounts (the others already have a crawl waiting)\n` });
  });
});

describe.runIf(!onPostgres)("crawl workers on SQLite", () => {
  it("the Workers page says crawls run in-process and lists the running ones", async () => {
    const t = await createTestDb();
    try {
      const a = await t.db.account.create({
        data: { name: "板块", platform: "discuz", entryUrl: "http://127.0.0.1:9/bbs/forum.php?mod=forumdisplay&fid=2", cron: "*/10 * * * *" },
      });
      await t.db.crawlRun.create({ data: { accountId: a.id, trigger: "manual", status: "running", startedAt: new Date() } });
      const overview = await getWorkerOverview(t.db);
      expect(overview).toMatchObject({ dialect: "sqlite", running: [{ accountId: a.id, accountName: "板块" }] });
    } finally {
      await t.cleanup();
    }
  });

  it("are refused with a message pointing to PostgreSQL, and so is crawl enqueue", async () => {
    const t = await createTestDb();
    try {
      const worker = await cli(["worker"], t.url);
      expect(worker.code).toBe(1);
      expect(worker.err).toMatch(/workers need PostgreSQL/);
      const enqueue = await cli(["crawl", "enqueue"], t.url);
      expect(enqueue.code).toBe(1);
      expect(enqueue.err).toMatch(/crawl enqueue needs PostgreSQL/);
    } finally {
      await t.cleanup();
    }
  });
});
