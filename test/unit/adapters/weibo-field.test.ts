/**
 * The Weibo adapter on the field's failure classes (issue 13): unreadable dates and odd names on
 * the real timeline capture, long text that cannot be read, deletion notices, child comments, and
 * errors that name the API URL that failed. Comment JSON here is written for these tests after
 * the shapes m.weibo.cn serves (hotflow's `data.data`, hotFlowChild's top-level `data`).
 */
import { describe, expect, test } from "vitest";
import { timeFromWeiboId, weiboAdapter, weiboGoneNotice } from "../../../crawler/adapters/weibo";
import { GoneError } from "../../../crawler/errors";
import type { AdapterContext, FieldWarning, ListItem, ThreadPage } from "../../../crawler/types";
import { collect, readReal, realAvailable, stubFetcher } from "./helpers";

const NOW_2019 = new Date("2019-06-15T04:00:00Z");
const UID = "1669879400";
const ORIGIN = "https://m.weibo.cn";
const LOOKUP = `${ORIGIN}/api/container/getIndex?type=uid&value=${UID}`;
const TIMELINE = `${LOOKUP}&containerid=107603${UID}`;
const END = JSON.stringify({ ok: 0, msg: "这里还没有内容", data: { cards: [] } });

/** A context that keeps the warnings it is given. */
function warnContext(fetch: ReturnType<typeof stubFetcher>, now = NOW_2019): AdapterContext & { warnings: FieldWarning[] } {
  const warnings: FieldWarning[] = [];
  return {
    account: { id: 1, entryUrl: `${ORIGIN}/u/${UID}`, platform: "weibo", fetchMode: "http" },
    fetch,
    now,
    log: () => {},
    warn: (w) => warnings.push(w),
    warnings,
  };
}

/** A long post as the list shows it (cut, with 全文). */
const LONG: ListItem = {
  platformId: "4383183661430868",
  kind: "post",
  url: `${ORIGIN}/detail/4383183661430868`,
  title: "开学第一周",
  author: "某校团委",
  authorId: UID,
  publishedAt: new Date("2019-06-14T12:38:03Z"),
  html: '开学第一周...<a href="/status/HzQmWx">全文</a>',
  pinned: false,
  incomplete: true,
  hasReplies: false,
  replyCount: 0,
};
const EXTEND = `${ORIGIN}/statuses/extend?id=4383183661430868`;

describe("weiboGoneNotice: Weibo's deletion notices, and only those", () => {
  test.each([
    [{ ok: 0, msg: "微博不存在或暂无查看权限!" }, "微博不存在或暂无查看权限!"],
    [{ ok: 0, msg: "该微博已被删除" }, "该微博已被删除"],
    [
      { ok: 1, data: { id: 1, deleted: "1", text: "抱歉，此微博已被作者删除。查看帮助：<a href='x'>http://t.cn/x</a>" } },
      "抱歉，此微博已被作者删除。查看帮助：http://t.cn/x",
    ],
    [{ ok: 0, msg: "快来发表你的评论吧" }, null],
    [{ ok: 0, msg: "抱歉，由于作者设置，你暂时没有这条微博的查看权限哦。" }, null],
    [{ ok: 1, data: { longTextContent: "全文里说：该微博已被删除的传言不实" } }, null],
    [{ ok: -100, url: "https://passport.weibo.cn/signin" }, null],
  ])("%j → %s", (answer, notice) => {
    const got = weiboGoneNotice(answer);
    expect(got === null ? null : got.replace(/<[^>]+>/g, "")).toBe(notice);
  });
});

describe("timeFromWeiboId", () => {
  test("reads the creation second out of a status id; refuses ids that hold none", () => {
    expect(timeFromWeiboId("4383183661430868", NOW_2019)?.toISOString()).toBe("2019-06-14T12:38:03.000Z");
    expect(timeFromWeiboId("12345", NOW_2019)).toBeNull();
    expect(timeFromWeiboId("4383183661430868", new Date("2019-01-01T00:00:00Z"))).toBeNull(); // after "now"
  });
});

