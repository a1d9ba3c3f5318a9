/**
 * The page store has two drivers for one plan (crawler/store/page-plan.ts): Prisma (PostgreSQL)
 * and prepared statements on SQLite (issue 17: Prisma's per-query compile was half a crawl's CPU).
 * The same pages stored through each, on two SQLite files, must leave the same rows — every column
 * of every post, version, source and queue row — and the same outcomes. The script covers each
 * case of the plan: new posts and replies whose parent is in the same batch, an unchanged post, an
 * edit (a version), a partial text completed in place, a partial text that must not replace a
 * complete one, a post back after a deletion, a post another account of the site stored (linked),
 * a thread's last-reply time with and without items, OCR text, and a repeated item on one page.
 * Then the next listing page's read of what is known (knownPosts, which also records the account as
 * a source of the site's posts it lists) through each driver: the same posts, the same sources.
 * On PostgreSQL the script runs on the Prisma driver alone, and its cases are checked there.
 */
import { afterEach, describe, expect, it } from "vitest";
import { knownPosts, markDeleted, prepareItem, storePage, type PreparedItem } from "../../../crawler/store";
import { planPage, type PageExtras, type StoreOutcome } from "../../../crawler/store/page-plan";
import { PAGE_STORE } from "../../../crawler/store/page";
import type { CrawlItem } from "../../../crawler/types";
import { rawSqlite, type Db } from "../../../lib/db";
import { prismaStores, sqliteStores } from "../../../lib/store";
import { siteKeyOf } from "../../../lib/site-key";
import { createTestDb, prismaOnly, type TestDb } from "../../support/db";

const dbs: TestDb[] = [];
afterEach(async () => {
  for (const t of dbs.splice(0)) await t.cleanup();
});

const T0 = new Date("2025-03-01T08:00:00.123Z");
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);
const item = (platformId: string, text: string, extra: Partial<CrawlItem> = {}): CrawlItem => ({
  platformId,
  kind: "post",
  url: `http://127.0.0.1:1/forum/thread-${platformId}`,
  title: `标题 ${platformId}`,
  author: "张三",
  publishedAt: at(-60),
  html: `<p>${text}</p>`,
  ...extra,
});

/** One step of the script: a page of an account, or posts marked deleted. */
type Step = { account: "a" | "b"; items: PreparedItem[]; now: Date; extras?: PageExtras } | { deleted: string[]; now: Date };

const script: Step[] = [
  // A thread head and two replies, the second answering the first: parents in the same batch.
  {
    account: "a",
    now: at(0),
    items: [
      prepareItem(item("t1", "期末考试安排"), { replyCount: 2, listSha1: "l1" }),
      prepareItem(item("r1", "第一条回复", { kind: "reply", parentPlatformId: "t1", publishedAt: at(1) })),
      prepareItem(item("r2", "回复楼上", { kind: "reply", parentPlatformId: "r1", publishedAt: at(2), authorId: "u2" })),
      prepareItem(item("p1", "食堂通知", { textIncomplete: true }), { ocrText: "图片里的字" }),
      prepareItem(item("p2", "图书馆开放时间")),
      // The same item twice on one page (a pinned copy): the last one counts.
      prepareItem(item("p3", "旧的置顶")),
      prepareItem(item("p3", "置顶帖")),
    ],
    extras: { thread: { platformId: "t1", lastReplyAt: at(2) } },
  },
  // Seen again: t1 unchanged (new reply count, a renamed author), p2 edited, p1 completed.
  {
    account: "a",
    now: at(10),
    items: [
      prepareItem(item("t1", "期末考试安排", { author: "张三丰" }), { replyCount: 3, lastReplyAt: at(9) }),
      prepareItem(item("p2", "图书馆开放时间（更新）"), { archivePath: "archive/p2.html" }),
      prepareItem(item("p1", "食堂通知 全文")),
    ],
  },
  // A partial text never replaces a complete one; a reply whose parent arrives later.
  {
    account: "a",
    now: at(20),
    items: [prepareItem(item("p2", "图书馆开放", { textIncomplete: true })), prepareItem(item("r9", "先到的回复", { kind: "reply", parentPlatformId: "t9" }))],
  },
  {
    account: "a",
    now: at(25),
    items: [prepareItem(item("t9", "后到的主题")), prepareItem(item("r9", "先到的回复", { kind: "reply", parentPlatformId: "t9" }))],
  },
  // Gone, then back: a version and the mark cleared.
  { deleted: ["p3"], now: at(30) },
  { account: "a", now: at(40), items: [prepareItem(item("p3", "置顶帖"), { ocrText: "新的图片文字" })] },
  // Another account of the same site reaches t1 and p2 (linked), and stores a post of its own.
  {
    account: "b",
    now: at(50),
    items: [
      prepareItem(item("t1", "期末考试安排", { author: "张三丰" })),
      prepareItem(item("p2", "图书馆开放时间（再改）")),
      prepareItem(item("b1", "二号账号的帖子")),
    ],
  },
  // A thread's last page with no items of its own: only the time moves.
  { account: "b", now: at(60), items: [], extras: { thread: { platformId: "t1", lastReplyAt: at(59) } } },
];

