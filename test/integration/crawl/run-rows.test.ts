/**
 * A run's records (crawler/runs.ts closeDeadRuns, startRun, finishRun, setAccountState) are written
 * as prepared statements on SQLite and through Prisma otherwise: the same rows either way, as
 * Prisma reads them and as they are stored (dates as the same text, the day roll-ups alike).
 */
import { describe, expect, it } from "vitest";
import { closeDeadRuns, finishRun, setAccountState, startRun, type RunSummary } from "../../../crawler/runs";
import { rawSqlite } from "../../../lib/db";
import { prismaOnly, testDbs } from "../../support/db";

const openDb = testDbs();

const at = (m: number) => new Date(Date.UTC(2026, 11, 1, 8, m, 0, 250));

async function record(driver: "prisma" | "sqlite") {
  const t = await openDb();
  const db = driver === "prisma" ? prismaOnly(t.db) : t.db;
  const account = await t.db.account.create({ data: { platform: "discuz", entryUrl: "http://127.0.0.1:1/forum/a", name: "a" } });
  // A run a killed process left "running", and another account's, which stays.
  await t.db.crawlRun.create({ data: { accountId: account.id, status: "running", startedAt: at(0) } });
  const other = await t.db.account.create({ data: { platform: "blog", entryUrl: "http://127.0.0.1:1/blog", name: "b" } });
  await t.db.crawlRun.create({ data: { accountId: other.id, status: "running", startedAt: at(0) } });

  const closed = await closeDeadRuns(db, account.id, at(1));
  const runId = await startRun(db, { accountId: account.id, trigger: "cli", startedAt: at(1), robotsPolicy: "obey" });
  const ignoring = await startRun(db, {
    accountId: account.id,
    trigger: "manual",
    startedAt: at(2),
    robotsPolicy: "ignore",
    robotsPolicySetBy: "管理员",
    robotsPolicySetAt: at(-30),
  });
  await setAccountState(db, account.id, { status: "running" });
  const s: RunSummary = {
    runId,
    accountId: account.id,
    status: "partial",
    pagesList: 3,
    pagesItem: 40,
    pagesOther: 1,
    browserPages: 0,
    bytes: 123_456,
    newPosts: 35,
    changedPosts: 2,
    unchangedPosts: 3,
    blocks: 1,
    errors: [{ at: at(3).toISOString(), url: "http://127.0.0.1:1/t/9", kind: "HttpError", reason: "HTTP 503 «服务不可用»" }],
    warnings: [{ at: at(3).toISOString(), url: "http://127.0.0.1:1/t/8", field: "publishedAt", raw: "昨天 25:61", reason: "no such time" }],
    deletedPosts: 1,
    restoredPosts: 0,
    unfinishedThreads: 1,
    notes: ["thread 8: 50 pages read, the rest next run"],
    durationMs: 4000,
  };
  await finishRun(db, s, at(4));
  await setAccountState(db, account.id, { status: "error", lastRunAt: at(1), lastError: "HttpError: HTTP 503" });

  const runs = await t.db.crawlRun.findMany({ orderBy: { id: "asc" } });
  const acct = await t.db.account.findUniqueOrThrow({ where: { id: account.id } });
  const raw = await rawSqlite(t.db);
  const stored = raw
    ? await raw.transaction((sql) => ({
        runs: sql.prepare(`SELECT * FROM "CrawlRun" ORDER BY "id"`).safeIntegers(false).all(),
        days: sql.prepare(`SELECT * FROM "run_day_stats" ORDER BY 1, 2`).safeIntegers(false).all(),
        account: sql.prepare(`SELECT "status", "lastRunAt", "lastError" FROM "Account" WHERE "id" = ?`).safeIntegers(false).get(account.id),
      }))
    : null;
  return {
    closed,
    ignoring: ignoring > runId,
    runs: runs.map(({ id: _id, ...r }) => r),
    account: { status: acct.status, lastRunAt: acct.lastRunAt, lastError: acct.lastError, touched: acct.updatedAt > account.updatedAt },
    stored: stored && { ...stored, runs: (stored.runs as Record<string, unknown>[]).map(({ id: _id, ...r }) => r) },
  };
}

describe("a run's records", () => {
  it("are the same rows through Prisma and on SQLite", async () => {
    const viaPrisma = await record("prisma");
    const viaSqlite = await record("sqlite");
    expect(viaSqlite).toEqual(viaPrisma);
    expect(viaSqlite.closed).toBe(1);
    expect(viaSqlite.ignoring).toBe(true);
    expect(viaSqlite.account).toEqual({ status: "error", lastRunAt: at(1), lastError: "HttpError: HTTP 503", touched: true });
    const [dead, , finished, ignoring] = viaSqlite.runs;
    expect(dead).toMatchObject({ status: "failed", finishedAt: at(1), note: "interrupted: the crawling process ended mid-run" });
    expect(finished).toMatchObject({ status: "partial", finishedAt: at(4), pagesItem: 40, bytes: 123_456, errorCount: 1, warningCount: 1, blocks: 1 });
    expect(JSON.parse(finished!.errors)).toEqual([expect.objectContaining({ reason: "HTTP 503 «服务不可用»" })]);
    expect(ignoring).toMatchObject({ status: "running", trigger: "manual", robotsPolicy: "ignore", robotsPolicySetBy: "管理员", robotsPolicySetAt: at(-30) });
  });

  it("refuse a run or an account that is gone, as Prisma's update does, on either store", async () => {
    const t = await openDb();
    const s = { runId: 999_999, errors: [], warnings: [], notes: [] } as unknown as RunSummary;
    for (const db of [t.db, prismaOnly(t.db)]) {
      await expect(finishRun(db, s, at(1))).rejects.toThrow("no crawl run with id 999999");
      await expect(setAccountState(db, 999_999, { status: "idle" })).rejects.toThrow("no account with id 999999");
    }
  });
});
