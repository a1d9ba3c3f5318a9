/**
 * Every background task is a job (issue 31 item 3), on the test's database (SQLite, then
 * PostgreSQL in the second pass):
 * - the CLI's `topics train`, `topics feedback` and `discover` create their Job row and run it in
 *   their own process, so a dashboard job of the same topic refuses them, and `jobs list` shows them;
 * - a crawl that throws is recorded once, by the crawl handler, whether the scheduler's queue, the
 *   CLI's `crawl once` or a pg-boss worker started it;
 * - a run's notifications, the start-up catch-up classification and the archive's retention are
 *   jobs with rows, and their failures are written on them.
 * The CLI runs as a user runs it (dist/, a child process).
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type PgBoss from "pg-boss";
import { createJobRunner, jobHandlers, requestCatchUp, type JobHandlers } from "../../../crawler/jobs";
import { createCrawlQueue } from "../../../crawler/queue/crawl-jobs";
import { Scheduler } from "../../../crawler/scheduler";
import { createServices } from "../../../crawler/runtime";
import { requestTopicJob } from "../../../server/jobs";
import type { Db } from "../../../lib/db";
import { createTestDb, type TestDb } from "../../support/db";
import { runCli } from "../../support/cli";
import { testDbKind } from "../../support/pg";
import { createTopicWithChannels } from "../../support/topics";
import { CAMPUS_SAMPLES } from "../../unit/classify/fixtures";

let t: TestDb | undefined;
let dir: string | undefined;
let hook: http.Server | undefined;
afterEach(async () => {
  await t?.cleanup();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  await new Promise((r) => (hook ? hook.close(r) : r(undefined)));
  t = dir = hook = undefined;
});

// Notifications go to a receiver on loopback: allowed as an operator would allow an in-house one.
const allowInternalBefore = process.env.CAMPUSWATCH_ALLOW_INTERNAL;
beforeAll(() => {
  process.env.CAMPUSWATCH_ALLOW_INTERNAL = "127.0.0.0/8";
});
afterAll(() => {
  if (allowInternalBefore === undefined) delete process.env.CAMPUSWATCH_ALLOW_INTERNAL;
  else process.env.CAMPUSWATCH_ALLOW_INTERNAL = allowInternalBefore;
});

const until = async (what: string, check: () => Promise<boolean>, timeoutMs = 60_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

/** A fresh database and a folder for the CLI (its data directory, sample files). */
async function setUp() {
  t = await createTestDb();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-bg-jobs-"));
  const env = { ...process.env, DATABASE_URL: t.url, CAMPUSWATCH_DATA_DIR: path.join(dir, "data") };
  const cli = (...args: string[]) => runCli(args, { cwd: dir!, env });
  return { db: t.db, dir, env, cli };
}

/** A topic with stored samples (what a dashboard training trains on). */
async function examTopic(db: Db) {
  const topic = await db.topic.create({ data: { name: "考试", relevantLabels: JSON.stringify(["考试"]) } });
  await db.topicSample.createMany({ data: CAMPUS_SAMPLES.map((s) => ({ topicId: topic.id, text: s.text, label: s.label, source: "upload" })) });
  return topic;
}

/** An account whose crawl throws before it reads a page: its entry URL is not a URL (a row written by hand). */
async function brokenAccount(db: Db) {
  return db.account.create({ data: { platform: "blog", entryUrl: "http://exa mple/", name: "坏账号", addressClass: "internal" } });
}

