/**
 * Incidents on a real database (SQLite, and PostgreSQL in the PostgreSQL pass): the figures the
 * seed's memberships give, the dashboard's list and incident queries, and the reviewer's merge,
 * split, rename, handle, reopen and dismiss — each with its action row, its figures recomputed,
 * and the rows clustering must respect afterwards (pinned members, locked titles, forwards).
 */
import { describe, expect, it } from "vitest";
import { computeIncidentFigures } from "../../../crawler/incidents/figures";
import { IncidentReviewError, mergeIncidents, renameIncident, setIncidentStatus, splitIncident } from "../../../crawler/incidents/review";
import type { Db } from "../../../lib/db";
import { getIncident, incidentHistory, listIncidents, parseIncidentFilter, risingIncidents } from "../../../server/incidents";
import { testDbs } from "../../support/db";
import { seedIncidents } from "../../support/incidents-seed";

const openDb = testDbs();
const NOW = new Date("2026-11-20T06:30:00Z");
const HOUR = 3_600_000;

async function reviewer(db: Db) {
  return db.user.create({ data: { username: "审核员", passwordHash: "x", role: "reviewer" } });
}

async function refusal(p: Promise<unknown>): Promise<string> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(IncidentReviewError);
  return (e as IncidentReviewError).code;
}

describe("incident figures", () => {
  it("counts threads, authors, accounts, platforms in order reached, replies, flags and negative posts; picks the representative post", async () => {
    const { db } = await openDb();
    const s = await seedIncidents(db, { now: NOW });
    const row = await db.incident.findUniqueOrThrow({ where: { id: s.canteen.id } });
    const [w1, , t1] = s.canteen.posts;
    expect(row).toMatchObject({
      size: 6,
      // The Weibo post, its repost (a post of its own), the Tieba thread with its two replies, the forum post.
      threadCount: 4,
      authorCount: 6,
      accountCount: 3,
      platforms: JSON.stringify(["weibo", "tieba", "discuz"]),
      platformCount: 3,
      // The Weibo post's own count (5) plus the Tieba thread's two stored replies (more than its count of 1).
      replyCount: 7,
      flaggedCount: 2,
      negativeCount: 4,
      representativePostId: t1,
      topicId: s.topicId,
    });
    expect(row.firstSeenAt).toEqual(new Date(NOW.getTime() - 10 * HOUR));
    expect(row.lastSeenAt).toEqual(new Date(NOW.getTime() - HOUR));
    expect(w1).toBeTypeOf("number");
    // A dismissed flag does not count.
    await db.flag.updateMany({ where: { postId: t1 }, data: { status: "dismissed" } });
    await setIncidentStatus(db, { incidentId: s.canteen.id, move: "handle", userId: null });
    expect((await db.incident.findUniqueOrThrow({ where: { id: s.canteen.id } })).flaggedCount).toBe(1);
  });

  it("has no members: zeros and no dates (the pure function)", () => {
    expect(computeIncidentFigures([])).toMatchObject({ size: 0, threadCount: 0, platforms: [], firstSeenAt: null, representativePostId: null, topicId: null });
  });
});