type Driver = "prisma" | "sqlite";

async function store(db: Db, driver: Driver, accountId: number, items: PreparedItem[], now: Date, extras: PageExtras = {}): Promise<StoreOutcome> {
  // No items: storePage writes the time alone, through the driver lib/store picks for the client.
  if (items.length === 0) return storePage(driver === "prisma" ? prismaOnly(db) : db, accountId, items, now, extras);
  // Both accounts are boards of one forum: one site (lib/site-key.ts), as knownPosts computes it.
  const plan = () => planPage(accountId, siteKeyOf("discuz", "http://127.0.0.1:1/forum/a"), items, now, extras);
  return (driver === "prisma" ? prismaStores(db) : sqliteStores(db)).run(plan, PAGE_STORE);
}

async function runScript(driver: Driver) {
  const t = await createTestDb();
  dbs.push(t);
  const { db } = t;
  const a = (await db.account.create({ data: { platform: "discuz", entryUrl: "http://127.0.0.1:1/forum/a", name: "a" } })).id;
  const b = (await db.account.create({ data: { platform: "discuz", entryUrl: "http://127.0.0.1:1/forum/b", name: "b" } })).id;
  const outcomes: StoreOutcome[] = [];
  for (const step of script) {
    if ("deleted" in step) await markDeleted(db, a, step.deleted, step.now);
    else outcomes.push(await store(db, driver, step.account === "a" ? a : b, step.items, step.now, step.extras));
  }
  const tables = {
    posts: await db.post.findMany({ orderBy: { id: "asc" } }),
    versions: await db.postVersion.findMany({ orderBy: { id: "asc" } }),
    sources: await db.postSource.findMany({ orderBy: [{ postId: "asc" }, { accountId: "asc" }] }),
    queue: await db.unclassifiedPost.findMany({ orderBy: { postId: "asc" } }),
  };
  // What account b's next listing page finds (knownPosts reads through the same driver): its own
  // posts, a's posts (b becomes their source), and ids never stored.
  const listed = ["t1", "r1", "p1", "p2", "p3", "t9", "r9", "b1", "nope"];
  const known = [...(await knownPosts(driver === "prisma" ? prismaOnly(db) : db, b, listed, at(300)))].sort(([x], [y]) => x.localeCompare(y));
  // As stored, not only as Prisma reads them back: the same text for dates, the same 0/1, nulls.
  const raw = t.kind === "sqlite" ? await rawSqlite(db) : null;
  const stored = raw
    ? await raw.transaction((sql) =>
        ["Post", "PostVersion", "PostSource", "UnclassifiedPost", "post_day_stats"].map((table) =>
          sql.prepare(`SELECT * FROM "${table}" ORDER BY 1, 2`).safeIntegers(false).all(),
        ),
      )
    : null;
  return { outcomes, known, tables, stored };
}

/** A test database, or the test skipped (saying why) when the suite runs on PostgreSQL. */
async function sqliteOrSkip(ctx: { skip: () => void }): Promise<TestDb> {
  const t = await createTestDb();
  dbs.push(t);
  if (t.kind !== "sqlite") {
    console.log("skipped: the prepared-statement driver and its raw connection are SQLite's; on PostgreSQL every page goes through Prisma");
    ctx.skip();
  }
  return t;
}

