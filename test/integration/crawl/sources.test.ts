/**
 * One post, many sources (issue 14): the same platform id on the same site, reached by two
 * accounts (a board registered under two of its URL forms, a Weibo user under two; a keyword watch
 * is the same case), is one Post row listed under both — classified once, flagged once, exported
 * once with its sources — and survives the deletion of one of them. Also: two stores of the same
 * new post at once, and the migration on a database that already holds posts.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import crypto from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Prisma } from "../../../generated/prisma/client";
import { classifyPosts } from "../../../crawler/classify";
import { prepareItem, storePage } from "../../../crawler/store";
import { createDb } from "../../../lib/db";
import { migrationNames } from "../../../lib/migrate";
import { backfillSiteKeys } from "../../../lib/post-sources";
import { createAccount, removeAccount } from "../../../server/accounts";
import { exportPosts } from "../../../server/export";
import { getPostDetail, listPostsPage } from "../../../server/posts";
import { createTestDb } from "../../support/db";
import { pgAdmin, pgDatabaseUrl, testDbKind } from "../../support/pg";
import { crawlFixture, type CrawlFixture } from "./support";
import { CLI_ACTOR } from "../../../lib/audit";

describe("a post reached by two accounts of one site", () => {
  let f: CrawlFixture;
  /** Post ids handed to the classifier, per crawl. */
  const classified: number[][] = [];
  const secondId = new Map<string, number>();
  let flaggedPid = "";
  let flaggedLocalId = "";

  beforeAll(async () => {
    f = await crawlFixture(
      {
        seed: 1414,
        accounts: { weibo: 1, tieba: 0, discuz: 1, blog: 0 },
        postsPerAccount: 6,
        repliesPerPost: [1, 3],
        pageSizes: { weibo: 10, discuz: 10, discuzPosts: 10 },
      },
      {
        classify: async (db, ids) => {
          classified.push([...ids]);
          return classifyPosts(db, ids);
        },
      },
    );
    await f.t.db.topic.create({ data: { name: "考试", sensitiveWords: JSON.stringify(["作弊"]) } });
    const post = f.site.addPost("discuz-1", { title: "考场作弊", text: "有人在期末考试作弊被抓。" });
    flaggedPid = f.site.platformIdOf(post);
    flaggedLocalId = post.id;
    // The same board and the same user, registered under another URL form each.
    const board = new URL(f.site.entryUrl("discuz-1"));
    const fid = board.searchParams.get("fid")!;
    const weiboSlug = f.site.account("weibo-1").slug;
    for (const [key, url] of [
      ["discuz-1", `${board.origin}${board.pathname}?fid=${fid}&mod=forumdisplay`],
      ["weibo-1", `${f.site.origin}/p/100505${weiboSlug}`],
    ] as const) {
      const row = await createAccount(f.t.db, { url, name: `${key} again`, fetchMode: "http" }, CLI_ACTOR);
      secondId.set(key, row.id);
    }
  });
  afterAll(async () => f?.close());

  const crawlSecond = async (key: string) => {
    const { crawlAccount } = await import("../../../crawler/worker");
    return crawlAccount(f.services, secondId.get(key)!, "cli");
  };

  it.each(["discuz-1", "weibo-1"])("%s: the second account stores no second row and is a source of every post and reply", async (key) => {
    const first = await f.crawl(key);
    expect(first.errors).toEqual([]);
    expect(first.newPosts).toBeGreaterThan(6);
    const a = f.ids.get(key)!;
    const b = secondId.get(key)!;
    const before = await f.t.db.post.count();
    const second = await crawlSecond(key);
    expect(second.errors).toEqual([]);
    expect(second.status).toBe("ok");
    expect({ new: second.newPosts, changed: second.changedPosts }).toEqual({ new: 0, changed: 0 });
    expect(await f.t.db.post.count()).toBe(before);

    const posts = await f.t.db.post.findMany({ where: { accountId: a }, include: { sources: { select: { accountId: true } } } });
    expect(posts.length).toBe(first.newPosts);
    // Every post and reply the site shows for the account is listed under both accounts.
    const expected = f.expected(key);
    expect(new Set(posts.map((p) => p.platformId))).toEqual(new Set(expected.keys()));
    const lonely = posts
      .filter(
        (p) =>
          p.sources
            .map((s) => s.accountId)
            .sort()
            .join() !== [a, b].sort().join(),
      )
      .map((p) => p.platformId);
    expect(lonely).toEqual([]);
    expect(await f.t.db.post.count({ where: { accountId: b } })).toBe(0);
    // Every stored row knows its site.
    expect(new Set(posts.map((p) => p.siteKey)).size).toBe(1);
    expect(posts[0]!.siteKey).toMatch(new RegExp(`^${key.split("-")[0]}:http://127\\.0\\.0\\.1:\\d+`));
  });

  it("is classified once and flagged once", async () => {
    const post = await f.t.db.post.findFirstOrThrow({ where: { platformId: flaggedPid }, include: { flags: true, classifications: true } });
    expect(post.flags).toHaveLength(1);
    expect(post.classifications).toHaveLength(1);
    // The two crawls of the board: only the first handed the post to the classifier.
    expect(classified.flat().filter((id) => id === post.id)).toHaveLength(1);
    expect(await f.t.db.unclassifiedPost.count()).toBe(0);
  });

  it("is listed under both accounts, flagged list and posts list alike", async () => {
    for (const key of ["discuz-1", "weibo-1"]) {
      const ids = async (accountId: number, flagged: boolean) =>
        (await listPostsPage(f.t.db, { flagged, accountId }, { take: 500 })).rows.map((r) => r.id).sort((x, y) => x - y);
      const a = f.ids.get(key)!;
      const b = secondId.get(key)!;
      expect((await ids(a, false)).length).toBeGreaterThan(6);
      expect(await ids(b, false)).toEqual(await ids(a, false));
      expect(await ids(b, true)).toEqual(await ids(a, true));
    }
    const flagged = (await listPostsPage(f.t.db, { flagged: true, accountId: secondId.get("discuz-1")! })).rows;
    expect(flagged.map((r) => r.title)).toContain("考场作弊");
    // The row names the account that stored it first.
    expect(flagged[0]!.account.id).toBe(f.ids.get("discuz-1"));
  });

  it("shows its other sources on the detail, and exports one record with both", async () => {
    const post = await f.t.db.post.findFirstOrThrow({ where: { platformId: flaggedPid } });
    const detail = (await getPostDetail(f.t.db, post.id))!;
    expect(detail.sources.map((s) => s.account.id)).toEqual([f.ids.get("discuz-1"), secondId.get("discuz-1")]);

    let all = "";
    for await (const chunk of exportPosts(f.t.db, { format: "jsonl" })) all += chunk;
    const records = all
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { platformId: string; accountUrl: string; sources: { accountId: number; accountUrl: string }[] });
    expect(records.length).toBe(await f.t.db.post.count());
    const mine = records.filter((r) => r.platformId === flaggedPid);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.accountUrl).toBe(f.site.entryUrl("discuz-1"));
    expect(mine[0]!.sources.map((s) => s.accountId)).toEqual([f.ids.get("discuz-1"), secondId.get("discuz-1")]);

    // `export --account` of the second account: every post it reached, once each.
    let second = "";
    for await (const chunk of exportPosts(f.t.db, { format: "csv", accountId: secondId.get("discuz-1")! })) second += chunk;
    const lines = second.trim().split("\r\n");
    expect(lines[0]!.endsWith(",flags,sources,incidentId")).toBe(true);
    expect(lines.length - 1).toBe(await f.t.db.post.count({ where: { accountId: f.ids.get("discuz-1")! } }));
  });

  it("an edit seen by the second account is one new version, classified once more", async () => {
    f.site.clock.advance(60_000);
    f.site.editPost(flaggedLocalId, { text: "有人在期末考试作弊被抓，已通报。" });
    // An edited head post does not move a thread up the list: the re-check window reopens it.
    await f.t.db.account.update({ where: { id: secondId.get("discuz-1")! }, data: { recheckDays: 365 } });
    const before = classified.length;
    const run = await crawlSecond("discuz-1");
    expect(run.errors).toEqual([]);
    const post = await f.t.db.post.findFirstOrThrow({ where: { platformId: flaggedPid }, include: { flags: true } });
    expect(post.version).toBe(2);
    expect(post.accountId).toBe(f.ids.get("discuz-1"));
    expect(post.flags).toHaveLength(1);
    expect(
      classified
        .slice(before)
        .flat()
        .filter((id) => id === post.id),
    ).toHaveLength(1);
    expect(await f.t.db.post.count({ where: { platformId: flaggedPid } })).toBe(1);
  });

  it("deleting the first account keeps what the second reached, with the roll-ups moved to it", async () => {
    const a = f.ids.get("discuz-1")!;
    const b = secondId.get("discuz-1")!;
    const mine = await f.t.db.post.count({ where: { accountId: a } });
    const flags = await f.t.db.flag.count({ where: { post: { accountId: a } } });
    // Every post of the board was reached by both: none is removed with the first.
    expect((await removeAccount(f.t.db, a, CLI_ACTOR)).posts).toBe(0);
    expect(await f.t.db.post.count({ where: { accountId: b } })).toBe(mine);
    expect(await f.t.db.postSource.count({ where: { accountId: a } })).toBe(0);
    const post = await f.t.db.post.findFirstOrThrow({ where: { platformId: flaggedPid }, include: { flags: true, sources: true } });
    expect(post.flags).toHaveLength(1);
    expect(post.sources.map((s) => s.accountId)).toEqual([b]);
    const sum = async (table: string, id: number) =>
      Number((await f.t.db.$queryRaw<{ n: unknown }[]>`SELECT coalesce(sum("n"), 0) AS "n" FROM ${Prisma.raw(`"${table}"`)} WHERE "accountId" = ${id}`)[0]!.n);
    expect(await sum("post_day_stats", b)).toBe(mine);
    expect(await sum("post_day_stats", a)).toBe(0);
    expect(await sum("flag_day_stats", b)).toBe(flags);
    // Deleting the last source removes the posts, as before.
    expect((await removeAccount(f.t.db, b, CLI_ACTOR)).posts).toBe(mine);
    expect(await f.t.db.post.count({ where: { platformId: flaggedPid } })).toBe(0);
  });
});