describe("incident queries", () => {
  it("lists open and handled incidents by heat, filters by status, topic, platform, negative share and time, with a trend per incident", async () => {
    const { db } = await openDb();
    const s = await seedIncidents(db, { now: NOW });
    const ids = async (sp: Record<string, string>) => (await listIncidents(db, parseIncidentFilter(sp), NOW)).rows.map((r) => r.id);
    expect(await ids({})).toEqual([s.canteen.id, s.exam.id, s.canteen2.id, s.hostile.id]);
    expect(await ids({ status: "candidate" })).toEqual([s.candidate.id]);
    expect(await ids({ status: "all" })).toEqual([s.canteen.id, s.candidate.id, s.exam.id, s.canteen2.id, s.hostile.id]);
    expect(await ids({ status: "nonsense" })).toEqual(await ids({}));
    expect(await ids({ topic: String(s.topicId) })).toEqual([s.canteen.id]);
    expect(await ids({ platform: "weibo" })).toEqual([s.canteen.id, s.exam.id, s.hostile.id]);
    expect(await ids({ platform: "discuz" })).toEqual([s.canteen.id, s.canteen2.id, s.hostile.id]);
    // 4 of 6, 1 of 3, 1 of 2, 1 of 2 negative.
    expect(await ids({ neg: "50" })).toEqual([s.canteen.id, s.canteen2.id, s.hostile.id]);
    expect(await ids({ neg: "75" })).toEqual([]);
    expect(await ids({ since: "24h" })).toEqual([s.canteen.id, s.canteen2.id, s.hostile.id]);
    expect(await ids({ since: "7d" })).toEqual(await ids({}));

    const { rows, total, pages } = await listIncidents(db, parseIncidentFilter({}), NOW);
    expect({ total, pages }).toEqual({ total: 4, pages: 1 });
    const canteen = rows[0]!;
    expect(canteen).toMatchObject({
      title: "t 二食堂食品安全",
      bursting: true,
      platforms: ["weibo", "tieba", "discuz"],
      keywords: ["二食堂", "拉肚子", "食品安全"],
      topicName: "事件测试-t",
      trendBucket: "hour",
    });
    // Hourly from 10 h ago to 1 h ago (NOW is at :30, so 10 buckets): posts 10, 9, 6, 5, 4 and 1 h ago.
    expect(canteen.trend).toEqual([1, 1, 0, 0, 1, 1, 1, 0, 0, 1]);
    // Crawled text comes back as stored: the page renders it as text.
    expect(rows.find((r) => r.id === s.hostile.id)?.title).toBe(`<img src=x onerror="alert('incident-title')"> t 实验楼火警`);
  });

  it("shows one incident: members with why they joined, flags, versions and sentiment; the timeline by platform; the representative post", async () => {
    const { db } = await openDb();
    const s = await seedIncidents(db, { now: NOW });
    const d = await getIncident(db, s.canteen.id);
    expect(d).not.toBeNull();
    const [w1, w2, t1] = s.canteen.posts;
    expect(d!.members.map((m) => m.post.id)).toEqual(s.canteen.posts);
    expect(d!.members[1]).toMatchObject({
      reason: "link",
      score: 1,
      matchedPostId: w1,
      pinned: false,
      post: { id: w2, sentiment: "negative", versions: 0, flagged: false },
    });
    expect(d!.members[0]!.post).toMatchObject({ flagged: true, flags: [{ status: "open", topic: { name: "事件测试-t" } }] });
    expect(d!.representative).toMatchObject({ id: t1, title: "t 二食堂食物中毒？" });
    expect(d!.timelineBucket).toBe("hour");
    const totals = { weibo: 0, tieba: 0, discuz: 0 };
    for (const p of d!.timeline) for (const k of Object.keys(totals) as (keyof typeof totals)[]) totals[k] += Number(p[k]);
    expect(totals).toEqual({ weibo: 2, tieba: 3, discuz: 1 });
    expect(await getIncident(db, 999_999)).toBeNull();
  });

  it("rises: incidents with posts in the last 24 hours, bursting first, with their recent post count", async () => {
    const { db } = await openDb();
    const s = await seedIncidents(db, { now: NOW });
    const rising = await risingIncidents(db, NOW);
    expect(rising.map((r) => [r.id, r.recent])).toEqual([
      [s.canteen.id, 6],
      [s.canteen2.id, 2],
      [s.hostile.id, 2],
    ]);
  });
});

