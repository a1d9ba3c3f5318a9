/**
 * The jobs with a row on PostgreSQL go through pg-boss: the scheduler (or, with none running, a
 * worker's heartbeat) hands queued rows to the "job" queue and a worker runs them; a job whose
 * process was killed is reaped by the worker and run again. The same jobs on the in-process
 * queue: test/integration/jobs/jobs.test.ts.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type PgBoss from "pg-boss";
import { requestJob } from "../../../crawler/jobs";
import { createPgBossQueue, startBoss } from "../../../crawler/queue/pg-boss";
import { startWorker, type RunningWorker } from "../../../crawler/queue/pg-worker";
import { Scheduler } from "../../../crawler/scheduler";
import { testDbKind } from "../../support/pg";
import { createTestDb, type TestDb } from "../../support/db";
import { CAMPUS_SAMPLES } from "../../unit/classify/fixtures";

const root = path.resolve(import.meta.dirname, "../../..");
const onPostgres = testDbKind() === "postgresql";
if (!onPostgres) console.log("skipping pg-boss job tests: they need the PostgreSQL pass (CAMPUSWATCH_TEST_DB=postgresql)");

const until = async (what: string, check: () => Promise<boolean>, timeoutMs = 60_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
};

describe.runIf(onPostgres)("jobs on pg-boss workers", () => {
  let t: TestDb | undefined;
  let worker: RunningWorker | undefined;
  let boss: PgBoss | undefined;
  let scheduler: Scheduler | undefined;
  afterEach(async () => {
    scheduler?.stop();
    await worker?.stop();
    await boss?.stop({ graceful: false, wait: true });
    await t?.cleanup();
    t = worker = boss = scheduler = undefined;
  });

  async function examTopic() {
    const topic = await t!.db.topic.create({ data: { name: "考试", relevantLabels: JSON.stringify(["考试"]) } });
    await t!.db.topicSample.createMany({ data: CAMPUS_SAMPLES.map((s) => ({ topicId: topic.id, text: s.text, label: s.label, source: "upload" })) });
    return topic;
  }

  it("the scheduler hands a queued training to pg-boss; a worker trains", async () => {
    t = await createTestDb();
    const topic = await examTopic();
    boss = await startBoss(t.url, { name: "test scheduler" });
    scheduler = new Scheduler({ db: t.db, queue: createPgBossQueue(boss), pollMs: 60_000, jobPollMs: 100 });
    await scheduler.start();
    worker = await startWorker({ db: t.db, url: t.url, heartbeatMs: 200, deadAfterMs: 5000, pollSeconds: 0.5, log: () => undefined });
    const { job } = await requestJob(t.db, { kind: "train", topicId: topic.id });
    await until("the training", async () => (await t!.db.job.findUniqueOrThrow({ where: { id: job.id } })).status === "done");
    const row = await t.db.job.findUniqueOrThrow({ where: { id: job.id } });
    expect(row).toMatchObject({ owner: worker.id, attempts: 1, error: null });
    expect(JSON.parse(row.result!)).toMatchObject({ step: "trained", values: { version: 1 } });
    expect(await t.db.topic.findUniqueOrThrow({ where: { id: topic.id }, select: { modelVersion: true } })).toEqual({ modelVersion: 1 });
  });

  it("with no scheduler: a job killed mid-way is reaped by a worker, handed to pg-boss again and finished", async () => {
    t = await createTestDb();
    const topic = await examTopic();
    const { job } = await requestJob(t.db, { kind: "train", topicId: topic.id });
    const child = spawn(process.execPath, [path.join(root, "bin/tsx.mjs"), path.join(root, "test/support/job-child.ts"), String(job.id)], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: t.url },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (d: Buffer) => ((out += d.toString()), out.includes("stalled") && resolve()));
      child.once("exit", () => reject(new Error(`job-child exited early: ${out}`)));
    });
    child.kill("SIGKILL");
    await new Promise((r) => child.once("exit", r));
    expect(await t.db.job.findUniqueOrThrow({ where: { id: job.id } })).toMatchObject({ status: "running", attempts: 1 });

    worker = await startWorker({ db: t.db, url: t.url, heartbeatMs: 200, deadAfterMs: 1000, pollSeconds: 0.5, log: () => undefined });
    await until("the retry", async () => (await t!.db.job.findUniqueOrThrow({ where: { id: job.id } })).status === "done");
    expect(await t.db.job.findUniqueOrThrow({ where: { id: job.id } })).toMatchObject({
      owner: worker.id,
      attempts: 2,
      error: expect.stringMatching(/^attempt 1 of 3 stopped: the process running it .* stopped answering \d+ s ago$/),
    });
  });
});
