/**
 * The account and topic pages' charts (issue 33 item 7): the daily series of server/charts.ts
 * filtered to one account or one topic, on a real database with a fixed clock. Two accounts and
 * two topics share posts, flags, incidents and reviews, and every series is asserted per day and
 * key for each of them, so a filter that leaks another account's or topic's rows fails.
 * Days are Asia/Shanghai days: 15:59 and 16:01 UTC fall on different ones.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  SCOPE_CHART_RANGES,
  chartRange,
  flagsPerDay,
  incidentsPerDay,
  postsPerDay,
  rangeDays,
  reviewsPerDay,
  scopeActivity,
  type ChartScope,
} from "@/server/charts";
import { createTestDb, type TestDb } from "../../support/db";

/** 2026-11-30 12:00 in Asia/Shanghai: the seven days are 11-24 … 11-30. */
const NOW = new Date("2026-11-30T04:00:00Z");
const DAYS = rangeDays(7, NOW);
const FROM = DAYS[0]!;

let t: TestDb;
const ids = { a: 0, b: 0, t1: 0, t2: 0 };

/** Rows of (day, key, n) as { day: { key: n } }, the form the assertions are written in. */
function perDay(rows: { day: string; key: string; n: number }[]): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const r of rows) (out[r.day] ??= {})[r.key] = (out[r.day]?.[r.key] ?? 0) + r.n;
  return out;
}

beforeAll(async () => {
  t = await createTestDb();
  const { db } = t;
  const a = await db.account.create({ data: { platform: "tieba", entryUrl: "https://tieba.baidu.com/f?kw=a", name: "甲吧" } });
  const b = await db.account.create({ data: { platform: "weibo", entryUrl: "https://weibo.com/u/1", name: "乙微博" } });
  const t1 = await db.topic.create({ data: { name: "考试" } });
  const t2 = await db.topic.create({ data: { name: "食堂" } });
  Object.assign(ids, { a: a.id, b: b.id, t1: t1.id, t2: t2.id });
  const reviewer = await db.user.create({ data: { username: "r", passwordHash: "x" } });
  const post = (accountId: number, key: string, at: string, kind = "post") =>
    db.post.create({
      data: { accountId, platformId: key, url: `https://x/${key}`, publishedAt: new Date(at), text: key, sha1: key, kind },
    });
  const a1 = await post(a.id, "a1", "2026-11-23T15:59:00Z"); // 11-23 23:59: before the range
  const a2 = await post(a.id, "a2", "2026-11-23T16:01:00Z"); // 11-24 00:01
  const a3 = await post(a.id, "a3", "2026-11-26T02:00:00Z", "reply"); // 11-26
  const a4 = await post(a.id, "a4", "2026-11-26T05:00:00Z"); // 11-26
  const b1 = await post(b.id, "b1", "2026-11-24T03:00:00Z"); // 11-24
  const b2 = await post(b.id, "b2", "2026-11-29T20:00:00Z"); // 11-30 04:00

  const classify = (postId: number, topicId: number, relevant: boolean) =>
    db.classification.create({ data: { postId, topicId, score: relevant ? 0.9 : 0.1, label: relevant ? "on-topic" : "off-topic", relevant } });
  await classify(a1.id, t1.id, true);
  await classify(a2.id, t1.id, true);
  await classify(a2.id, t2.id, false);
  await classify(a3.id, t1.id, true);
  await classify(a4.id, t1.id, false);
  await classify(b1.id, t1.id, false);
  await classify(b1.id, t2.id, true);
  await classify(b2.id, t1.id, true);
  await classify(b2.id, t2.id, true);

  const flag = (postId: number, topicId: number, status: string) => db.flag.create({ data: { postId, topicId, status, reasons: "[]", score: 0.9 } });
  await flag(a1.id, t1.id, "open");
  const f1 = await flag(a2.id, t1.id, "confirmed");
  await flag(a3.id, t1.id, "open");
  const f3 = await flag(a4.id, t2.id, "dismissed");
  await flag(b1.id, t2.id, "open");
  const f5 = await flag(b2.id, t1.id, "confirmed");

  const review = (flagId: number, decision: string, at: string) =>
    db.review.create({ data: { flagId, reviewerId: reviewer.id, decision, createdAt: new Date(at) } });
  await review(f1.id, "confirm", "2026-11-23T10:00:00Z"); // 11-23: before the range
  await review(f1.id, "confirm", "2026-11-25T01:00:00Z"); // 11-25
  await review(f3.id, "confirm", "2026-11-27T15:30:00Z"); // 11-27 23:30
  await review(f3.id, "dismiss", "2026-11-27T16:30:00Z"); // 11-28 00:30: the reviewer changed their mind
  await review(f5.id, "confirm", "2026-11-30T01:00:00Z"); // 11-30

  const incident = async (status: string, topicId: number, firstSeenAt: Date, members: number[]) => {
    const i = await db.incident.create({ data: { status, topicId, firstSeenAt, lastSeenAt: NOW, size: members.length } });
    for (const postId of members) await db.incidentPost.create({ data: { incidentId: i.id, postId, reason: "similar" } });
  };
  await incident("open", t1.id, a2.publishedAt, [a2.id, a3.id, b2.id]); // both accounts, 11-24
  await incident("handled", t2.id, b1.publishedAt, [b1.id]); // 11-24
  await incident("open", t2.id, a4.publishedAt, [a4.id]); // 11-26
  await incident("open", t1.id, a1.publishedAt, [a1.id]); // began before the range
  await incident("candidate", t1.id, a4.publishedAt, []); // not shown as an incident
  await incident("merged", t2.id, b1.publishedAt, []); // folded into another
});
afterAll(async () => {
  await t.cleanup();
});

