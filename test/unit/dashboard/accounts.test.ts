import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { accountFormSchema, createAccount, deletionImpact, deletionImpacts, listAccountStatus, platformProblem } from "@/server/accounts";
import { createTestDb, type TestDb } from "../../support/db";
import { CLI_ACTOR } from "../../../lib/audit";

describe("platformProblem", () => {
  test.each([
    ["https://weibo.com/u/1234567890", undefined, null],
    ["https://weibo.com/hot", undefined, "unknown URL shape for a Weibo user"],
    ["https://tieba.baidu.com/f?kw=北江大学", undefined, null],
    ["https://tieba.baidu.com/p/123", undefined, "unknown URL shape for a Tieba bar"],
    ["https://bbs.x.edu.cn/forum.php?mod=forumdisplay&fid=2", undefined, null],
    ["https://bbs.x.edu.cn/forum-2-1.html", undefined, null],
    ["https://blog.x.edu.cn/someone/", undefined, null],
    ["http://127.0.0.1:4000/u/1234567", undefined, null],
    ["https://blog.x.edu.cn/someone/", "weibo", "unknown URL shape for a Weibo user"],
    ["https://tieba.baidu.com/f?kw=a", "blog", null],
    ["ftp://x.cn/", undefined, "only http and https"],
    ["not a url", undefined, "not a valid URL"],
  ] as const)("%s as %s", (url, platform, expected) => {
    const problem = platformProblem(url, platform);
    if (expected === null) expect(problem).toBeNull();
    else expect(problem).toContain(expected);
  });
});

describe("accountFormSchema", () => {
  test("a preset interval is its cron expression", () => {
    const r = accountFormSchema.safeParse({ url: "https://weibo.com/u/1234567890", interval: "*/10 * * * *", platform: "auto" });
    expect(r.success && r.data).toEqual({ url: "https://weibo.com/u/1234567890", platform: undefined, name: undefined, cron: "*/10 * * * *" });
  });
  test.each([
    ["61 * * * *", "invalid cron expression"],
    ["* * *", "must have 5 fields"],
    ["", "enter a cron expression"],
  ])("a custom interval %j is refused on the cron field", (cron, message) => {
    const r = accountFormSchema.safeParse({ url: "https://weibo.com/u/1234567890", interval: "custom", cron });
    expect(r.success).toBe(false);
    const issue = r.error!.issues.find((i) => i.path[0] === "cron");
    expect(issue?.message).toContain(message);
  });
  test("a bad URL shape is refused on the url field", () => {
    const r = accountFormSchema.safeParse({ url: "https://weibo.com/hot", interval: "0 * * * *" });
    expect(r.error!.issues.map((i) => i.path[0])).toEqual(["url"]);
  });
});

describe("account status", () => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createTestDb();
  });
  afterEach(async () => {
    await t.cleanup();
  });

  test("counts posts, open flags, runs and errors per account from the roll-ups", async () => {
    const { db } = t;
    const a = await createAccount(db, { url: "https://tieba.baidu.com/f?kw=测试", cron: "*/15 * * * *" }, CLI_ACTOR);
    const topic = await db.topic.create({ data: { name: "考试" } });
    const now = new Date();
    const p = await db.post.create({ data: { accountId: a.id, platformId: "1", url: "u1", publishedAt: now, text: "作弊", sha1: "x" } });
    await db.post.create({ data: { accountId: a.id, platformId: "2", url: "u2", publishedAt: now, text: "回复", sha1: "y", kind: "reply", parentId: p.id } });
    await db.flag.create({ data: { postId: p.id, topicId: topic.id, reasons: "[]", score: 1 } });
    await db.crawlRun.create({ data: { accountId: a.id, status: "partial", startedAt: now, finishedAt: now, errorCount: 2, blocks: 1 } });
    const [s] = await listAccountStatus(db, now);
    expect(s).toMatchObject({ id: a.id, postCount: 2, openFlags: 1, runs7d: 1, errors7d: 2, blocks7d: 1, lastRun: { status: "partial" } });
    expect(s!.nextRunAt!.getTime()).toBeGreaterThan(now.getTime());
    expect(await deletionImpact(db, a.id)).toEqual({ posts: 1, replies: 1, flags: 1, reviewed: 0, runs: 1 });
    // The table asks for every account at once (three grouped queries, not three per account).
    const b = await createAccount(db, { url: "https://tieba.baidu.com/f?kw=另一个", cron: "*/15 * * * *" }, CLI_ACTOR);
    const impacts = await deletionImpacts(db, [a.id, b.id]);
    expect(impacts.get(a.id)).toEqual({ posts: 1, replies: 1, flags: 1, reviewed: 0, runs: 1 });
    expect(impacts.get(b.id)).toEqual({ posts: 0, replies: 0, flags: 0, reviewed: 0, runs: 0 });
  });

  test("runs and errors count over the last 7 Shanghai days, today included", async () => {
    const { db } = t;
    const a = await createAccount(db, { url: "https://tieba.baidu.com/f?kw=测试", cron: "*/15 * * * *" }, CLI_ACTOR);
    // 04:00 on 1 December in Shanghai; the week is 25 November to 1 December, Shanghai days.
    const now = new Date("2026-11-30T20:00:00Z");
    const run = (at: string, errorCount: number) =>
      db.crawlRun.create({ data: { accountId: a.id, status: "partial", startedAt: new Date(at), finishedAt: new Date(at), errorCount } });
    await run("2026-11-24T15:59:00Z", 100); // 24 November 23:59 in Shanghai: a day too old
    await run("2026-11-24T16:00:00Z", 1); // 25 November 00:00 in Shanghai: the first day of the week
    await run("2026-11-30T19:00:00Z", 2); // today
    const [s] = await listAccountStatus(db, now);
    expect(s).toMatchObject({ runs7d: 2, errors7d: 3 });
  });
});
