/**
 * The jobs layer (crawler/jobs/) on the test's database (SQLite, then PostgreSQL in the second
 * pass): asking queues one row per key; the scheduler hands rows to the in-process queue, whose
 * runner claims, reports progress and writes the outcome; a job whose process is killed is queued
 * again and finished, or failed with its reason after its last attempt — for every kind. The
 * pg-boss path is in test/integration/workers/jobs-pg.test.ts.
 */
import { spawn } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createJobRunner, reapDeadJobs, requestJob, type JobSpec } from "../../../crawler/jobs";
import { createCrawlQueue } from "../../../crawler/queue/crawl-jobs";
import { Scheduler } from "../../../crawler/scheduler";
import { createServices } from "../../../crawler/runtime";
import { createDiscoveryRun } from "../../../crawler/discover";
import type { Db } from "../../../lib/db";
import { createTestDb, type TestDb } from "../../support/db";
import { CAMPUS_SAMPLES } from "../../unit/classify/fixtures";
import { createTestTopic, startTestWeb } from "../discover/support";
import type { SyntheticWeb } from "../../support/synthetic-web";
import { sealChannelSecrets } from "../../../server/topic-channels";

const root = path.resolve(import.meta.dirname, "../../..");
let t: TestDb | undefined;
let web: SyntheticWeb | undefined;
let hook: http.Server | undefined;
afterEach(async () => {
  await t?.cleanup();
  await web?.close();
  await new Promise((r) => (hook ? hook.close(r) : r(undefined)));
  t = web = hook = undefined;
});

const until = async (what: string, check: () => Promise<boolean>, timeoutMs = 60_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

/** A topic with samples to train on and posts to re-score. */
async function examTopic(db: Db) {
  const topic = await db.topic.create({ data: { name: "考试", relevantLabels: JSON.stringify(["考试"]) } });
  await db.topicSample.createMany({ data: CAMPUS_SAMPLES.map((s) => ({ topicId: topic.id, text: s.text, label: s.label, source: "upload" })) });
  const account = await db.account.create({ data: { platform: "discuz", entryUrl: "https://bbs.example.edu.cn/forum-2-1.html", name: "校园论坛" } });
  for (let i = 0; i < 6; i++) {
    await db.post.create({
      data: {
        accountId: account.id,
        platformId: `p${i}`,
        url: `https://bbs.example.edu.cn/thread-${i}-1-1.html`,
        title: "",
        publishedAt: new Date(Date.UTC(2025, 5, 1 + i)),
        text: i % 2 ? `第${i}次模拟考试的成绩出来了` : `第${i}天食堂的早餐还是包子`,
        sha1: `sha${i}`,
      },
    });
  }
  return topic;
}

// The webhook receiver is on loopback: notifications reach internal addresses only when the
// operator lists them (lib/net/address.ts), here as an in-house receiver would be. Child processes
// the tests start inherit it.
const allowInternalBefore = process.env.CAMPUSWATCH_ALLOW_INTERNAL;
beforeAll(() => {
  process.env.CAMPUSWATCH_ALLOW_INTERNAL = "127.0.0.0/8";
});
afterAll(() => {
  if (allowInternalBefore === undefined) delete process.env.CAMPUSWATCH_ALLOW_INTERNAL;
  else process.env.CAMPUSWATCH_ALLOW_INTERNAL = allowInternalBefore;
});

/** A webhook receiver on loopback, and a notification waiting to go to it. */
async function pendingNotification(db: Db, topicId: number) {
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
  const target = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
  // Stored as the settings form stores it: sealed, bound to the topic's row.
  await db.topic.update({ where: { id: topicId }, data: sealChannelSecrets({ webhookUrl: target }, topicId) });
  const n = await db.notification.create({
    data: { topicId, channel: "webhook", target, payload: JSON.stringify({ topic: "考试", flags: [] }), status: "pending" },
  });
  return { n, received };
}

/** One job of each kind, ready to run. */
async function specs(db: Db): Promise<Record<"train" | "rescore" | "learn" | "notify" | "discover", JobSpec>> {
  const topic = await examTopic(db);
  await createJobRunner({ db }).run((await requestJob(db, { kind: "train", topicId: topic.id })).job.id);
  const { n } = await pendingNotification(db, topic.id);
  web = await startTestWeb({ articlesPerLabel: 40 });
  const discoveryTopic = await createTestTopic(db);
  const run = await createDiscoveryRun(db, {
    topic: discoveryTopic.id,
    seeds: { urls: [web.homeUrl(1)] },
    strategy: "bfs",
    maxPages: 8,
    options: { hostDelayMs: 0, trustedHosts: [...web.origins.sites, web.origins.farm].filter(Boolean) },
  });
  await db.discoveryRun.update({ where: { id: run.id }, data: { status: "queued" } });
  return {
    train: { kind: "train", topicId: topic.id },
    rescore: { kind: "rescore", topicId: topic.id },
    learn: { kind: "learn", topicId: topic.id },
    notify: { kind: "notify", notificationIds: [n.id] },
    discover: { kind: "discover", runId: run.id },
  };
}

/** Start job-child.ts on the job, wait until it froze mid-job, SIGKILL it. */
async function killMidJob(url: string, jobId: number): Promise<string> {
  const child = spawn(process.execPath, [path.join(root, "bin/tsx.mjs"), path.join(root, "test/support/job-child.ts"), String(jobId)], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: url },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stderr.on("data", (d: Buffer) => (err += d.toString()));
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("stalled")) resolve();
      else if (out.includes("finished")) reject(new Error(`the job finished before it could be killed: ${out}`));
    });
    void exited.then(() => reject(new Error(`job-child exited early: ${out} ${err}`)));
  });
  child.kill("SIGKILL");
  await exited;
  return out;
}