const account = (k: "a" | "b"): ChartScope => ({ accountId: ids[k] });
const topic = (k: "t1" | "t2"): ChartScope => ({ topicId: ids[k] });

describe("an account's daily series", () => {
  test("posts it stored, per publication day", async () => {
    expect(perDay(await postsPerDay(t.db, FROM, account("a")))).toEqual({ "2026-11-24": { tieba: 1 }, "2026-11-26": { tieba: 2 } });
    expect(perDay(await postsPerDay(t.db, FROM, account("b")))).toEqual({ "2026-11-24": { weibo: 1 }, "2026-11-30": { weibo: 1 } });
  });

  test("flags on its posts, per status", async () => {
    expect(perDay(await flagsPerDay(t.db, FROM, account("a"), "status"))).toEqual({
      "2026-11-24": { confirmed: 1 },
      "2026-11-26": { open: 1, dismissed: 1 },
    });
    expect(perDay(await flagsPerDay(t.db, FROM, account("b"), "status"))).toEqual({ "2026-11-24": { open: 1 }, "2026-11-30": { confirmed: 1 } });
  });

  test("incidents its posts belong to, per day they began (an incident of both accounts counts for each)", async () => {
    expect(perDay(await incidentsPerDay(t.db, FROM, account("a")))).toEqual({ "2026-11-24": { open: 1 }, "2026-11-26": { open: 1 } });
    expect(perDay(await incidentsPerDay(t.db, FROM, account("b")))).toEqual({ "2026-11-24": { open: 1, handled: 1 } });
  });

  test("reviews of flags on its posts, per day they were made", async () => {
    expect(perDay(await reviewsPerDay(t.db, FROM, account("a")))).toEqual({
      "2026-11-25": { confirm: 1 },
      "2026-11-27": { confirm: 1 },
      "2026-11-28": { dismiss: 1 },
    });
    expect(perDay(await reviewsPerDay(t.db, FROM, account("b")))).toEqual({ "2026-11-30": { confirm: 1 } });
  });
});

