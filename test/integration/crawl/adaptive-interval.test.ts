/**
 * Adaptive intervals on a real database: the statistics the rule reads (rates over a week, a busy
 * thread, a rising incident), the scheduler running an adaptive account only when its chosen
 * interval has passed and recording that interval and why, and the settings refusing bounds that
 * cannot work.
 */
import { afterEach, describe, expect, it } from "vitest";
import { Scheduler } from "../../../crawler/scheduler";
import { createInProcessQueue, type CrawlJob, type JobQueue } from "../../../crawler/queue/in-process";
import { loadAdaptiveStats, RATE_WINDOW_MS } from "../../../crawler/adaptive-interval";
import { startRun } from "../../../crawler/runs";
import { changeAccountSettings, createAccount } from "../../../server/accounts";
import { CLI_ACTOR } from "../../../lib/audit";
import type { Db } from "../../../lib/db";
import { createTestDb, type TestDb } from "../../support/db";

let t: TestDb | undefined;
let scheduler: Scheduler | undefined;
let queue: JobQueue | undefined;
afterEach(async () => {
  scheduler?.stop();
  scheduler = undefined;
  await queue?.close();
  queue = undefined;
  await t?.cleanup();
  t = undefined;
});

const HOUR = 3_600_000;

async function account(db: Db, n: number): Promise<number> {
  return (await createAccount(db, { url: `http://127.0.0.1:9/blog/a${n}/`, fetchMode: "http", cron: "*/10 * * * *" }, CLI_ACTOR)).id;
}

/** `count` posts of an account published at the given ages (ms before now). */
let serial = 0;
async function posts(db: Db, accountId: number, ages: number[], now: Date): Promise<number[]> {
  const ids: number[] = [];
  for (const age of ages) {
    const i = serial++;
    const p = await db.post.create({
      data: {
        accountId,
        platformId: `p${accountId}-${i}`,
        url: `http://127.0.0.1:9/p/${accountId}/${i}`,
        publishedAt: new Date(now.getTime() - age),
        text: "x",
        sha1: `h${accountId}-${i}`,
      },
    });
    ids.push(p.id);
  }
  return ids;
}

