/**
 * The dashboard side of issue 13 on a real database: replies threaded under what they answer
 * (Tieba 楼中楼 under their floor) with bounds for huge threads, the chain a reply answers,
 * deleted / incomplete / author-id on list rows and in both exports, the deletions chart's counts,
 * and a run's unreadable-field warnings.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { getPostDetail, listPostsPage, parsePostFilter } from "@/server/posts";
import { loadReplyTree } from "@/server/posts-replies";
import { exportFilteredPosts, exportPosts } from "@/server/export";
import { deletionsPerDay } from "@/server/charts";
import { getRun, listRunsPage, runWarnings } from "@/server/runs";
import { createTestDb, type TestDb } from "../../support/db";

let t: TestDb;
const ids: Record<string, number> = {};
const T0 = Date.parse("2026-11-20T02:00:00Z");
const at = (minutes: number) => new Date(T0 + minutes * 60_000);
const NOTICED = new Date("2026-11-28T03:30:00Z"); // 2026-11-28 11:30 in Asia/Shanghai

beforeAll(async () => {
  t = await createTestDb();
  const { db } = t;
  const tieba = await db.account.create({ data: { platform: "tieba", entryUrl: "https://tieba.baidu.com/f?kw=%E6%B5%8B%E8%AF%95", name: "测试吧" } });
  const weibo = await db.account.create({ data: { platform: "weibo", entryUrl: "https://weibo.com/u/1234567", name: "某大学" } });
  const topic = await db.topic.create({ data: { name: "考试" } });
  ids.tieba = tieba.id;
  ids.topic = topic.id;
  let n = 0;
  const post = (data: {
    accountId?: number;
    platformId: string;
    kind?: string;
    parentId?: number | null;
    author?: string;
    authorId?: string;
    text?: string;
    minutes?: number;
    deletedAt?: Date | null;
    incomplete?: boolean;
    title?: string;
  }) =>
    db.post.create({
      data: {
        accountId: data.accountId ?? tieba.id,
        platformId: data.platformId,
        kind: data.kind ?? "reply",
        parentId: data.parentId ?? null,
        url: `https://tieba.baidu.com/p/1001?pid=${data.platformId}`,
        title: data.title ?? "",
        author: data.author ?? "",
        authorId: data.authorId ?? "",
        publishedAt: at(data.minutes ?? n++),
        text: data.text ?? `text ${data.platformId}`,
        sha1: `sha-${data.platformId}`,
        deletedAt: data.deletedAt ?? null,
        incomplete: data.incomplete ?? false,
      },
    });
  // A Tieba thread: floors answer the thread, 楼中楼 answer their floor.
  const thread = await post({ platformId: "1001", kind: "post", title: "期末考试 求助", author: "小 明", authorId: "tb.1.abc", minutes: 0 });
  ids.thread = thread.id;
  const floor2 = await post({ platformId: "2002", parentId: thread.id, author: "路人甲", authorId: "tb.1.def", minutes: 10 });
  const floor3 = await post({ platformId: "2003", parentId: thread.id, author: "路人乙", minutes: 20, deletedAt: NOTICED });
  ids.floor2 = floor2.id;
  ids.floor3 = floor3.id;
  // Written out of time order on purpose: the tree is oldest first on every level.
  const sub2 = await post({ platformId: "3002", parentId: floor2.id, author: "楼中楼二", minutes: 13 });
  const sub1 = await post({ platformId: "3001", parentId: floor2.id, author: "楼中楼一", minutes: 12, text: "<script>alert(1)</script> 回复 路人甲" });
  const subsub = await post({ platformId: "4001", parentId: sub1.id, author: "再回复", minutes: 14 });
  ids.sub1 = sub1.id;
  ids.sub2 = sub2.id;
  ids.subsub = subsub.id;
  await db.flag.create({ data: { postId: floor3.id, topicId: topic.id, reasons: "[]", score: 0.9 } });
  // A Weibo long post whose full text failed: stored incomplete.
  const wb = await post({ accountId: weibo.id, platformId: "M1", kind: "post", author: "某大学", authorId: "1234567", incomplete: true, minutes: 30 });
  ids.weibo = wb.id;
  // A thread deleted a day earlier (and flagged), and one deleted before the chart's range.
  const gone = await post({ platformId: "1009", kind: "post", title: "被删的帖子", minutes: 40, deletedAt: new Date("2026-11-27T01:00:00Z") });
  await db.flag.create({ data: { postId: gone.id, topicId: topic.id, reasons: "[]", score: 0.8 } });
  await post({ platformId: "1010", kind: "post", minutes: 50, deletedAt: new Date("2026-10-01T01:00:00Z") });
  ids.gone = gone.id;
});
afterAll(async () => {
  await t.cleanup();
});

describe("replies as a tree", () => {
  test("floors under the thread, 楼中楼 under their floor, oldest first on every level", async () => {
    const d = (await getPostDetail(t.db, ids.thread!))!;
    const shape = (nodes: typeof d.replies.nodes): unknown => nodes.map((r) => ({ id: r.id, replyCount: r.replyCount, children: shape(r.children) }));
    expect(shape(d.replies.nodes)).toEqual([
      {
        id: ids.floor2,
        replyCount: 2,
        children: [
          { id: ids.sub1, replyCount: 1, children: [{ id: ids.subsub, replyCount: 0, children: [] }] },
          { id: ids.sub2, replyCount: 0, children: [] },
        ],
      },
      { id: ids.floor3, replyCount: 0, children: [] },
    ]);
    expect(d.replies).toMatchObject({ shown: 5, directCount: 2 });
    const floor3 = d.replies.nodes[1]!;
    expect(floor3.deletedAt).toEqual(NOTICED);
    expect(floor3.flags).toEqual([expect.objectContaining({ status: "open", topic: { name: "考试" } })]);
    // Crawled text stays as crawled; the page sanitizes it at display time.
    expect(d.replies.nodes[0]!.children[0]!.text).toContain("<script>");
  });

  test("a floor's page shows its 楼中楼 and the chain it answers", async () => {
    const floor = (await getPostDetail(t.db, ids.floor2!))!;
    expect(floor.ancestors.map((a) => a.id)).toEqual([ids.thread]);
    expect(floor.replies.nodes.map((r) => r.id)).toEqual([ids.sub1, ids.sub2]);
    const deep = (await getPostDetail(t.db, ids.subsub!))!;
    expect(deep.ancestors.map((a) => a.id)).toEqual([ids.thread, ids.floor2, ids.sub1]);
    expect(deep.replies).toMatchObject({ nodes: [], directCount: 0 });
  });

  test("bounds: direct replies, replies per parent, depth and total", async () => {
    const few = await loadReplyTree(t.db, ids.thread!, { top: 1, perParent: 1, depth: 2, total: 100 });
    // One floor, one of its two 楼中楼, and nothing below the second level — each node still
    // counts its replies, so the page can link to the rest.
    expect(few.nodes.map((r) => r.id)).toEqual([ids.floor2]);
    expect(few.nodes[0]!.children.map((r) => r.id)).toEqual([ids.sub1]);
    expect(few.nodes[0]!.replyCount).toBe(2);
    expect(few.nodes[0]!.children[0]!).toMatchObject({ replyCount: 1, children: [] });
    expect(few).toMatchObject({ shown: 2, directCount: 2 });
    const capped = await loadReplyTree(t.db, ids.thread!, { top: 10, perParent: 10, depth: 10, total: 3 });
    expect(capped.shown).toBe(3);
    expect(capped.nodes.map((r) => r.id)).toEqual([ids.floor2, ids.floor3]);
  });

  test("a huge thread stays within the bounds, the oldest replies first", async () => {
    const { db } = t;
    const big = await db.post.create({
      data: { accountId: ids.tieba!, platformId: "big", kind: "post", url: "https://tieba.baidu.com/p/big", publishedAt: at(100), text: "big", sha1: "big" },
    });
    const floors = [];
    for (let i = 0; i < 30; i++)
      floors.push({
        accountId: ids.tieba!,
        platformId: `big-f${i}`,
        kind: "reply",
        parentId: big.id,
        url: "u",
        publishedAt: at(101 + i),
        text: `floor ${i}`,
        sha1: `f${i}`,
      });
    await db.post.createMany({ data: floors });
    const floorRows = await db.post.findMany({ where: { parentId: big.id }, orderBy: { publishedAt: "asc" } });
    const subs = [];
    for (const f of floorRows)
      for (let j = 0; j < 8; j++)
        subs.push({
          accountId: ids.tieba!,
          platformId: `${f.platformId}-s${j}`,
          kind: "reply",
          parentId: f.id,
          url: "u",
          publishedAt: new Date(f.publishedAt.getTime() + (j + 1) * 1000),
          text: `sub ${j}`,
          sha1: `s${j}`,
        });
    await db.post.createMany({ data: subs });
    const tree = await loadReplyTree(db, big.id, { top: 20, perParent: 5, depth: 4, total: 90 });
    expect(tree.directCount).toBe(30);
    expect(tree.nodes).toHaveLength(20);
    expect(tree.nodes.map((r) => r.id)).toEqual(floorRows.slice(0, 20).map((f) => f.id));
    expect(tree.shown).toBe(90);
    // The 70 second-level places went to the oldest 楼中楼 first, at most 5 per floor.
    expect(tree.nodes.every((f) => f.children.length <= 5 && f.replyCount === 8)).toBe(true);
    expect(tree.nodes.reduce((s, f) => s + f.children.length, 0)).toBe(70);
  });
});

describe("list rows and the deleted filter", () => {
  test("rows carry authorId, deletedAt and incomplete", async () => {
    const { rows } = await listPostsPage(t.db, parsePostFilter({}, false).filter, { take: 1000 });
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(ids.thread!)).toMatchObject({ author: "小 明", authorId: "tb.1.abc", deletedAt: null, incomplete: false });
    expect(byId.get(ids.floor3!)!.deletedAt).toEqual(NOTICED);
    expect(byId.get(ids.weibo!)).toMatchObject({ incomplete: true, authorId: "1234567" });
  });

  test("the flagged list filtered to deleted posts: the flagged posts a moderator removed", async () => {
    const { rows } = await listPostsPage(t.db, parsePostFilter({ deleted: "yes" }, true).filter);
    expect(rows.map((r) => r.id)).toEqual([ids.gone, ids.floor3]);
    expect(rows.every((r) => r.deletedAt !== null && r.flags.length > 0)).toBe(true);
    const online = await listPostsPage(t.db, parsePostFilter({ deleted: "no" }, false).filter, { take: 500 });
    expect(online.rows.some((r) => r.deletedAt !== null)).toBe(false);
    expect(online.rows.map((r) => r.id)).toContain(ids.thread);
  });
});

describe("export", () => {
  const read = async (gen: AsyncGenerator<string>) => {
    let s = "";
    for await (const c of gen) s += c;
    return s;
  };

  test("JSONL (the CLI's export) has author, authorId, deletedAt and incomplete", async () => {
    const lines = (await read(exportPosts(t.db, { format: "jsonl" })))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const thread = lines.find((r) => r.platformId === "1001")!;
    expect(thread).toMatchObject({ author: "小 明", authorId: "tb.1.abc", deletedAt: null, incomplete: false, parentPlatformId: null });
    expect(lines.find((r) => r.platformId === "2003")).toMatchObject({ deletedAt: NOTICED.toISOString(), parentPlatformId: "1001" });
    // A 楼中楼 names the floor it answers.
    expect(lines.find((r) => r.platformId === "3001")).toMatchObject({ parentPlatformId: "2002" });
    expect(lines.find((r) => r.platformId === "M1")).toMatchObject({ incomplete: true, authorId: "1234567" });
    // `posts export --deleted`: only what was found deleted.
    const deleted = (await read(exportPosts(t.db, { format: "jsonl", deleted: true })))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { platformId: string });
    expect(deleted.map((r) => r.platformId)).toEqual(["2003", "1009", "1010"]);
  });

  test("the dashboard's CSV follows the list filter (deleted only) and has the new columns", async () => {
    const csv = await read(exportFilteredPosts(t.db, "csv", parsePostFilter({ deleted: "yes" }, false).filter));
    const [header, ...rows] = csv
      .replace(/^\ufeff/, "")
      .trim()
      .split("\r\n");
    const cols = header!.split(",");
    expect(cols).toEqual(expect.arrayContaining(["author", "authorId", "deletedAt", "incomplete"]));
    expect(cols.indexOf("authorId")).toBe(cols.indexOf("author") + 1);
    const deletedAt = cols.indexOf("deletedAt");
    expect(rows).toHaveLength(3);
    // Newest published first, like the list.
    expect(rows.map((r) => r.split(",")[deletedAt])).toEqual(["2026-10-01T01:00:00.000Z", "2026-11-27T01:00:00.000Z", "2026-11-28T03:30:00.000Z"]);
  });
});

test("the deletions chart counts by the day the crawler noticed, per platform, with the flagged ones", async () => {
  const d = await deletionsPerDay(t.db, "2026-11-01");
  expect(d.rows.sort((a, b) => a.day.localeCompare(b.day))).toEqual([
    { day: "2026-11-27", key: "tieba", n: 1 },
    { day: "2026-11-28", key: "tieba", n: 1 },
  ]);
  expect(d).toMatchObject({ total: 2, flagged: 2 });
  expect((await deletionsPerDay(t.db, "2026-09-01")).total).toBe(3);
});

test("a run's unreadable fields: listed with URL and raw text, counted on the runs list", async () => {
  const warnings = [
    {
      at: "2026-11-28T03:00:00.000Z",
      url: "https://bbs.example.edu.cn/thread-9-1-1.html",
      field: "date",
      raw: "时间：<em>昨天</em> 25:61",
      reason: "the list's date",
    },
    { at: "2026-11-28T03:00:01.000Z", url: "https://bbs.example.edu.cn/thread-9-1-1.html", field: "author", raw: "", reason: "empty" },
  ];
  const run = await t.db.crawlRun.create({ data: { accountId: ids.tieba!, status: "ok", warningCount: 2, warnings: JSON.stringify(warnings) } });
  const detail = (await getRun(t.db, run.id))!;
  expect(detail.warningList).toEqual(warnings);
  expect(detail.warningCount).toBe(2);
  const { rows } = await listRunsPage(t.db, { account: ids.tieba });
  expect(rows.find((r) => r.id === run.id)!.warningCount).toBe(2);
  // Whatever was stored, the page gets a list of plain fields.
  expect(runWarnings("not json")).toEqual([]);
  expect(runWarnings(JSON.stringify([null, 3, { at: "yesterday", url: 5, raw: "<b>x</b>" }]))).toEqual([
    { at: undefined, url: "5", field: undefined, raw: "<b>x</b>", reason: undefined },
  ]);
});
