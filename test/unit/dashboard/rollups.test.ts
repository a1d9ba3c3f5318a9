/**
 * The post_search migration keeps daily roll-ups (posts, flags, crawl runs) with triggers. After
 * any mix of inserts, edits, reviews and cascading deletes they must equal a direct count.
 */
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { createTestDb, type TestDb } from "../../support/db";
import { dialectOf, type Db } from "@/lib/db";
import { Prisma } from "@/generated/prisma/client";

let t: TestDb;
beforeEach(async () => {
  t = await createTestDb();
});
afterEach(async () => {
  await t.cleanup();
});

const n = (v: unknown) => Number(v);
/** A raw row's values, numbers (number, bigint, or PostgreSQL's Decimal for sum(bigint)) as plain numbers. */
const values = (r: Record<string, unknown>) => Object.values(r).map((v) => (typeof v === "string" || v === null ? v : n(v)));

// The direct counts are written out per database rather than through the migration's helpers
// (shanghai_day, run_ms on PostgreSQL), so that they check the triggers independently.
/** The Asia/Shanghai calendar day of a stored instant, as "YYYY-MM-DD" text. */
function dayOf(db: Db, column: Prisma.Sql): Prisma.Sql {
  return dialectOf(db) === "postgresql" ? Prisma.sql`to_char(${column} + interval '8 hours', 'YYYY-MM-DD')` : Prisma.sql`date(${column}, '+8 hours')`;
}
/** The milliseconds from `startedAt` to `finishedAt` of a run, 0 while it runs. */
function runMs(db: Db): Prisma.Sql {
  return dialectOf(db) === "postgresql"
    ? Prisma.sql`coalesce(round(extract(epoch FROM "finishedAt" - "startedAt") * 1000)::BIGINT, 0)`
    : Prisma.sql`coalesce(CAST(round((unixepoch("finishedAt", 'subsec') - unixepoch("startedAt", 'subsec')) * 1000) AS INTEGER), 0)`;
}

async function postStats(db: Db) {
  const rolled = await db.$queryRaw<Record<string, unknown>[]>`
    SELECT "day", "accountId", "kind", "n" FROM "post_day_stats" WHERE "n" <> 0 ORDER BY 1, 2, 3`;
  const direct = await db.$queryRaw<Record<string, unknown>[]>`
    SELECT ${dayOf(db, Prisma.sql`"publishedAt"`)} AS "day", "accountId", "kind", count(*) AS "n" FROM "Post" GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`;
  return { rolled: rolled.map(values), direct: direct.map(values) };
}
async function flagStats(db: Db) {
  const rolled = await db.$queryRaw<Record<string, unknown>[]>`
    SELECT "day", "accountId", "topicId", "status", "n" FROM "flag_day_stats" WHERE "n" <> 0 ORDER BY 1, 2, 3, 4`;
  const direct = await db.$queryRaw<Record<string, unknown>[]>`
    SELECT ${dayOf(db, Prisma.sql`p."publishedAt"`)} AS "day", p."accountId", f."topicId", f."status", count(*) AS "n"
    FROM "Flag" f JOIN "Post" p ON p."id" = f."postId" GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`;
  return { rolled: rolled.map(values), direct: direct.map(values) };
}
async function runStats(db: Db) {
  const rolled = await db.$queryRaw<Record<string, unknown>[]>`
    SELECT "day", "accountId", "runs", "failed", "errors", "blocks", "pages", "newPosts", "ms" FROM "run_day_stats" WHERE "runs" <> 0 ORDER BY 1, 2`;
  const direct = await db.$queryRaw<Record<string, unknown>[]>`
    SELECT ${dayOf(db, Prisma.sql`"startedAt"`)} AS "day", "accountId", count(*) AS "runs", sum(CASE WHEN "status" = 'failed' THEN 1 ELSE 0 END) AS "failed",
      sum("errorCount") AS "errors", sum("blocks") AS "blocks", sum("pagesList" + "pagesItem" + "pagesOther") AS "pages", sum("newPosts") AS "newPosts",
      sum(${runMs(db)}) AS "ms"
    FROM "CrawlRun" GROUP BY 1, 2 ORDER BY 1, 2`;
  return { rolled: rolled.map(values), direct: direct.map(values) };
}

async function fixture(db: Db) {
  const a1 = await db.account.create({ data: { platform: "tieba", entryUrl: "https://tieba.baidu.com/f?kw=a", name: "a吧" } });
  const a2 = await db.account.create({ data: { platform: "weibo", entryUrl: "https://weibo.com/u/1", name: "w" } });
  const topic = await db.topic.create({ data: { name: "考试" } });
  const topic2 = await db.topic.create({ data: { name: "食堂" } });
  const mk = (accountId: number, i: number, at: string, parentId?: number) =>
    db.post.create({
      data: {
        accountId,
        platformId: `p${i}`,
        url: `https://x/${i}`,
        publishedAt: new Date(at),
        text: `第${i}条 作弊`,
        sha1: `s${i}`,
        kind: parentId ? "reply" : "post",
        parentId,
      },
    });
  // 15:59 and 16:01 UTC fall on different Asia/Shanghai days.
  const p1 = await mk(a1.id, 1, "2026-03-01T15:59:00Z");
  const p2 = await mk(a1.id, 2, "2026-03-01T16:01:00Z");
  const p3 = await mk(a2.id, 3, "2026-03-02T08:00:00Z");
  const r1 = await mk(a1.id, 4, "2026-03-02T09:00:00Z", p1.id);
  return { a1, a2, topic, topic2, p1, p2, p3, r1 };
}