describe("two stores of the same new post at once", () => {
  it("leave one row with both accounts as sources", async () => {
    const t = await createTestDb();
    // A second client on PostgreSQL, where the two transactions really run side by side (a
    // SQLite file takes one writer at a time: the one client's transactions queue).
    const other = t.kind === "postgresql" ? createDb(t.url) : t.db;
    try {
      const a = await createAccount(t.db, { url: "https://tieba.baidu.com/f?kw=%E6%B5%8B%E8%AF%95", fetchMode: "http" }, CLI_ACTOR);
      const b = await createAccount(t.db, { url: "https://tieba.baidu.com/f?kw=%E5%8F%A6%E4%B8%80", fetchMode: "http" }, CLI_ACTOR);
      const now = new Date("2026-11-20T08:00:00Z");
      const items = Array.from({ length: 20 }, (_, i) =>
        prepareItem({
          platformId: String(9_000_000 + i),
          kind: "post",
          url: `https://tieba.baidu.com/p/${9_000_000 + i}`,
          title: `帖子${i}`,
          author: "甲",
          publishedAt: now,
          html: `<p>内容${i}</p>`,
        }),
      );
      const [x, y] = await Promise.all([storePage(t.db, a.id, items, now), storePage(other, b.id, items, now)]);
      expect(x.created.length + y.created.length).toBe(20);
      expect(await t.db.post.count()).toBe(20);
      expect(await t.db.postSource.count()).toBe(40);
      expect(await t.db.post.count({ where: { siteKey: "tieba" } })).toBe(20);
    } finally {
      if (other !== t.db) await other.$disconnect();
      await t.cleanup();
    }
  });
});