describe("asking for jobs", () => {
  it("one queued or running job per key, even for requests at the same instant", async () => {
    t = await createTestDb();
    const topic = await examTopic(t.db);
    const results = await Promise.all(Array.from({ length: 5 }, () => requestJob(t!.db, { kind: "train", topicId: topic.id })));
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(results.map((r) => r.job.id)).size).toBe(1);
    // Re-scoring the same topic shares the key: it waits for the training to be done.
    expect((await requestJob(t.db, { kind: "rescore", topicId: topic.id })).created).toBe(false);
    await expect(requestJob(t.db, { kind: "train", topicId: -1 })).rejects.toThrow();
  });

  it("the scheduler hands queued jobs of every kind to the in-process queue, which runs them", async () => {
    t = await createTestDb();
    const { db } = t;
    const s = await specs(db);
    const services = createServices({ db, hostDelayMs: 0 });
    const logs: string[] = [];
    const queue = createCrawlQueue(services, { concurrency: 2, log: (m) => logs.push(m) });
    const scheduler = new Scheduler({ db, queue, pollMs: 60_000, jobPollMs: 50, inProcess: true, aliveJobs: () => queue.runner.active() });
    await scheduler.start();
    try {
      const ids: number[] = [];
      for (const kind of ["rescore", "notify", "discover"] as const) ids.push((await requestJob(db, s[kind])).job.id);
      await until("every job finished", async () => (await db.job.count({ where: { id: { in: ids }, status: { in: ["done", "failed"] } } })) === ids.length);
      const rows = await db.job.findMany({ where: { id: { in: ids } }, orderBy: { id: "asc" } });
      expect(rows.map((r) => [r.kind, r.status, r.attempts, r.error])).toEqual([
        ["rescore", "done", 1, null],
        ["notify", "done", 1, null],
        ["discover", "done", 1, null],
      ]);
      expect(JSON.parse(rows[0]!.result!)).toMatchObject({ step: "rescored", values: { posts: 6 } });
      expect(JSON.parse(rows[1]!.result!)).toMatchObject({ step: "notified", values: { sent: 1, failed: 0 } });
      expect(JSON.parse(rows[2]!.result!)).toMatchObject({ step: "discovered", values: { status: "done", crawled: 8 } });
      expect(await db.notification.findFirstOrThrow()).toMatchObject({ status: "sent" });
    } finally {
      scheduler.stop();
      await queue.close();
      await services.flush();
    }
  });

  it("a failure is written on the job with its code, and not retried", async () => {
    t = await createTestDb();
    const topic = await t.db.topic.create({ data: { name: "空主题", relevantLabels: JSON.stringify(["考试"]) } });
    const { job } = await requestJob(t.db, { kind: "train", topicId: topic.id });
    const done = await createJobRunner({ db: t.db }).run(job.id);
    expect(done).toMatchObject({ status: "failed", attempts: 1, result: { step: "noSamples" }, error: expect.stringContaining("no training samples") });
    expect(await createJobRunner({ db: t.db }).run(job.id)).toBeNull();
  });
});