describe("post_day_stats", () => {
  test("counts posts per Asia/Shanghai day, account and kind through edits and deletes", async () => {
    const { db } = t;
    const { a1, a2, p2, p3 } = await fixture(db);
    let s = await postStats(db);
    expect(s.rolled).toEqual(s.direct);
    expect(s.rolled).toContainEqual(["2026-03-01", a1.id, "post", 1]);
    expect(s.rolled).toContainEqual(["2026-03-02", a1.id, "post", 1]);
    await db.post.update({ where: { id: p2.id }, data: { publishedAt: new Date("2026-02-20T00:00:00Z") } });
    await db.post.update({ where: { id: p3.id }, data: { lastSeenAt: new Date() } });
    await db.post.delete({ where: { id: p3.id } });
    s = await postStats(db);
    expect(s.rolled).toEqual(s.direct);
    await db.account.delete({ where: { id: a1.id } });
    s = await postStats(db);
    expect(s.rolled).toEqual([]);
    expect(s.direct).toEqual([]);
    void a2;
  });
});

describe("flag_day_stats", () => {
  test("follows inserts, reviews, moved posts and cascading deletes", async () => {
    const { db } = t;
    const { a1, topic, topic2, p1, p2, p3 } = await fixture(db);
    const f1 = await db.flag.create({ data: { postId: p1.id, topicId: topic.id, reasons: "[]", score: 0.9 } });
    await db.flag.create({ data: { postId: p1.id, topicId: topic2.id, reasons: "[]", score: 0.7 } });
    await db.flag.create({ data: { postId: p2.id, topicId: topic.id, reasons: "[]", score: 0.8 } });
    const f4 = await db.flag.create({ data: { postId: p3.id, topicId: topic.id, reasons: "[]", score: 0.6 } });
    let s = await flagStats(db);
    expect(s.rolled).toEqual(s.direct);
    await db.flag.update({ where: { id: f1.id }, data: { status: "confirmed", reviewedAt: new Date() } });
    await db.flag.update({ where: { id: f4.id }, data: { status: "dismissed" } });
    s = await flagStats(db);
    expect(s.rolled).toEqual(s.direct);
    expect(s.rolled).toContainEqual(["2026-03-01", a1.id, topic.id, "confirmed", 1]);
    await db.post.update({ where: { id: p1.id }, data: { publishedAt: new Date("2026-01-05T00:00:00Z") } });
    s = await flagStats(db);
    expect(s.rolled).toEqual(s.direct);
    await db.flag.delete({ where: { id: f4.id } });
    await db.topic.delete({ where: { id: topic2.id } });
    s = await flagStats(db);
    expect(s.rolled).toEqual(s.direct);
    await db.post.delete({ where: { id: p2.id } });
    s = await flagStats(db);
    expect(s.rolled).toEqual(s.direct);
    await db.account.delete({ where: { id: a1.id } });
    s = await flagStats(db);
    expect(s.rolled).toEqual(s.direct);
    expect(s.direct).toEqual([]);
  });
});

describe("run_day_stats", () => {
  test("adds a run when it starts, its figures when it ends, and removes it with its account", async () => {
    const { db } = t;
    const { a1, a2 } = await fixture(db);
    const run = await db.crawlRun.create({ data: { accountId: a1.id, startedAt: new Date("2026-03-01T15:00:00Z") } });
    let s = await runStats(db);
    expect(s.rolled).toEqual(s.direct);
    await db.crawlRun.update({
      where: { id: run.id },
      data: { status: "failed", finishedAt: new Date("2026-03-01T15:00:30.500Z"), pagesList: 2, pagesItem: 5, errorCount: 3, blocks: 1, newPosts: 4 },
    });
    await db.crawlRun.create({
      data: { accountId: a2.id, status: "ok", startedAt: new Date("2026-03-01T17:00:00Z"), finishedAt: new Date("2026-03-01T17:01:00Z"), pagesList: 1 },
    });
    s = await runStats(db);
    expect(s.rolled).toEqual(s.direct);
    expect(s.rolled).toContainEqual(["2026-03-01", a1.id, 1, 1, 3, 1, 7, 4, 30500]);
    await db.account.delete({ where: { id: a1.id } });
    s = await runStats(db);
    expect(s.rolled).toEqual(s.direct);
  });
});