describe("a topic's daily series", () => {
  test("posts judged on-topic for it, per publication day and platform", async () => {
    expect(perDay(await postsPerDay(t.db, FROM, topic("t1")))).toEqual({
      "2026-11-24": { tieba: 1 },
      "2026-11-26": { tieba: 1 },
      "2026-11-30": { weibo: 1 },
    });
    expect(perDay(await postsPerDay(t.db, FROM, topic("t2")))).toEqual({ "2026-11-24": { weibo: 1 }, "2026-11-30": { weibo: 1 } });
  });

  test("its flags, per status", async () => {
    expect(perDay(await flagsPerDay(t.db, FROM, topic("t1"), "status"))).toEqual({
      "2026-11-24": { confirmed: 1 },
      "2026-11-26": { open: 1 },
      "2026-11-30": { confirmed: 1 },
    });
    expect(perDay(await flagsPerDay(t.db, FROM, topic("t2"), "status"))).toEqual({ "2026-11-24": { open: 1 }, "2026-11-26": { dismissed: 1 } });
  });

  test("its incidents, per day they began; candidates, merged ones and older ones left out", async () => {
    expect(perDay(await incidentsPerDay(t.db, FROM, topic("t1")))).toEqual({ "2026-11-24": { open: 1 } });
    expect(perDay(await incidentsPerDay(t.db, FROM, topic("t2")))).toEqual({ "2026-11-24": { handled: 1 }, "2026-11-26": { open: 1 } });
  });

  test("reviews of its flags", async () => {
    expect(perDay(await reviewsPerDay(t.db, FROM, topic("t1")))).toEqual({ "2026-11-25": { confirm: 1 }, "2026-11-30": { confirm: 1 } });
    expect(perDay(await reviewsPerDay(t.db, FROM, topic("t2")))).toEqual({ "2026-11-27": { confirm: 1 }, "2026-11-28": { dismiss: 1 } });
  });
});

describe("unscoped and together", () => {
  test("the charts page's series still count every account, per platform", async () => {
    expect(perDay(await postsPerDay(t.db, FROM))).toEqual({
      "2026-11-24": { tieba: 1, weibo: 1 },
      "2026-11-26": { tieba: 2 },
      "2026-11-30": { weibo: 1 },
    });
    expect(perDay(await flagsPerDay(t.db, FROM))).toEqual({ "2026-11-24": { tieba: 1, weibo: 1 }, "2026-11-26": { tieba: 2 }, "2026-11-30": { weibo: 1 } });
  });

  test("scopeActivity reads the four series of one scope", async () => {
    const s = await scopeActivity(t.db, FROM, topic("t2"));
    expect(perDay(s.posts)).toEqual(perDay(await postsPerDay(t.db, FROM, topic("t2"))));
    expect(perDay(s.flags)).toEqual({ "2026-11-24": { open: 1 }, "2026-11-26": { dismissed: 1 } });
    expect(perDay(s.incidents)).toEqual({ "2026-11-24": { handled: 1 }, "2026-11-26": { open: 1 } });
    expect(perDay(s.reviews)).toEqual({ "2026-11-27": { confirm: 1 }, "2026-11-28": { dismiss: 1 } });
  });

  test("an account and a topic together narrow both ways", async () => {
    const s = await scopeActivity(t.db, FROM, { accountId: ids.a, topicId: ids.t1 });
    expect(perDay(s.posts)).toEqual({ "2026-11-24": { tieba: 1 }, "2026-11-26": { tieba: 1 } });
    expect(perDay(s.flags)).toEqual({ "2026-11-24": { confirmed: 1 }, "2026-11-26": { open: 1 } });
    expect(perDay(s.incidents)).toEqual({ "2026-11-24": { open: 1 } });
    expect(perDay(s.reviews)).toEqual({ "2026-11-25": { confirm: 1 } });
  });
});

describe("the range of the pages' charts", () => {
  test("?days= picks 7, 30 or 90 days ending today in Asia/Shanghai; anything else is 30", () => {
    expect(SCOPE_CHART_RANGES.map((r) => chartRange(String(r), SCOPE_CHART_RANGES, 30))).toEqual([7, 30, 90]);
    expect([undefined, "", "365", "abc", "-7"].map((d) => chartRange(d, SCOPE_CHART_RANGES, 30))).toEqual([30, 30, 30, 30, 30]);
    expect(DAYS).toEqual(["2026-11-24", "2026-11-25", "2026-11-26", "2026-11-27", "2026-11-28", "2026-11-29", "2026-11-30"]);
    // 16:30 UTC is already the next day in Shanghai.
    expect(rangeDays(7, new Date("2026-11-30T16:30:00Z")).at(-1)).toBe("2026-12-01");
  });
});