describe.skipIf(!realAvailable)("one bad field on the real timeline never loses the page", () => {
  test("an unreadable date is warned about with the raw text and the post kept, dated by its id; names are collapsed", async () => {
    const page = JSON.parse(readReal("weibo_m_getIndex_107603_timeline.json")) as {
      data: { cards: { mblog?: Record<string, unknown> & { user: Record<string, unknown> } }[] };
    };
    const first = page.data.cards[0]!.mblog!;
    first["created_at"] = "发布于 不知道什么时候";
    first.user["screen_name"] = "  Dear-迪丽热巴\n\u3000 ";
    const second = page.data.cards[1]!.mblog!;
    delete second["created_at"];
    const fetch = stubFetcher({ [TIMELINE]: JSON.stringify(page), [`${TIMELINE}&page=2`]: END });
    const ctx = warnContext(fetch);
    const items = (await collect(weiboAdapter.list(ctx))).flatMap((p) => p.items);
    expect(items).toHaveLength(10);
    expect(items[0]).toMatchObject({ platformId: "4383183661430868", author: "Dear-迪丽热巴", authorId: UID });
    expect(items[0]!.publishedAt.toISOString()).toBe("2019-06-14T12:38:03.000Z");
    expect(Number.isNaN(items[1]!.publishedAt.getTime())).toBe(false);
    expect(ctx.warnings.map((w) => [w.url, w.field, w.raw])).toEqual([
      [TIMELINE, "date", "发布于 不知道什么时候"],
      [TIMELINE, "date", ""],
    ]);
    expect(ctx.warnings[0]!.reason).toMatch(/id/);
  });
});

describe("complete(): a long post is never dropped", () => {
  test("extend answers without longTextContent: the list text comes back marked incomplete, warned with the extend URL", async () => {
    const fetch = stubFetcher({ [EXTEND]: JSON.stringify({ ok: 1, data: { ok: 1, reposts_count: 0 } }) });
    const ctx = warnContext(fetch);
    const out = await weiboAdapter.complete!(ctx, LONG);
    expect(out).toMatchObject({ platformId: LONG.platformId, html: LONG.html, textIncomplete: true, author: "某校团委", authorId: UID });
    expect("pinned" in out || "incomplete" in out).toBe(false);
    expect(ctx.warnings).toEqual([expect.objectContaining({ url: EXTEND, field: "body" })]);
  });

  test("extend fails (HTTP 404 here): same, and the warning carries the error", async () => {
    const ctx = warnContext(stubFetcher({}));
    const out = await weiboAdapter.complete!(ctx, LONG);
    expect(out.textIncomplete).toBe(true);
    expect(ctx.warnings[0]).toMatchObject({ url: EXTEND, field: "body" });
    expect(ctx.warnings[0]!.raw).toContain("HTTP 404");
  });

  test("extend says the post was deleted: GoneError naming the extend URL", async () => {
    const ctx = warnContext(stubFetcher({ [EXTEND]: JSON.stringify({ ok: 0, msg: "微博不存在或暂无查看权限!" }) }));
    const err = await weiboAdapter.complete!(ctx, LONG).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GoneError);
    expect((err as GoneError).url).toBe(EXTEND);
    expect((err as GoneError).message).toContain("微博不存在或暂无查看权限");
  });
});

const MID = "4383183661430868";
const HOTFLOW = `${ORIGIN}/comments/hotflow?id=${MID}&mid=${MID}&max_id_type=0`;
const child = (id: string, name: string, text: string, at = "Sat Jun 15 09:00:00 +0800 2019") => ({
  created_at: at,
  id: Number(id),
  idstr: id,
  rootid: 4383190000000001,
  text,
  user: { id: 7000000000 + Number(id.slice(-3)), screen_name: name },
});
const comment = (id: string, extra: Record<string, unknown> = {}) => ({
  ...child(id, " 小 明 ", `评论${id}`, "Fri Jun 14 21:00:00 +0800 2019"),
  mid: id,
  floor_number: 1,
  ...extra,
});

