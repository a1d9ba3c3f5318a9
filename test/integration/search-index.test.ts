/**
 * SQLite's full-text index is filled in bulk (lib/search-index.ts): new and edited posts are only
 * queued by the triggers, and a search indexes the queue before it reads. A search must still see
 * exactly the stored text — new posts, edits (old words gone), deletions — and a crawl leaves
 * nothing queued. PostgreSQL keeps its own index, so only the search results are checked there.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { findPostIds, parsePostFilter } from "@/server/posts";
import { flushSearchIndex } from "@/lib/search-index";
import { createTestDb, type TestDb } from "../support/db";
import { crawlFixture, type CrawlFixture } from "./crawl/support";

const search = async (t: TestDb, q: string) =>
  (await findPostIds(t.db, parsePostFilter({ q }, false).filter, { take: 1000 })).page.map((p) => p.id).sort((a, b) => a - b);
const queued = async (t: TestDb) => Number((await t.db.$queryRawUnsafe<{ n: number | bigint }[]>(`SELECT count(*) AS n FROM "post_fts_pending"`))[0]!.n);

describe("search over posts stored, edited and deleted since the index was last filled", () => {
  let t: TestDb;
  let accountId: number;
  const post = (platformId: string, text: string, title = "") =>
    t.db.post.create({ data: { accountId, platformId, url: `u${platformId}`, title, publishedAt: new Date("2026-11-01T00:00:00Z"), text, sha1: platformId } });
  beforeAll(async () => {
    t = await createTestDb();
    accountId = (await t.db.account.create({ data: { platform: "blog", entryUrl: "https://b.example.cn/", name: "b" } })).id;
  });
  afterAll(() => t.cleanup());

  it("finds new posts at once, and queues them until a search or a flush indexes them", async () => {
    const a = await post("1", "期末考试有人作弊");
    const b = await post("2", "食堂涨价了", "图书馆占座");
    if (t.kind === "sqlite") expect(await queued(t)).toBe(2);
    expect(await search(t, "作弊")).toEqual([a.id]);
    expect(await search(t, "图书馆")).toEqual([b.id]);
    if (t.kind === "sqlite") expect(await queued(t)).toBe(0);
    expect(await flushSearchIndex(t.db)).toBe(0);
  });

  it("after an edit finds the new text and no longer the old, whether the post was indexed or still queued", async () => {
    const indexed = await post("3", "宿舍停水三天");
    expect(await search(t, "停水")).toEqual([indexed.id]);
    await t.db.post.update({ where: { id: indexed.id }, data: { text: "宿舍停电三天" } });
    const fresh = await post("4", "校园贷诈骗");
    await t.db.post.update({ where: { id: fresh.id }, data: { text: "校园网很慢" } });
    if (t.kind === "sqlite") expect(await queued(t)).toBe(2);
    expect(await search(t, "停水")).toEqual([]);
    expect(await search(t, "停电")).toEqual([indexed.id]);
    expect(await search(t, "诈骗")).toEqual([]);
    expect(await search(t, "校园网")).toEqual([fresh.id]);
  });

  it("forgets deleted posts, indexed or queued", async () => {
    const indexed = await post("5", "运动会报名开始");
    expect(await search(t, "运动会")).toEqual([indexed.id]);
    const fresh = await post("6", "运动会延期");
    await t.db.post.delete({ where: { id: indexed.id } });
    await t.db.post.delete({ where: { id: fresh.id } });
    if (t.kind === "sqlite") expect(await queued(t)).toBe(0);
    expect(await search(t, "运动会")).toEqual([]);
  });

  it("leaves an index that passes FTS5's integrity check", async () => {
    if (t.kind !== "sqlite") return;
    await post("7", "Hello World 100%");
    await flushSearchIndex(t.db);
    await t.db.$executeRawUnsafe(`INSERT INTO "post_fts"("post_fts", "rank") VALUES ('integrity-check', 0)`);
    expect(await search(t, "world")).toHaveLength(1);
  });
});

describe("a crawl", () => {
  let f: CrawlFixture | undefined;
  afterEach(async () => {
    await f?.close();
    f = undefined;
  });

  it("indexes what it stored by the end of the account's run", async () => {
    f = await crawlFixture({ seed: 171, accounts: { weibo: 0, tieba: 0, discuz: 1, blog: 0 }, postsPerAccount: 6, repliesPerPost: [1, 2] });
    const run = await f.crawl("discuz-1");
    expect(run.errors).toEqual([]);
    expect(run.newPosts).toBeGreaterThan(6);
    if (f.t.kind === "sqlite") {
      expect(await queued(f.t)).toBe(0);
      const indexed = await f.t.db.$queryRawUnsafe<{ n: number | bigint }[]>(`SELECT count(*) AS n FROM "post_fts_vocab" WHERE "cnt" > 0`);
      expect(Number(indexed[0]!.n)).toBeGreaterThan(0);
    }
    // Every stored post is found by a three-character piece of its own text.
    for (const row of (await f.stored("discuz-1")).values()) {
      const piece = [...row.text.replace(/\s+/g, "")].slice(0, 3).join("");
      if ([...piece].length < 3) continue;
      const ids = await search(f.t, piece);
      expect(ids.length, piece).toBeGreaterThan(0);
    }
  });
});
