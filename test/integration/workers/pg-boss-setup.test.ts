/**
 * Setting up pg-boss from many processes at once: workers started together on a new database
 * (as `start --workers N`, a deploy script or the worker test does) must all come up. pg-boss's
 * own `create_queue` deadlocks when run concurrently; `startBoss` serialises the setup.
 * A changed queue setting (CAMPUSWATCH_JOB_RETRIES and the like) is applied on the next start.
 */
import { afterEach, describe, expect, it } from "vitest";
import type PgBoss from "pg-boss";
import { CRAWL_QUEUE, JOB_QUEUE, startBoss } from "../../../crawler/queue/pg-boss";
import { createTestDb, type TestDb } from "../../support/db";
import { testDbKind } from "../../support/pg";

const onPostgres = testDbKind() === "postgresql";
if (!onPostgres) console.log("skipping pg-boss setup tests: they need the PostgreSQL pass (CAMPUSWATCH_TEST_DB=postgresql)");

describe.runIf(onPostgres)("startBoss", () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const f of cleanup.splice(0).reverse()) await f();
  });
  const fresh = async (): Promise<TestDb> => {
    const t = await createTestDb();
    cleanup.push(() => t.cleanup());
    return t;
  };
  const started = (boss: PgBoss) => (cleanup.push(() => boss.stop({ graceful: false, wait: true })), boss);

  it("eight processes starting at once on a new database all come up, with one crawl queue and one job queue", async () => {
    // Several rounds: the race is timing-dependent; each round is a database pg-boss never saw.
    for (let round = 0; round < 3; round++) {
      const t = await fresh();
      const bosses = await Promise.all(Array.from({ length: 8 }, (_, i) => startBoss(t.url, { name: `setup ${round}.${i}`, supervise: false }).then(started)));
      expect(bosses).toHaveLength(8);
      const queues = await bosses[0]!.getQueues();
      expect(queues.map((q) => q.name).sort()).toEqual([CRAWL_QUEUE, JOB_QUEUE].sort());
      expect(queues[0]).toMatchObject({ policy: "stately" });
    }
  });

  it("a changed retry setting is applied to the queue when a process starts", async () => {
    const t = await fresh();
    const first = started(await startBoss(t.url, { supervise: false }));
    expect((await first.getQueue(CRAWL_QUEUE))!.retryLimit).toBe(3);
    const before = process.env.CAMPUSWATCH_JOB_RETRIES;
    process.env.CAMPUSWATCH_JOB_RETRIES = "7";
    try {
      const second = started(await startBoss(t.url, { supervise: false }));
      expect(await second.getQueue(CRAWL_QUEUE)).toMatchObject({ retryLimit: 7, policy: "stately" });
    } finally {
      if (before === undefined) delete process.env.CAMPUSWATCH_JOB_RETRIES;
      else process.env.CAMPUSWATCH_JOB_RETRIES = before;
    }
  });
});