describe("comments and child comments", () => {
  const withChildren = comment("4383190000000001", {
    total_number: 3,
    comments: [child("4383190000000101", "甲", "回复1"), child("4383190000000102", "乙", "回复2")],
    more_info: { text: "共3条回复" },
  });
  const previewed = comment("4383190000000002", { total_number: 1, comments: [child("4383190000000201", "丙", "唯一回复", "坏日期")] });
  const none = comment("4383190000000003", { total_number: 0, comments: false });
  const CHILD1 = `${ORIGIN}/comments/hotFlowChild?cid=4383190000000001&max_id=0&max_id_type=0`;
  const CHILD2 = `${ORIGIN}/comments/hotFlowChild?cid=4383190000000001&max_id=4383190000000103&max_id_type=0`;
  const routes = {
    [HOTFLOW]: JSON.stringify({ ok: 1, data: { data: [withChildren, previewed, none], total_number: 8, max_id: 0, max_id_type: 0 } }),
    [CHILD1]: JSON.stringify({
      ok: 1,
      data: [child("4383190000000101", "甲", "回复1"), child("4383190000000102", "乙", "回复2")],
      total_number: 3,
      max_id: 4383190000000103,
      max_id_type: 0,
      rootComment: [withChildren],
    }),
    [CHILD2]: JSON.stringify({
      ok: 1,
      data: [child("4383190000000103", "丁", "回复3")],
      total_number: 3,
      max_id: 0,
      max_id_type: 0,
      rootComment: [withChildren],
    }),
  };
  const thread: ListItem = { ...LONG, platformId: MID, url: `${ORIGIN}/detail/${MID}`, hasReplies: true, replyCount: 8, incomplete: false };

  test("a complete preview is used as is; a cut one is read through hotFlowChild pages; parents are the comments", async () => {
    const fetch = stubFetcher(routes);
    const ctx = warnContext(fetch);
    const pages: ThreadPage[] = await collect(weiboAdapter.replies!(ctx, thread, null));
    expect(fetch.requests.map((r) => [r.url, r.kind])).toEqual([
      [HOTFLOW, "item"],
      [CHILD1, "item"],
      [CHILD2, "item"],
    ]);
    expect(pages.map((p) => p.url)).toEqual([HOTFLOW, CHILD1, CHILD2]);
    const all = pages.flatMap((p) => p.replies);
    const parentOf = Object.fromEntries(all.map((r) => [r.platformId, r.parentPlatformId]));
    expect(parentOf).toEqual({
      "4383190000000001": MID,
      "4383190000000002": MID,
      "4383190000000003": MID,
      "4383190000000201": "4383190000000002",
      "4383190000000101": "4383190000000001",
      "4383190000000102": "4383190000000001",
      "4383190000000103": "4383190000000001",
    });
    // The parent comes before its children (the store links a reply to a parent already stored).
    expect(pages[0]!.replies.map((r) => r.platformId).indexOf("4383190000000002")).toBeLessThan(
      pages[0]!.replies.map((r) => r.platformId).indexOf("4383190000000201"),
    );
    expect(all.find((r) => r.platformId === "4383190000000001")).toMatchObject({ author: "小 明", authorId: "7000000001", kind: "reply" });
    expect(all.find((r) => r.platformId === "4383190000000103")).toMatchObject({ author: "丁", html: "回复3" });
    // A child comment's unreadable date: warned, dated by the comment it answers.
    const bad = all.find((r) => r.platformId === "4383190000000201")!;
    expect(bad.publishedAt.toISOString()).toBe("2019-06-14T13:00:00.000Z");
    expect(ctx.warnings).toEqual([expect.objectContaining({ url: HOTFLOW, field: "date", raw: "坏日期" })]);
  });

  test("a failing child page is a warning with the hotFlowChild URL; the children read stay, the flow is marked missed (issue 30 item 2)", async () => {
    const { [CHILD2]: _gone, ...partial } = routes;
    const fetch = stubFetcher(partial);
    const ctx = warnContext(fetch);
    const pages = await collect(weiboAdapter.replies!(ctx, thread, null));
    expect(pages.map((p) => [p.url, p.missed ?? false])).toEqual([
      [HOTFLOW, false],
      [CHILD1, false],
      // The preview's children were read on CHILD1 already: nothing more to keep, but the page says so.
      [HOTFLOW, true],
    ]);
    expect(pages[2]!.replies).toEqual([]);
    expect(ctx.warnings).toEqual([
      expect.objectContaining({ url: HOTFLOW, field: "date" }),
      expect.objectContaining({ url: CHILD2, field: "comments", raw: expect.stringContaining("NonRetryableError") }),
    ]);
  });

  test("a child request failing at once keeps the preview's children under their comment", async () => {
    const { [CHILD1]: _gone, ...partial } = routes;
    const fetch = stubFetcher(partial);
    const ctx = warnContext(fetch);
    const pages = await collect(weiboAdapter.replies!(ctx, thread, null));
    expect(pages.map((p) => p.url)).toEqual([HOTFLOW, HOTFLOW]);
    expect(pages[1]).toMatchObject({ missed: true });
    expect(pages[1]!.replies.map((r) => [r.platformId, r.parentPlatformId])).toEqual([
      ["4383190000000101", "4383190000000001"],
      ["4383190000000102", "4383190000000001"],
    ]);
    expect(ctx.warnings.at(-1)).toMatchObject({ url: CHILD1, field: "comments" });
  });

  test("hotflow saying the post was deleted is a GoneError naming the hotflow URL", async () => {
    const fetch = stubFetcher({ [HOTFLOW]: JSON.stringify({ ok: 0, msg: "该微博已被删除" }) });
    const err = await collect(weiboAdapter.replies!(warnContext(fetch), thread, null)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GoneError);
    expect((err as GoneError).url).toBe(HOTFLOW);
  });

  test("hotflow's 'no comments yet' is not a deletion", async () => {
    const fetch = stubFetcher({ [HOTFLOW]: JSON.stringify({ ok: 0, msg: "快来发表你的评论吧" }) });
    expect(await collect(weiboAdapter.replies!(warnContext(fetch), thread, null))).toEqual([]);
  });
});