describe("the migration on a database that already holds posts", () => {
  const kind = testDbKind();
  const migrations = migrationNames(kind);
  const target = "20261201040000_post_sources";
  const dir = path.resolve(__dirname, "../../..", kind === "postgresql" ? "prisma/postgresql/migrations" : "prisma/migrations");
  const sqlOf = (name: string) => fs.readFileSync(path.join(dir, name, "migration.sql"), "utf8");

  it("keys existing posts, gives each its account as source, and keeps duplicates apart", async () => {
    const before = migrations.slice(0, migrations.indexOf(target));
    expect(before.length).toBeGreaterThan(0);
    // The posts of a database from before this migration: two boards of one installation that
    // both stored thread t7 (a duplicate), and a Weibo post.
    const legacy = [
      `INSERT INTO "Account" ("id", "platform", "entryUrl", "name", "updatedAt") VALUES
        (1, 'discuz', 'http://bbs.example.edu.cn/forum.php?mod=forumdisplay&fid=2', 'b2', '2026-11-01T00:00:00.000+00:00'),
        (2, 'discuz', 'http://bbs.example.edu.cn/forum.php?mod=forumdisplay&fid=3', 'b3', '2026-11-01T00:00:00.000+00:00'),
        (3, 'weibo', 'https://weibo.com/u/1234567890', 'w', '2026-11-01T00:00:00.000+00:00')`,
      `INSERT INTO "Post" ("accountId", "platformId", "url", "publishedAt", "text", "sha1", "firstSeenAt", "lastSeenAt") VALUES
        (1, 't7', 'http://bbs.example.edu.cn/forum.php?mod=viewthread&tid=7', '2026-11-02T00:00:00.000+00:00', 'a', 'x', '2026-11-02T00:00:00.000+00:00', '2026-11-02T00:00:00.000+00:00'),
        (1, 't8', 'http://bbs.example.edu.cn/forum.php?mod=viewthread&tid=8', '2026-11-02T00:00:00.000+00:00', 'b', 'y', '2026-11-02T00:00:00.000+00:00', '2026-11-02T00:00:00.000+00:00'),
        (2, 't7', 'http://bbs.example.edu.cn/forum.php?mod=viewthread&tid=7', '2026-11-02T00:00:00.000+00:00', 'a', 'x', '2026-11-02T00:00:00.000+00:00', '2026-11-02T00:00:00.000+00:00'),
        (3, '4900000000000001', 'https://weibo.com/1234567890/x', '2026-11-02T00:00:00.000+00:00', 'c', 'z', '2026-11-02T00:00:00.000+00:00', '2026-11-02T00:00:00.000+00:00')`,
    ];
    const { url, run, close } = await emptyDatabase(kind);
    try {
      for (const name of before) await run(sqlOf(name));
      for (const sql of legacy) await run(sql);
      await run(sqlOf(target));
      const first = await backfillSiteKeys(url);
      expect(first).toEqual({ keyed: 3, leftApart: 1 });
      // Idempotent: the next `db migrate` finds nothing more to key.
      expect(await backfillSiteKeys(url)).toEqual({ keyed: 0, leftApart: 1 });
      // Then the migrations after it, as `db migrate` goes on: the client and the store below
      // are today's, and read and write every column.
      for (const name of migrations.slice(migrations.indexOf(target) + 1)) await run(sqlOf(name));

      const db = createDb(url);
      try {
        const posts = await db.post.findMany({ orderBy: { id: "asc" }, include: { sources: true } });
        expect(posts.map((p) => [p.accountId, p.platformId, p.siteKey])).toEqual([
          [1, "t7", "discuz:http://bbs.example.edu.cn/"],
          [1, "t8", "discuz:http://bbs.example.edu.cn/"],
          [2, "t7", ""],
          [3, "4900000000000001", "weibo"],
        ]);
        expect(posts.map((p) => p.sources.map((s) => s.accountId))).toEqual([[1], [1], [2], [3]]);
        // Crawling on: board 3's own copy of t7 is still its own (updated, not a third row), and
        // t8 listed by board 3 is the site's post, now under both boards.
        const now = new Date("2026-11-21T00:00:00Z");
        const item = (pid: string, text: string) =>
          prepareItem({
            platformId: pid,
            kind: "post",
            url: `http://bbs.example.edu.cn/forum.php?mod=viewthread&tid=${pid.slice(1)}`,
            title: "",
            author: "",
            publishedAt: new Date("2026-11-02T00:00:00Z"),
            html: text,
          });
        const out = await storePage(db, 2, [item("t7", "a"), item("t8", "b")], now);
        expect(out.created).toEqual([]);
        expect(out.linked).toEqual([posts[1]!.id]);
        expect(await db.post.count()).toBe(4);
        expect((await db.postSource.findMany({ where: { postId: posts[1]!.id }, orderBy: { accountId: "asc" } })).map((s) => s.accountId)).toEqual([1, 2]);
      } finally {
        await db.$disconnect();
      }
    } finally {
      await close();
    }
  });
});

/** A new, empty database of the suite's kind, with a way to run SQL files on it. */
async function emptyDatabase(kind: "sqlite" | "postgresql"): Promise<{ url: string; run: (sql: string) => Promise<void>; close: () => Promise<void> }> {
  if (kind === "postgresql") {
    const name = `cw_mig_${crypto.randomBytes(6).toString("hex")}`;
    await pgAdmin((c) => c.query(`CREATE DATABASE ${name}`));
    const url = pgDatabaseUrl(name);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    return {
      url,
      run: async (sql) => void (await client.query(sql)),
      close: async () => {
        await client.end();
        await pgAdmin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
      },
    };
  }
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "cw-mig-"));
  const file = path.join(tmp, "old.db");
  const Database = createRequire(import.meta.url)("better-sqlite3") as typeof import("better-sqlite3");
  const conn = new Database(file);
  return {
    url: `file:${file}`,
    run: async (sql) => void conn.exec(sql),
    close: async () => {
      conn.close();
      fs.rmSync(tmp, { recursive: true, force: true });
    },
  };
}