describe("adaptive intervals", () => {
  it("reads each account's rate over the week, a busy hour and a rising incident in grouped queries", async () => {
    t = await createTestDb();
    const { db } = t;
    const now = new Date();
    const [quiet, weekly, busy, incident] = [await account(db, 1), await account(db, 2), await account(db, 3), await account(db, 4)];
    await posts(
      db,
      weekly,
      [1, 2, 3, 4, 5, 6, 7].map((d) => d * 20 * HOUR),
      now,
    ); // 7 in the week
    await posts(db, weekly, [RATE_WINDOW_MS + HOUR], now); // outside the window
    await posts(db, busy, [60_000, 120_000, 180_000], now); // 3 in the last hour
    const [member] = await posts(db, incident, [5 * HOUR], now);
    const inc = await db.incident.create({ data: { status: "open", title: "t", firstSeenAt: now, lastSeenAt: new Date(now.getTime() - 10 * 60_000) } });
    await db.incidentPost.create({ data: { postId: member!, incidentId: inc.id, reason: "seed" } });

    const stats = await loadAdaptiveStats(db, [quiet, weekly, busy, incident], now);
    expect(stats.rates.get(quiet)).toBeUndefined();
    expect(stats.rates.get(weekly)).toBeCloseTo(7 / 168, 6);
    expect(stats.hot.get(busy)).toBe("thread");
    expect(stats.hot.get(incident)).toBe("incident");
    expect(stats.hot.has(weekly)).toBe(false);
    const roots = [7 / 168, 3 / 168, 1 / 168].map(Math.sqrt);
    expect(stats.refRatePerHour).toBeCloseTo((roots.reduce((a, b) => a + b, 0) / 3) ** 2, 8);
  });

  it("the scheduler runs a busy adaptive account at its minimum and a quiet one once, and records the interval and why", async () => {
    t = await createTestDb();
    const { db } = t;
    const now = new Date();
    const [quiet, busy] = [await account(db, 1), await account(db, 2)];
    await posts(db, busy, [60_000, 120_000, 180_000, 240_000], now);
    for (const id of [quiet, busy]) await changeAccountSettings(db, id, { adaptive: true, minIntervalS: 30, maxIntervalS: 7200 }, CLI_ACTOR);
    // Ticks every second for the test: the bounds stay as stored, the tick cron is the only thing shortened.
    const jobs: CrawlJob[] = [];
    queue = createInProcessQueue(async (job: CrawlJob) => {
      jobs.push(job);
      await startRun(db, { accountId: job.accountId, trigger: "schedule", startedAt: new Date(), robotsPolicy: "obey" });
    });
    scheduler = new Scheduler({ db, queue, pollMs: 60_000, catchUp: false, dailyRetrainCron: null, incidentCron: null, adaptiveTickCron: () => "* * * * * *" });
    await scheduler.start();
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline && jobs.filter((j) => j.accountId === busy).length < 1) await new Promise((r) => setTimeout(r, 100));
    // Let a few more ticks pass: neither account is due again (the busy one only after 30 s).
    await new Promise((r) => setTimeout(r, 3_000));
    expect(jobs.filter((j) => j.accountId === quiet)).toHaveLength(1);
    expect(jobs.filter((j) => j.accountId === busy)).toHaveLength(1);
    const rows = await db.account.findMany({ where: { id: { in: [quiet, busy] } }, orderBy: { id: "asc" } });
    expect(rows.map((r) => [r.adaptiveIntervalS, (JSON.parse(r.adaptiveReason ?? "null") as { code: string }).code])).toEqual([
      [7200, "quiet"],
      [30, "hotThread"],
    ]);
    // The next run is the last run's start plus the chosen interval.
    const lastBusy = await db.crawlRun.findFirstOrThrow({ where: { accountId: busy }, orderBy: { startedAt: "desc" } });
    expect(rows[1]!.nextRunAt!.getTime()).toBeGreaterThanOrEqual(lastBusy.startedAt.getTime() + 29_000);
  });

  it("refuses an adaptive account without bounds, or with the minimum above the maximum, and changes nothing", async () => {
    t = await createTestDb();
    const { db } = t;
    const id = await account(db, 1);
    await expect(changeAccountSettings(db, id, { adaptive: true }, CLI_ACTOR)).rejects.toThrow(/needs a minimum and a maximum/);
    await expect(changeAccountSettings(db, id, { adaptive: true, minIntervalS: 3600, maxIntervalS: 60 }, CLI_ACTOR)).rejects.toThrow(
      /minimum interval is longer/,
    );
    await expect(changeAccountSettings(db, id, { adaptive: true, minIntervalS: 5, maxIntervalS: 60 }, CLI_ACTOR)).rejects.toThrow(/at least 30 seconds/);
    expect(await db.account.findUniqueOrThrow({ where: { id } })).toMatchObject({ adaptive: false, minIntervalS: null, maxIntervalS: null });
    await changeAccountSettings(db, id, { adaptive: true, minIntervalS: 120, maxIntervalS: 7200 }, CLI_ACTOR);
    // Bounds already stored: switching it off and on needs none.
    await changeAccountSettings(db, id, { adaptive: false }, CLI_ACTOR);
    await changeAccountSettings(db, id, { adaptive: true }, CLI_ACTOR);
    expect(await db.account.findUniqueOrThrow({ where: { id } })).toMatchObject({ adaptive: true, minIntervalS: 120, maxIntervalS: 7200 });
    const audit = await db.auditEntry.findMany({ where: { kind: "account", targetId: String(id), action: "update" } });
    expect(audit).toHaveLength(3);
  });
});