describe("the page store's two drivers", () => {
  it("leave the same rows and outcomes for the same pages", async () => {
    const viaPrisma = await runScript("prisma");
    // On PostgreSQL the Prisma driver alone: the script's cases are checked on it below.
    const viaSqlite = viaPrisma.stored ? await runScript("sqlite") : viaPrisma;
    expect(viaSqlite.outcomes).toEqual(viaPrisma.outcomes);
    expect(viaSqlite.known).toEqual(viaPrisma.known);
    expect(viaSqlite.known.map(([pid]) => pid)).toEqual(["b1", "p1", "p2", "p3", "r1", "r9", "t1", "t9"]);
    expect(viaSqlite.tables).toEqual(viaPrisma.tables);
    expect(viaSqlite.stored).toEqual(viaPrisma.stored);

    // The script reached every case it names.
    const { posts, versions, sources } = viaSqlite.tables;
    const post = (pid: string) => posts.find((p) => p.platformId === pid)!;
    expect(post("r2").parentId).toBe(post("r1").id);
    expect(post("r9").parentId).toBe(post("t9").id);
    expect(post("t1").author).toBe("张三丰");
    expect(post("p1")).toMatchObject({ incomplete: false, version: 1, text: "食堂通知 全文", ocrText: "图片里的字" });
    expect(post("p3")).toMatchObject({ deletedAt: null, version: 2, ocrText: "新的图片文字" });
    expect(post("p2")).toMatchObject({ version: 3, text: "图书馆开放时间（再改）" });
    expect(post("t1").lastReplyAt).toEqual(at(59));
    expect(versions).toHaveLength(3);
    expect(sources).toHaveLength(posts.length + 2);
    expect(viaSqlite.outcomes.map((o) => o.linked.length)).toContain(2);
  });

  it("a raw SQLite transaction waits for an open Prisma transaction, and rolls back whole when it throws", async (ctx) => {
    const { db } = await sqliteOrSkip(ctx);
    const raw = (await rawSqlite(db))!;
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    // A Prisma transaction that is still open (and then rolls back) when the raw one is asked for.
    const prismaTx = db
      .$transaction(async (tx) => {
        await tx.account.create({ data: { platform: "blog", entryUrl: "http://127.0.0.1:1/rolled-back", name: "x" } });
        order.push("prisma open");
        await held;
        order.push("prisma ends");
        throw new Error("roll back");
      })
      .catch((e: Error) => e.message);
    while (order.length === 0) await new Promise((r) => setTimeout(r, 5));
    const rawWrite = raw.transaction((sql) => {
      order.push("raw runs");
      sql
        .prepare(
          `INSERT INTO "Account" ("platform", "entryUrl", "name", "updatedAt") VALUES ('blog', 'http://127.0.0.1:1/raw', 'raw', '2025-03-01T08:00:00.000+00:00')`,
        )
        .run();
    });
    await new Promise((r) => setTimeout(r, 50));
    release();
    expect(await prismaTx).toBe("roll back");
    await rawWrite;
    expect(order).toEqual(["prisma open", "prisma ends", "raw runs"]);
    expect((await db.account.findMany()).map((a) => a.name)).toEqual(["raw"]);

    await expect(
      raw.transaction((sql) => {
        sql.prepare(`DELETE FROM "Account"`).run();
        throw new Error("half done");
      }),
    ).rejects.toThrow("half done");
    expect(await db.account.count()).toBe(1);
  });

  it("a raw transaction after $disconnect opens the connection again", async (ctx) => {
    const { db } = await sqliteOrSkip(ctx);
    await db.account.create({ data: { platform: "blog", entryUrl: "http://127.0.0.1:1/a", name: "a" } });
    await db.$disconnect();
    const raw = (await rawSqlite(db))!;
    const names = await raw.transaction((sql) => sql.prepare(`SELECT "name" FROM "Account"`).all() as { name: string }[]);
    expect(names).toEqual([{ name: "a" }]);
    expect(await db.account.count()).toBe(1);
  });
});
