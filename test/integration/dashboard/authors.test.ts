/**
 * Author pages (server/authors.ts) and `campuswatch posts export --author` on a real database:
 * one author id on Tieba writing on two bars under two names, the same id on Weibo (another
 * person: ids mean one person on one platform), a Weibo author of their own, flags and incidents.
 * The CLI runs as a user runs it (the built bin/campuswatch.mjs). SQLite by default; PostgreSQL
 * with CAMPUSWATCH_TEST_DB=postgresql.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db";
import { getAuthorPage } from "@/server/authors";
import { listPostsPage, parsePostFilter } from "@/server/posts";
import { runCli } from "../../support/cli";
import { createTestDb, type TestDb } from "../../support/db";
import { createIncident } from "../../support/incidents";

let t: TestDb;
let dir = "";
let env: NodeJS.ProcessEnv;
const ids = {} as Record<"aliceThread" | "aliceLater" | "aliceReply" | "bobThread" | "carolWeibo" | "aliceOnWeibo" | "anonymous", number>;
let incidentId = 0;
let candidateId = 0;
let topicId = 0;

const at = (iso: string) => new Date(`2026-12-0${iso}Z`);

async function account(db: Db, platform: string, entryUrl: string, name: string) {
  return (await db.account.create({ data: { platform, entryUrl, name } })).id;
}

async function post(
  db: Db,
  o: { accountId: number; n: number; author: string; authorId: string; publishedAt: Date; parentId?: number; deletedAt?: Date },
): Promise<number> {
  const row = await db.post.create({
    data: {
      accountId: o.accountId,
      platformId: `p${o.n}`,
      url: `http://127.0.0.1:9/p/${o.n}`,
      title: o.parentId ? "" : `帖子 ${o.n}`,
      text: `第 ${o.n} 条`,
      author: o.author,
      authorId: o.authorId,
      kind: o.parentId ? "reply" : "post",
      parentId: o.parentId ?? null,
      publishedAt: o.publishedAt,
      firstSeenAt: new Date(o.publishedAt.getTime() + 60_000),
      lastSeenAt: new Date(o.publishedAt.getTime() + 3_600_000),
      deletedAt: o.deletedAt ?? null,
      sha1: `sha-${o.n}`,
    },
  });
  return row.id;
}

beforeAll(async () => {
  t = await createTestDb();
  const { db } = t;
  const barA = await account(db, "tieba", "http://127.0.0.1:9/f?kw=a", "南苑吧");
  const barB = await account(db, "tieba", "http://127.0.0.1:9/f?kw=b", "北苑吧");
  const weibo = await account(db, "weibo", "http://127.0.0.1:9/u/1", "校园微博");
  ids.bobThread = await post(db, { accountId: barB, n: 1, author: "阿波", authorId: "tb.1.bob", publishedAt: at("1T01:00:00") });
  ids.aliceThread = await post(db, { accountId: barA, n: 2, author: "小爱", authorId: "tb.1.alice", publishedAt: at("1T02:00:00") });
  ids.aliceLater = await post(db, {
    accountId: barA,
    n: 3,
    author: "爱丽丝",
    authorId: "tb.1.alice",
    publishedAt: at("2T02:00:00"),
    deletedAt: at("2T05:00:00"),
  });
  ids.aliceReply = await post(db, { accountId: barB, n: 4, author: "爱丽丝", authorId: "tb.1.alice", publishedAt: at("3T02:00:00"), parentId: ids.bobThread });
  ids.anonymous = await post(db, { accountId: barB, n: 5, author: "匿名", authorId: "", publishedAt: at("3T03:00:00"), parentId: ids.bobThread });
  ids.carolWeibo = await post(db, { accountId: weibo, n: 6, author: "卡罗", authorId: "1001", publishedAt: at("1T03:00:00") });
  // The same id on another platform is another person.
  ids.aliceOnWeibo = await post(db, { accountId: weibo, n: 7, author: "同名", authorId: "tb.1.alice", publishedAt: at("4T03:00:00") });

  topicId = (await db.topic.create({ data: { name: "食堂" } })).id;
  const other = (await db.topic.create({ data: { name: "考试" } })).id;
  await db.flag.createMany({
    data: [
      { postId: ids.aliceThread, topicId, reasons: "[]", score: 0.9, status: "open" },
      { postId: ids.aliceReply, topicId, reasons: "[]", score: 0.8, status: "confirmed" },
      { postId: ids.aliceReply, topicId: other, reasons: "[]", score: 0.7, status: "dismissed" },
      { postId: ids.carolWeibo, topicId, reasons: "[]", score: 0.9, status: "open" },
    ],
  });
  incidentId = await createIncident(db, { postIds: [ids.aliceThread, ids.carolWeibo], title: "二食堂饭菜异物" });
  // A candidate is not an incident yet: the author page does not name it.
  candidateId = await createIncident(db, { postIds: [ids.aliceLater], status: "candidate", title: "候选" });

  dir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-authors-"));
  env = { ...process.env, DATABASE_URL: t.url, CAMPUSWATCH_DATA_DIR: path.join(dir, "data") };
});
afterAll(async () => {
  await t.cleanup();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("the author page query", () => {
  it("sums up one author on one platform: counts, first and last seen, names, accounts, flags, incidents, posts newest first", async () => {
    const a = await getAuthorPage(t.db, { platform: "tieba", authorId: "tb.1.alice" });
    expect(a).not.toBeNull();
    expect(a!).toMatchObject({ posts: 2, replies: 1, deleted: 1 });
    expect(a!.firstPublishedAt).toEqual(at("1T02:00:00"));
    expect(a!.lastPublishedAt).toEqual(at("3T02:00:00"));
    expect(a!.firstSeenAt).toEqual(at("1T02:01:00"));
    expect(a!.lastSeenAt).toEqual(at("3T03:00:00"));
    expect(a!.names).toEqual([
      { name: "爱丽丝", count: 2, lastUsedAt: at("3T02:00:00") },
      { name: "小爱", count: 1, lastUsedAt: at("1T02:00:00") },
    ]);
    expect(a!.accounts.map((x) => [x.name, x.count])).toEqual([
      ["南苑吧", 2],
      ["北苑吧", 1],
    ]);
    expect(a!.flags).toEqual({ open: 1, confirmed: 1, dismissed: 1 });
    expect(a!.flagsByTopic.map((f) => [f.topicName, f.counts])).toEqual([
      ["考试", { open: 0, confirmed: 0, dismissed: 1 }],
      ["食堂", { open: 1, confirmed: 1, dismissed: 0 }],
    ]);
    expect(a!.incidents).toEqual([{ id: incidentId, title: "二食堂饭菜异物", status: "open", lastSeenAt: expect.any(Date), posts: 1 }]);
    expect(a!.incidents.map((i) => i.id)).not.toContain(candidateId);
    expect(a!.page.rows.map((r) => r.id)).toEqual([ids.aliceReply, ids.aliceLater, ids.aliceThread]);
    expect(a!.page.rows[0]!.flags.map((f) => f.status).sort()).toEqual(["confirmed", "dismissed"]);
  });

  it("pages newest first with the list's cursors", async () => {
    const first = await listPostsPage(t.db, { flagged: false, platform: "tieba", authorId: "tb.1.alice" }, { take: 2 });
    expect(first.rows.map((r) => r.id)).toEqual([ids.aliceReply, ids.aliceLater]);
    expect(first.older).not.toBeNull();
    const [ms, id] = first.older!.split(".").map(Number);
    const next = await getAuthorPage(t.db, { platform: "tieba", authorId: "tb.1.alice" }, { after: { publishedAt: new Date(ms!), id: id! } });
    expect(next!.page.rows.map((r) => r.id)).toEqual([ids.aliceThread]);
    expect(next!.posts).toBe(2); // the summary is the author's, not the page's
  });

  it("keeps platforms apart and knows no author without posts", async () => {
    const weibo = await getAuthorPage(t.db, { platform: "weibo", authorId: "tb.1.alice" });
    expect(weibo!.page.rows.map((r) => r.id)).toEqual([ids.aliceOnWeibo]);
    expect(weibo!).toMatchObject({ posts: 1, replies: 0, flags: { open: 0, confirmed: 0, dismissed: 0 }, incidents: [] });
    const carol = await getAuthorPage(t.db, { platform: "weibo", authorId: "1001" });
    expect(carol!.incidents.map((i) => i.id)).toEqual([incidentId]);
    expect(await getAuthorPage(t.db, { platform: "tieba", authorId: "1001" })).toBeNull();
    expect(await getAuthorPage(t.db, { platform: "discuz", authorId: "tb.1.alice" })).toBeNull();
  });

  it("the post lists take ?platform=&author= (the page's flag links), and ignore an author without a platform", async () => {
    const openFlags = parsePostFilter({ platform: "tieba", author: "tb.1.alice", review: "open" }, true).filter;
    expect((await listPostsPage(t.db, openFlags)).rows.map((r) => r.id)).toEqual([ids.aliceThread]);
    const noPlatform = parsePostFilter({ author: "tb.1.alice" }, false).filter;
    expect(noPlatform.authorId).toBeUndefined();
    expect((await listPostsPage(t.db, noPlatform)).rows).toHaveLength(7);
  });
});

describe("campuswatch posts export --author", () => {
  const exported = async (...args: string[]) => {
    const r = await runCli(["posts", "export", ...args], { cwd: dir, env });
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    return r.out
      .trim()
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { platform: string; platformId: string; author: string; authorId: string; kind: string });
  };

  it("exports only that author's posts and replies on that platform, with the other filters", async () => {
    const alice = await exported("--author", "tieba:tb.1.alice");
    expect(alice.map((r) => r.platformId)).toEqual(["p2", "p3", "p4"]);
    expect(new Set(alice.map((r) => `${r.platform}:${r.authorId}`))).toEqual(new Set(["tieba:tb.1.alice"]));
    expect(alice.map((r) => r.author)).toEqual(["小爱", "爱丽丝", "爱丽丝"]);
    expect((await exported("--author", "tieba:tb.1.alice", "--flagged")).map((r) => r.platformId)).toEqual(["p2", "p4"]);
    expect((await exported("--author", "tieba:tb.1.alice", "--deleted")).map((r) => r.platformId)).toEqual(["p3"]);
    expect((await exported("--author", "weibo:tb.1.alice")).map((r) => r.platformId)).toEqual(["p7"]);
    expect(await exported("--author", "discuz:1001")).toEqual([]);
  });

  it("refuses a malformed --author in one line", async () => {
    for (const [value, message] of [
      ["tb.1.alice", /--author must be PLATFORM:ID with PLATFORM one of .* \(got tb\.1\.alice\)/],
      ["douban:1", /--author must be PLATFORM:ID/],
      ["tieba:", /--author needs the author's id after "tieba:"/],
    ] as const) {
      const r = await runCli(["posts", "export", "--author", value], { cwd: dir, env });
      expect(r.code, value).not.toBe(0);
      expect(r.err.trim().split("\n"), value).toHaveLength(1);
      expect(r.err, value).toMatch(message);
    }
  });
});
