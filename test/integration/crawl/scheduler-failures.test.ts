/**
 * The scheduler survives what goes wrong around a crawl: a crawl that throws something unexpected,
 * a notification service that rejects after the run, a queue that refuses a job. Each is caught
 * where it starts, written on the account's runs, and the scheduler keeps crawling — the next
 * tick of the same account and the other accounts. No promise rejection goes unhandled.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Scheduler } from "../../../crawler/scheduler";
import { createCrawlQueue } from "../../../crawler/queue/crawl-jobs";
import { createInProcessQueue, type CrawlJob, type JobQueue, type QueueItem } from "../../../crawler/queue/in-process";
import { createTestDb, type TestDb } from "../../support/db";
import { crawlFixture, type CrawlFixture } from "./support";

const EVERY_SECOND = "* * * * * *";

let unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => void unhandled.push(reason);
let f: CrawlFixture | undefined;
let t: TestDb | undefined;
let scheduler: Scheduler | undefined;
let queue: JobQueue | undefined;
beforeEach(() => {
  unhandled = [];
  process.on("unhandledRejection", onUnhandled);
});
afterEach(async () => {
  scheduler?.stop();
  scheduler = undefined;
  await queue?.close();
  queue = undefined;
  await f?.close();
  f = undefined;
  await t?.cleanup();
  t = undefined;
  process.off("unhandledRejection", onUnhandled);
});

/** Poll until `check` holds (the scheduler ticks every second), or fail after `ms`. */
async function eventually(check: () => Promise<boolean>, what: string, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("the in-process queue", () => {
  it("catches a handler that throws synchronously and an error handler that fails", async () => {
    const seen: number[] = [];
    const q = createInProcessQueue(
      (job: CrawlJob) => {
        if (job.accountId === 1) throw new TypeError("not even a promise");
        seen.push(job.accountId);
        return Promise.resolve();
      },
      {
        onError: async () => {
          throw new Error("the error handler failed too");
        },
      },
    );
    q.enqueue({ accountId: 1, trigger: "cli" });
    q.enqueue({ accountId: 2, trigger: "cli" });
    await q.onIdle();
    expect(seen).toEqual([2]);
    expect(q.enqueue({ accountId: 1, trigger: "cli" })).toBe(true);
    await q.onIdle();
    await new Promise((r) => setTimeout(r, 20));
    expect(unhandled).toEqual([]);
  });
});

describe("the scheduler", () => {
  it("records a crawl that threw on its run and keeps crawling that account and the others", async () => {
    f = await crawlFixture({ seed: 71, accounts: { weibo: 0, tieba: 0, discuz: 0, blog: 2 }, postsPerAccount: 3 });
    const db = f.t.db;
    const broken = f.ids.get("blog-1")!;
    const healthy = f.ids.get("blog-2")!;
    await db.account.updateMany({ data: { cron: EVERY_SECOND } });

    // blog-1's first crawl throws something the worker does not expect (a bug in a service).
    const createFetcher = f.services.createFetcher;
    let exploded = false;
    f.services.createFetcher = (account, onRequest) => {
      if (account.id === broken && !exploded) {
        exploded = true;
        throw new TypeError("fetcher exploded");
      }
      return createFetcher(account, onRequest);
    };
    // Notification delivery, not awaited by the crawl, rejects after the run is written.
    f.services.notify = async () => {
      await new Promise((r) => setTimeout(r, 5));
      throw new Error("mail server gone");
    };

    const logs: string[] = [];
    queue = createCrawlQueue(f.services, { concurrency: 2, log: (m) => logs.push(m) });
    scheduler = new Scheduler({ db, queue, pollMs: 60_000, log: (m) => logs.push(m) });
    await scheduler.start();

    await eventually(async () => (await db.crawlRun.count({ where: { accountId: broken, status: "failed" } })) > 0, "the crash on a run");
    const crashed = await db.crawlRun.findFirstOrThrow({ where: { accountId: broken, status: "failed" } });
    expect(crashed.note).toBe("crashed: fetcher exploded");
    expect(crashed.finishedAt).not.toBeNull();
    expect(JSON.parse(crashed.errors)).toEqual([expect.objectContaining({ kind: "TypeError", reason: "fetcher exploded" })]);
    expect(logs).toContain(`account ${broken} crashed: fetcher exploded`);

    // The next tick crawls the same account; the other account was never held up.
    await eventually(
      async () => (await db.crawlRun.count({ where: { accountId: broken, status: "ok", id: { gt: crashed.id } } })) > 0,
      "a later run of the account that crashed",
    );
    expect(await db.crawlRun.count({ where: { accountId: healthy, status: "ok" } })).toBeGreaterThan(0);
    expect(await db.post.count({ where: { accountId: broken } })).toBe(f.expected("blog-1").size);

    // The rejected notification is written on its run, which otherwise stays as crawled.
    await eventually(async () => (await db.crawlRun.count({ where: { errors: { contains: "mail server gone" } } })) > 0, "the notify failure on a run");
    const notified = await db.crawlRun.findFirstOrThrow({ where: { errors: { contains: "mail server gone" } } });
    expect(notified.status).toBe("ok");
    expect(JSON.parse(notified.errors)).toEqual([expect.objectContaining({ kind: "NotifyError", reason: "mail server gone" })]);
    expect(notified.errorCount).toBe(1);

    scheduler.stop();
    await queue.close();
    expect(unhandled).toEqual([]);
  });

  it("records a tick whose job the queue refused to take, and ticks again", async () => {
    t = await createTestDb();
    const account = await t.db.account.create({
      data: { platform: "blog", entryUrl: "http://127.0.0.1:1/blog/1/", name: "blog 1", cron: EVERY_SECOND },
    });
    // A queue whose database refuses the first job (as pg-boss does when PostgreSQL restarts).
    const jobs: QueueItem[] = [];
    let refused = false;
    queue = {
      async enqueue(job) {
        if (!refused) {
          refused = true;
          throw new Error("connection terminated unexpectedly");
        }
        jobs.push(job);
        return true;
      },
      running: () => [],
      onIdle: async () => undefined,
      close: async () => undefined,
    };
    // No start-up catch-up job: the first job the queue sees is the tick's.
    scheduler = new Scheduler({ db: t.db, queue, pollMs: 60_000, catchUp: false });
    await scheduler.start();
    await eventually(async () => jobs.length > 0, "a tick after the refused one");
    const skipped = await t.db.crawlRun.findMany({ where: { accountId: account.id } });
    expect(skipped).toEqual([expect.objectContaining({ status: "skipped", note: "could not queue the crawl: connection terminated unexpectedly" })]);
    expect(jobs[0]).toEqual({ accountId: account.id, trigger: "schedule" });
    expect(unhandled).toEqual([]);
  });
});