describe("the CLI's jobs", () => {
  it("topics train is refused while the dashboard's training of the topic runs; afterwards it runs as a job that jobs list shows", async () => {
    const { db, cli } = await setUp();
    const topic = await examTopic(db);
    const user = await db.user.create({ data: { username: "admin", passwordHash: "x", role: "admin" } });
    const samples = path.join(dir!, "samples.jsonl");
    fs.writeFileSync(samples, CAMPUS_SAMPLES.map((s) => JSON.stringify({ label: s.label, text: s.text })).join("\n"));

    // The dashboard's Train button, and a worker that has claimed the job and is training.
    const { job: dashboard } = await requestTopicJob(db, topic.id, "train", user.id);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const handlers: JobHandlers = { ...jobHandlers, train: async (ctx, spec) => (await held, jobHandlers.train(ctx, spec)) };
    const running = createJobRunner({ db, handlers }).run(dashboard.id);
    await until("the dashboard's job running", async () => (await db.job.findUniqueOrThrow({ where: { id: dashboard.id } })).status === "running");

    const refused = await cli("topics", "train", topic.name, "--data", samples);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain(
      `topic "考试" already has a train job running (job ${dashboard.id}, asked for from the dashboard): run this again when it has finished (campuswatch jobs show ${dashboard.id})`,
    );
    expect(await db.job.count()).toBe(1);
    // Feedback of the same topic is refused too, and stores nothing.
    const reviews = path.join(dir!, "reviews.jsonl");
    fs.writeFileSync(
      reviews,
      [JSON.stringify({ text: "期末考试延期到下周", label: "考试" }), JSON.stringify({ text: "食堂今天有包子", label: "off-topic" })].join("\n"),
    );
    const refusedFeedback = await cli("topics", "feedback", topic.name, "--data", reviews);
    expect(refusedFeedback.code).toBe(1);
    expect(refusedFeedback.err).toContain(`already has a train job running (job ${dashboard.id}`);
    expect(await db.topicSample.count({ where: { topicId: topic.id, source: "review" } })).toBe(0);

    release();
    expect(await running).toMatchObject({ status: "done" });
    const trained = await cli("topics", "train", topic.name, "--data", samples);
    expect(trained.err).not.toContain("campuswatch:");
    expect(trained.code).toBe(0);
    expect(trained.out).toMatch(/trained topic "考试" model v2 on \d+ samples/);
    const fed = await cli("topics", "feedback", topic.name, "--data", reviews);
    expect(fed.code).toBe(0);
    expect(fed.out).toContain('stored 2 reviews of topic "考试": 1 relevant, 1 irrelevant');

    const rows = await db.job.findMany({ orderBy: { id: "asc" } });
    expect(rows.map((r) => [r.kind, r.key, r.status, r.requestedBy, r.attempts, r.maxAttempts])).toEqual([
      ["train", `topic:${topic.id}`, "done", user.id, 1, 3],
      ["train", `topic:${topic.id}`, "done", null, 1, 1],
      ["learn", `topic:${topic.id}`, "done", null, 1, 1],
    ]);
    const list = await cli("jobs", "list");
    expect(list.code).toBe(0);
    const lines = list.out.trim().split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(new RegExp(`^${rows[2]!.id}\\tlearn\\ttopic:${topic.id}\\tdone\\tattempt 1/1\\t`));
    expect(lines[1]).toMatch(new RegExp(`^${rows[1]!.id}\\ttrain\\ttopic:${topic.id}\\tdone\\tattempt 1/1\\t.*model v2 trained on \\d+ samples`));
    // The CLI's job was run by the CLI's process, not by a scheduler.
    const shown = JSON.parse((await cli("jobs", "show", String(rows[1]!.id))).out) as { owner: string; requestedBy: number | null };
    expect(shown).toMatchObject({ requestedBy: null, owner: expect.stringMatching(new RegExp(`^${os.hostname()}:\\d+:[0-9a-f]+$`)) });
  }, 180_000);
});