describe("reviewer actions", () => {
  it("merges: members move and are pinned with their reasons, the other incident forwards, figures and history follow", async () => {
    const { db } = await openDb();
    const s = await seedIncidents(db, { now: NOW });
    const user = await reviewer(db);
    expect(await mergeIncidents(db, { intoId: s.canteen.id, fromId: s.canteen2.id, userId: user.id, note: "同一件事" })).toEqual({ moved: 2 });
    const into = await db.incident.findUniqueOrThrow({ where: { id: s.canteen.id } });
    const from = await db.incident.findUniqueOrThrow({ where: { id: s.canteen2.id } });
    expect(into).toMatchObject({ size: 8, threadCount: 6, negativeCount: 5, keywords: JSON.stringify(["二食堂", "拉肚子", "食品安全", "食堂", "卫生"]) });
    expect(from).toMatchObject({ status: "merged", mergedIntoId: s.canteen.id, size: 0, platformCount: 0, representativePostId: null });
    const moved = await db.incidentPost.findMany({ where: { postId: { in: s.canteen2.posts } }, orderBy: { postId: "asc" } });
    expect(moved.map((m) => [m.incidentId, m.reason, m.pinned, m.matchedPostId])).toEqual([
      [s.canteen.id, "seed", true, null],
      [s.canteen.id, "similar", true, s.canteen2.posts[0]],
    ]);
    // The untouched members are not pinned.
    expect((await db.incidentPost.findUniqueOrThrow({ where: { postId: s.canteen.posts[0]! } })).pinned).toBe(false);
    const actions = await db.incidentAction.findMany();
    expect(actions).toHaveLength(1);
    expect(actions[0]).toMatchObject({ incidentId: s.canteen.id, userId: user.id, kind: "merge", note: "同一件事" });
    expect(JSON.parse(actions[0]!.detail)).toEqual({ from: s.canteen2.id, into: s.canteen.id, postIds: s.canteen2.posts, fromTitle: "t 食堂卫生" });
    // Both pages show the merge, with who did it.
    for (const id of [s.canteen.id, s.canteen2.id]) expect((await incidentHistory(db, id)).map((a) => [a.kind, a.user])).toEqual([["merge", "审核员"]]);
    expect(await incidentHistory(db, s.exam.id)).toEqual([]);

    // Refusals write nothing.
    expect(await refusal(mergeIncidents(db, { intoId: s.exam.id, fromId: s.exam.id, userId: user.id }))).toBe("sameIncident");
    expect(await refusal(mergeIncidents(db, { intoId: s.exam.id, fromId: s.canteen2.id, userId: user.id }))).toBe("wrongState");
    expect(await refusal(mergeIncidents(db, { intoId: s.exam.id, fromId: 999_999, userId: user.id }))).toBe("notFound");
    expect(await db.incidentAction.count()).toBe(1);

    // Merging the kept incident on makes the earlier one forward to the end of the chain.
    await mergeIncidents(db, { intoId: s.exam.id, fromId: s.canteen.id, userId: user.id });
    expect((await db.incident.findUniqueOrThrow({ where: { id: s.canteen2.id } })).mergedIntoId).toBe(s.exam.id);
    expect((await db.incident.findUniqueOrThrow({ where: { id: s.exam.id } })).size).toBe(11);
  });

  it("splits chosen members into a new pinned incident with a derived title and the keywords they contain", async () => {
    const { db } = await openDb();
    const s = await seedIncidents(db, { now: NOW });
    const user = await reviewer(db);
    const d1 = s.canteen.posts[5]!;
    const { newIncidentId } = await splitIncident(db, { incidentId: s.canteen.id, postIds: [d1], userId: user.id, note: "论坛帖另说" });
    const created = await db.incident.findUniqueOrThrow({ where: { id: newIncidentId } });
    expect(created).toMatchObject({
      status: "open",
      title: "t 关于二食堂食品安全的讨论",
      titleLocked: false,
      size: 1,
      platforms: JSON.stringify(["discuz"]),
      representativePostId: d1,
    });
    expect(JSON.parse(created.keywords)).toEqual(["二食堂", "食品安全"]);
    expect(await db.incidentPost.findUniqueOrThrow({ where: { postId: d1 } })).toMatchObject({
      incidentId: newIncidentId,
      reason: "reviewer",
      pinned: true,
      score: null,
      matchedPostId: null,
    });
    const source = await db.incident.findUniqueOrThrow({ where: { id: s.canteen.id } });
    expect(source).toMatchObject({ size: 5, platforms: JSON.stringify(["weibo", "tieba"]), accountCount: 2 });
    expect(source.lastSeenAt).toEqual(new Date(NOW.getTime() - 4 * HOUR));
    for (const id of [s.canteen.id, newIncidentId])
      expect((await incidentHistory(db, id)).map((a) => [a.kind, a.detail.from, a.detail.into, a.detail.postIds])).toEqual([
        ["split", s.canteen.id, newIncidentId, [d1]],
      ]);

    // With a title: locked. Refused: all members, none, a post of another incident.
    const titled = await splitIncident(db, { incidentId: s.canteen.id, postIds: s.canteen.posts.slice(3, 5), title: "  寝室反映  ", userId: user.id });
    expect(await db.incident.findUniqueOrThrow({ where: { id: titled.newIncidentId } })).toMatchObject({
      title: "寝室反映",
      titleLocked: true,
      size: 2,
      threadCount: 1,
    });
    expect(await refusal(splitIncident(db, { incidentId: s.canteen.id, postIds: s.canteen.posts.slice(0, 3), userId: user.id }))).toBe("keepOne");
    expect(await refusal(splitIncident(db, { incidentId: s.canteen.id, postIds: [], userId: user.id }))).toBe("notMembers");
    expect(await refusal(splitIncident(db, { incidentId: s.canteen.id, postIds: [s.exam.posts[0]!], userId: user.id }))).toBe("notMembers");
    expect(await db.incident.count()).toBe(7);
    expect(await db.incidentAction.count()).toBe(2);
  });

  it("renames (locking the title), marks handled, reopens and dismisses, each once with its action row", async () => {
    const { db } = await openDb();
    const s = await seedIncidents(db, { now: NOW });
    const user = await reviewer(db);
    await renameIncident(db, { incidentId: s.canteen.id, title: " 二食堂集体腹泻 ", userId: user.id });
    expect(await db.incident.findUniqueOrThrow({ where: { id: s.canteen.id } })).toMatchObject({ title: "二食堂集体腹泻", titleLocked: true });
    expect(await refusal(renameIncident(db, { incidentId: s.canteen.id, title: "   ", userId: user.id }))).toBe("emptyTitle");

    await setIncidentStatus(db, { incidentId: s.canteen.id, move: "handle", userId: user.id, note: "后勤处已回应" });
    const handled = await db.incident.findUniqueOrThrow({ where: { id: s.canteen.id } });
    expect(handled.status).toBe("handled");
    expect(handled.handledAt).toBeInstanceOf(Date);
    expect(await refusal(setIncidentStatus(db, { incidentId: s.canteen.id, move: "handle", userId: user.id }))).toBe("wrongState");
    await setIncidentStatus(db, { incidentId: s.canteen.id, move: "reopen", userId: user.id });
    expect(await db.incident.findUniqueOrThrow({ where: { id: s.canteen.id } })).toMatchObject({ status: "open", handledAt: null });

    // Not one incident: its posts stay with it (clustering leaves them alone); it can be reopened.
    await setIncidentStatus(db, { incidentId: s.canteen2.id, move: "dismiss", userId: user.id });
    expect((await db.incident.findUniqueOrThrow({ where: { id: s.canteen2.id } })).status).toBe("dismissed");
    expect(await db.incidentPost.count({ where: { incidentId: s.canteen2.id } })).toBe(2);
    expect(await refusal(mergeIncidents(db, { intoId: s.canteen.id, fromId: s.canteen2.id, userId: user.id }))).toBe("wrongState");
    expect(await refusal(splitIncident(db, { incidentId: s.canteen2.id, postIds: [s.canteen2.posts[0]!], userId: user.id }))).toBe("wrongState");
    await setIncidentStatus(db, { incidentId: s.canteen2.id, move: "reopen", userId: user.id });

    const history = await incidentHistory(db, s.canteen.id);
    expect(history.map((a) => [a.kind, a.user, a.note])).toEqual([
      ["reopen", "审核员", ""],
      ["handle", "审核员", "后勤处已回应"],
      ["rename", "审核员", ""],
    ]);
    expect(history[2]!.detail).toEqual({ oldTitle: "t 二食堂食品安全", newTitle: "二食堂集体腹泻" });
    expect((await incidentHistory(db, s.canteen2.id)).map((a) => a.kind)).toEqual(["reopen", "dismiss"]);
  });
});