describe("a job whose process is killed", () => {
  for (const kind of ["train", "rescore", "notify", "discover"] as const) {
    it(`${kind}: queued again with the reason and finished by the next attempt; failed with the reason after the last`, async () => {
      t = await createTestDb();
      const { db } = t;
      const s = await specs(db);
      const { job } = await requestJob(db, s[kind], { maxAttempts: 2 });
      await killMidJob(t.url, job.id);
      const killed = await db.job.findUniqueOrThrow({ where: { id: job.id } });
      expect(killed).toMatchObject({ status: "running", attempts: 1 });

      // Another process notices the silence.
      const later = new Date(killed.heartbeatAt!.getTime() + 31_000);
      expect(await reapDeadJobs(db, { deadAfterMs: 30_000, now: later })).toEqual({ requeued: [job.id], failed: [] });
      expect(await db.job.findUniqueOrThrow({ where: { id: job.id } })).toMatchObject({
        status: "queued",
        owner: null,
        error: expect.stringMatching(/^attempt 1 of 2 stopped: the process running it \(.+:\d+:[0-9a-f]+\) stopped answering 31 s ago$/),
      });
      const second = await createJobRunner({ db }).run(job.id);
      expect(second).toMatchObject({ status: "done", attempts: 2 });
      if (kind === "discover")
        expect(await db.discoveryRun.findFirstOrThrow({ select: { status: true, crawled: true } })).toEqual({ status: "done", crawled: 8 });
      if (kind === "notify") expect(await db.notification.findFirstOrThrow()).toMatchObject({ status: "sent" });

      // The same death on the last attempt fails the job (and a discovery run it left running).
      const again = await requestJob(db, kind === "discover" ? ({ ...s.discover, force: true } as JobSpec) : s[kind], { maxAttempts: 1 });
      if (kind === "discover") await db.discoveryRun.updateMany({ data: { status: "queued", maxPages: 16 } });
      if (kind === "notify") await db.notification.updateMany({ data: { status: "pending" } });
      await killMidJob(t.url, again.job.id);
      const dead = await db.job.findUniqueOrThrow({ where: { id: again.job.id } });
      expect(await reapDeadJobs(db, { deadAfterMs: 30_000, now: new Date(dead.heartbeatAt!.getTime() + 60_000) })).toEqual({
        requeued: [],
        failed: [again.job.id],
      });
      const failed = await db.job.findUniqueOrThrow({ where: { id: again.job.id } });
      expect(failed).toMatchObject({ status: "failed", error: expect.stringMatching(/^attempt 1 of 1 stopped: .* stopped answering 60 s ago$/) });
      expect(JSON.parse(failed.result!)).toMatchObject({ step: "died", values: { attempts: 1 } });
      if (kind === "discover") expect(await db.discoveryRun.findFirstOrThrow()).toMatchObject({ status: "failed", note: failed.error });
    }, 120_000);
  }

  it("a job this process is running is alive, however late its heartbeat", async () => {
    t = await createTestDb();
    const topic = await examTopic(t.db);
    const { job } = await requestJob(t.db, { kind: "train", topicId: topic.id });
    await t.db.job.update({ where: { id: job.id }, data: { status: "running", owner: "me", heartbeatAt: new Date(0), attempts: 1 } });
    expect(await reapDeadJobs(t.db, { deadAfterMs: 1000, alive: new Set([job.id]) })).toEqual({ requeued: [], failed: [] });
    expect(await reapDeadJobs(t.db, { deadAfterMs: 1000 })).toEqual({ requeued: [job.id], failed: [] });
  });
});
