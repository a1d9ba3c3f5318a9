import { afterEach, describe, expect, it } from "vitest";
import { createInProcessQueue, type CrawlJob } from "../../crawler/queue/in-process";
import { Scheduler } from "../../crawler/scheduler";
import { createTestDb, type TestDb } from "../support/db";

let t: TestDb | undefined;
let scheduler: Scheduler | undefined;
afterEach(async () => {
  scheduler?.stop();
  scheduler = undefined;
  await t?.cleanup();
  t = undefined;
});

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe("in-process queue", () => {
  it("never runs one account twice at once and respects the concurrency limit", async () => {
    const gates = new Map<number, ReturnType<typeof deferred>>();
    let active = 0;
    let peak = 0;
    const ran: number[] = [];
    const queue = createInProcessQueue(
      async (job: CrawlJob) => {
        active++;
        peak = Math.max(peak, active);
        ran.push(job.accountId);
        const g = deferred();
        gates.set(job.accountId, g);
        await g.promise;
        active--;
      },
      { concurrency: 2 },
    );
    expect(queue.enqueue({ accountId: 1, trigger: "schedule" })).toBe(true);
    expect(queue.enqueue({ accountId: 1, trigger: "schedule" })).toBe(false);
    expect(queue.enqueue({ accountId: 2, trigger: "schedule" })).toBe(true);
    expect(queue.enqueue({ accountId: 3, trigger: "schedule" })).toBe(true);
    await new Promise((r) => setTimeout(r, 10));
    expect(queue.running().sort()).toEqual([1, 2]);
    expect(queue.enqueue({ accountId: 2, trigger: "manual" })).toBe(false);
    gates.get(1)!.resolve();
    await new Promise((r) => setTimeout(r, 10));
    expect(queue.running().sort()).toEqual([2, 3]);
    gates.get(2)!.resolve();
    gates.get(3)!.resolve();
    await queue.onIdle();
    expect(ran).toEqual([1, 2, 3]);
    expect(peak).toBe(2);
  });

  it("starts the waiting job of the least busy group first (accounts on idle hosts)", async () => {
    const gates = new Map<number, ReturnType<typeof deferred>>();
    const ran: number[] = [];
    const hostOf = new Map([
      [1, "a.example"],
      [2, "a.example"],
      [3, "a.example"],
      [4, "b.example"],
      [5, "c.example"],
      [6, undefined],
    ]);
    const queue = createInProcessQueue(
      async (job: CrawlJob) => {
        ran.push(job.accountId);
        const g = deferred();
        gates.set(job.accountId, g);
        await g.promise;
      },
      { concurrency: 3, groupOf: (job) => hostOf.get(job.accountId) },
    );
    for (const id of [1, 2, 3, 4, 5, 6]) queue.enqueue({ accountId: id, trigger: "cli" });
    await new Promise((r) => setTimeout(r, 10));
    // Queued first were three accounts of one host: one of them, and the other hosts' accounts.
    expect(ran).toEqual([1, 4, 5]);
    gates.get(4)!.resolve();
    await new Promise((r) => setTimeout(r, 10));
    // No group counts as idle; then the first of a.example's waiting accounts.
    expect(ran).toEqual([1, 4, 5, 6]);
    gates.get(5)!.resolve();
    await new Promise((r) => setTimeout(r, 10));
    expect(ran).toEqual([1, 4, 5, 6, 2]);
    for (const id of [1, 2, 6]) gates.get(id)!.resolve();
    await new Promise((r) => setTimeout(r, 10));
    gates.get(3)!.resolve();
    await queue.onIdle();
    expect(ran).toEqual([1, 4, 5, 6, 2, 3]);
  });

  it("keeps going when a job throws", async () => {
    const errors: unknown[] = [];
    const queue = createInProcessQueue(
      async (job) => {
        if (job.accountId === 1) throw new Error("boom");
      },
      { onError: (e) => errors.push(e) },
    );
    queue.enqueue({ accountId: 1, trigger: "cli" });
    queue.enqueue({ accountId: 2, trigger: "cli" });
    await queue.onIdle();
    expect(errors).toHaveLength(1);
    expect(queue.enqueue({ accountId: 1, trigger: "cli" })).toBe(true);
    await queue.onIdle();
  });
});

describe("scheduler", () => {
  async function account(db: TestDb["db"], id: number, cron: string, enabled = true) {
    return db.account.create({ data: { id, platform: "blog", entryUrl: `http://127.0.0.1:1/blog/${id}/`, name: `blog ${id}`, cron, enabled } });
  }

  it("schedules enabled accounts and follows changes made by another process", async () => {
    t = await createTestDb();
    const jobs: CrawlJob[] = [];
    const queue = createInProcessQueue(async (j) => void jobs.push(j));
    await account(t.db, 1, "*/5 * * * *");
    await account(t.db, 2, "0 * * * *", false);
    scheduler = new Scheduler({ db: t.db, queue, pollMs: 60_000, catchUp: false });
    await scheduler.start();
    expect(scheduler.scheduled()).toEqual([1]);
    const a1 = await t.db.account.findUniqueOrThrow({ where: { id: 1 } });
    expect(a1.nextRunAt).not.toBeNull();

    // Another process (the dashboard) enables account 2, disables 1 and asks to crawl 2 now.
    await t.db.account.update({ where: { id: 2 }, data: { enabled: true, crawlRequestedAt: new Date() } });
    await t.db.account.update({ where: { id: 1 }, data: { enabled: false } });
    await scheduler.refresh();
    expect(scheduler.scheduled()).toEqual([2]);
    await queue.onIdle();
    expect(jobs).toEqual([{ accountId: 2, trigger: "manual" }]);
    expect((await t.db.account.findUniqueOrThrow({ where: { id: 2 } })).crawlRequestedAt).toBeNull();

    await t.db.account.delete({ where: { id: 2 } });
    await scheduler.refresh();
    expect(scheduler.scheduled()).toEqual([]);
  });

  it("records a skipped run when the previous run of the account is still going", async () => {
    t = await createTestDb();
    const gate = deferred();
    const queue = createInProcessQueue(() => gate.promise);
    await account(t.db, 1, "*/5 * * * *");
    scheduler = new Scheduler({ db: t.db, queue, pollMs: 60_000, catchUp: false });
    expect(await scheduler.submit({ accountId: 1, trigger: "schedule" })).toBe(true);
    await new Promise((r) => setTimeout(r, 5));
    expect(await scheduler.submit({ accountId: 1, trigger: "schedule" })).toBe(false);
    const runs = await t.db.crawlRun.findMany({ where: { accountId: 1 } });
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ status: "skipped", note: "previous run still going" });
    gate.resolve();
    await queue.onIdle();
  });

  it("does not crash on an invalid cron expression stored in the database", async () => {
    t = await createTestDb();
    const queue = createInProcessQueue(async () => undefined);
    await account(t.db, 1, "61 * * * *");
    scheduler = new Scheduler({ db: t.db, queue, pollMs: 60_000, catchUp: false });
    await scheduler.start();
    expect(scheduler.scheduled()).toEqual([]);
    await new Promise((r) => setTimeout(r, 20));
    const a = await t.db.account.findUniqueOrThrow({ where: { id: 1 } });
    expect(a.status).toBe("error");
    expect(a.lastError).toMatch(/invalid cron/);
  });
});