describe("a crawl that throws is recorded once, by the crawl handler", () => {
  /** The account's runs: exactly one, failed, saying why. */
  async function expectOneCrash(db: Db, accountId: number) {
    const runs = await db.crawlRun.findMany({ where: { accountId } });
    expect(runs).toEqual([expect.objectContaining({ status: "failed", errorCount: 1, note: expect.stringMatching(/^crashed: trusted host .* is neither/) })]);
    expect(await db.account.findUniqueOrThrow({ where: { id: accountId } })).toMatchObject({ status: "error", lastError: runs[0]!.note });
  }

  it("started by the scheduler's in-process queue", async () => {
    const { db } = await setUp();
    const account = await brokenAccount(db);
    const services = createServices({ db, hostDelayMs: 0 });
    const logs: string[] = [];
    const queue = createCrawlQueue(services, { concurrency: 1, log: (m) => logs.push(m) });
    const scheduler = new Scheduler({ db, queue, pollMs: 60_000, catchUp: false });
    try {
      expect(await scheduler.submit({ accountId: account.id, trigger: "manual" })).toBe(true);
      await queue.onIdle();
    } finally {
      scheduler.stop();
      await queue.close();
    }
    await expectOneCrash(db, account.id);
    expect(logs.filter((l) => l.includes("crashed"))).toEqual([expect.stringMatching(new RegExp(`^account ${account.id} crashed: trusted host`))]);
  });

  it("started by crawl once", async () => {
    const { db, cli } = await setUp();
    const account = await brokenAccount(db);
    const r = await cli("crawl", "once", "--account", String(account.id), "--quiet");
    expect(r.code).toBe(1);
    expect(r.err.match(/crashed/g)).toHaveLength(1);
    await expectOneCrash(db, account.id);
  }, 60_000);

  it.runIf(testDbKind() === "postgresql")(
    "started by a pg-boss worker (no retries)",
    async () => {
      const { db } = await setUp();
      const account = await brokenAccount(db);
      const retriesBefore = process.env.CAMPUSWATCH_JOB_RETRIES;
      process.env.CAMPUSWATCH_JOB_RETRIES = "0";
      const [{ startBoss, createPgBossQueue }, { startWorker }] = await Promise.all([
        import("../../../crawler/queue/pg-boss"),
        import("../../../crawler/queue/pg-worker"),
      ]);
      let boss: PgBoss | undefined;
      const worker = await startWorker({ db, url: t!.url, heartbeatMs: 200, deadAfterMs: 5000, pollSeconds: 0.5, log: () => undefined });
      try {
        boss = await startBoss(t!.url, { name: "test sender", supervise: false });
        expect(await createPgBossQueue(boss).enqueue({ accountId: account.id, trigger: "manual" })).toBe(true);
        await until("the failed pg-boss job", async () => {
          const { rows } = await boss!.getDb().executeSql(`SELECT state FROM pgboss.job WHERE name = 'crawl'`, []);
          return (rows as { state: string }[]).some((j) => j.state === "failed");
        });
      } finally {
        await worker.stop();
        await boss?.stop({ graceful: false, wait: true });
        if (retriesBefore === undefined) delete process.env.CAMPUSWATCH_JOB_RETRIES;
        else process.env.CAMPUSWATCH_JOB_RETRIES = retriesBefore;
      }
      await expectOneCrash(db, account.id);
    },
    120_000,
  );
});

describe("housekeeping is jobs", () => {
  it("the scheduler asks for the catch-up classification and the archive's retention, and its queue runs them", async () => {
    const { db, dir: folder } = await setUp();
    const dataBefore = process.env.CAMPUSWATCH_DATA_DIR;
    process.env.CAMPUSWATCH_DATA_DIR = path.join(folder, "data");
    // One archived page older than the retention (90 days), one fresh.
    const accountDir = path.join(folder, "data", "archive", "1");
    fs.mkdirSync(accountDir, { recursive: true });
    const old = path.join(accountDir, "old.json.gz");
    fs.writeFileSync(old, "x");
    fs.utimesSync(old, new Date(Date.now() - 200 * 86_400_000), new Date(Date.now() - 200 * 86_400_000));
    fs.writeFileSync(path.join(accountDir, "new.json.gz"), "y");
    // A post a killed run stored and never classified.
    const topic = await db.topic.create({ data: { name: "食堂", keywords: JSON.stringify(["包子"]) } });
    const account = await db.account.create({ data: { platform: "blog", entryUrl: "http://127.0.0.1:9/blog/", name: "博客" } });
    const post = await db.post.create({
      data: {
        accountId: account.id,
        platformId: "1",
        url: "http://127.0.0.1:9/blog/1",
        title: "",
        text: "食堂今天有包子",
        publishedAt: new Date(Date.UTC(2026, 0, 1)),
        sha1: "a",
      },
    });
    await db.unclassifiedPost.create({ data: { postId: post.id, queuedAt: new Date(Date.now() - 60_000) } });

    const services = createServices({ db, hostDelayMs: 0 });
    const queue = createCrawlQueue(services, { concurrency: 2, log: () => undefined });
    const scheduler = new Scheduler({
      db,
      queue,
      pollMs: 60_000,
      jobPollMs: 50,
      inProcess: true,
      aliveJobs: () => queue.runner.active(),
      archivePruneCron: "0 * * * *",
    });
    try {
      await scheduler.start();
      await until("both jobs finished", async () => (await db.job.count({ where: { status: { in: ["done", "failed"] } } })) === 2);
    } finally {
      scheduler.stop();
      await queue.close();
      await services.flush();
      if (dataBefore === undefined) delete process.env.CAMPUSWATCH_DATA_DIR;
      else process.env.CAMPUSWATCH_DATA_DIR = dataBefore;
    }
    const rows = await db.job.findMany({ orderBy: { id: "asc" } });
    expect(rows.map((r) => [r.kind, r.key, r.status, r.error])).toEqual([
      ["catchUp", "classify:pending", "done", null],
      ["pruneArchive", "archive:prune", "done", null],
    ]);
    expect(JSON.parse(rows[0]!.result!)).toMatchObject({ step: "caughtUp", values: { posts: 1 } });
    expect(JSON.parse(rows[1]!.result!)).toMatchObject({ step: "pruned", values: { files: 1 } });
    expect(fs.readdirSync(accountDir)).toEqual(["new.json.gz"]);
    expect(await db.unclassifiedPost.count()).toBe(0);
    expect(await db.flag.count({ where: { topicId: topic.id, postId: post.id } })).toBe(1);
  }, 60_000);

  it("a catch-up that fails is failed on its row with the reason; the posts stay queued", async () => {
    const { db } = await setUp();
    await db.topic.create({ data: { name: "考试", keywords: JSON.stringify(["考试"]) } });
    const account = await db.account.create({ data: { platform: "blog", entryUrl: "http://127.0.0.1:9/blog/", name: "博客" } });
    const post = await db.post.create({
      data: {
        accountId: account.id,
        platformId: "1",
        url: "http://127.0.0.1:9/blog/1",
        title: "",
        text: "期末考试",
        publishedAt: new Date(Date.UTC(2026, 0, 1)),
        sha1: "a",
      },
    });
    await db.unclassifiedPost.create({ data: { postId: post.id, queuedAt: new Date(Date.now() - 60_000) } });
    // The flag cannot be written: its table is gone (a real database refusal, as after a botched migration).
    await db.$executeRawUnsafe(`ALTER TABLE "Flag" RENAME TO "FlagGone"`);
    const { job } = await requestCatchUp(db);
    const done = await createJobRunner({ db }).run(job.id);
    expect(done).toMatchObject({ kind: "catchUp", status: "failed", attempts: 1, error: expect.any(String) });
    expect(done!.error).toMatch(/Flag/);
    expect(await db.unclassifiedPost.count()).toBe(1);
  });

  it("a crawl run that opened flags asks for a notifyRun job, which sends them", async () => {
    const { db } = await setUp();
    const received: string[] = [];
    hook = http.createServer((req, res) => {
      let body = "";
      req.on("data", (d: Buffer) => (body += d.toString()));
      req.on("end", () => {
        received.push(body);
        res.end("ok");
      });
    });
    await new Promise<void>((r) => hook!.listen(0, "127.0.0.1", r));
    // Stored as the settings form stores it: the robot URL sealed (a plaintext URL is refused at send time).
    const topic = await createTopicWithChannels(db, { name: "考试" }, { webhookUrl: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook` });
    const account = await db.account.create({ data: { platform: "blog", entryUrl: "http://127.0.0.1:9/blog/", name: "博客" } });
    const started = new Date(Date.now() - 10_000);
    const run = await db.crawlRun.create({ data: { accountId: account.id, status: "ok", startedAt: started, finishedAt: new Date(Date.now() + 1000) } });
    const post = await db.post.create({
      data: {
        accountId: account.id,
        platformId: "1",
        url: "http://127.0.0.1:9/blog/1",
        title: "",
        text: "期末考试延期",
        publishedAt: new Date(Date.UTC(2026, 0, 1)),
        sha1: "a",
      },
    });
    // A run with nothing new asks for nothing.
    const services = createServices({ db, hostDelayMs: 0 });
    await services.notify!(db, run.id);
    expect(await db.job.count()).toBe(0);
    await db.flag.create({ data: { postId: post.id, topicId: topic.id, reasons: "[]", score: 0.9 } });
    await services.notify!(db, run.id);
    await services.notify!(db, run.id);
    const rows = await db.job.findMany();
    expect(rows.map((r) => [r.kind, r.key, r.status])).toEqual([["notifyRun", `notify:run:${run.id}`, "queued"]]);
    const done = await createJobRunner({ db }).run(rows[0]!.id);
    expect(done).toMatchObject({ status: "done", result: { step: "notified", values: { notifications: 1, sent: 1, failed: 0 } } });
    expect(received).toHaveLength(1);
  });
});
