/**
 * The Weibo adapter through the real worker and store against the local m.weibo.cn (issue 13):
 * long posts whose full text fails are kept incomplete and completed later (item 4), errors and
 * warnings name the API URL that failed (item 5), child comments are stored once under their
 * comment (item 8), authors are the screen name with the uid beside it (item 3), and Weibo's
 * deletion notice is told apart from a failure (item 9, detection).
 *
 * Issue 30 item 1: the full text read from `statuses/extend` survives any later failure of the
 * same run (its comments failing with 404, 429 or a timeout): no cut `…全文` excerpt replaces it
 * and no version is added. An excerpt is stored only when nothing better exists (extend failed),
 * marked incomplete, and the next run completes it in place — a completion, not an edit by the
 * author, so no version either.
 */
import { afterEach, describe, expect, test } from "vitest";
import { weiboAdapter } from "../../../crawler/adapters/weibo";
import { GoneError, RetryableError } from "../../../crawler/errors";
import { createFetcher, HostScheduler } from "../../../crawler/fetch";
import { htmlToText } from "../../../crawler/text";
import type { ListItem } from "../../../crawler/types";
import { addWeiboChildComment } from "../../support/platforms/weibo";
import type { Fault } from "../../support/platforms";
import { crawlFixture, type CrawlFixture } from "../crawl/support";
import { all, contextFor, firstPage, localFetcher } from "./helpers";

let f: CrawlFixture | undefined;
afterEach(async () => {
  await f?.close();
  f = undefined;
});

const MINUTE = 60_000;
const weiboOnly = {
  accounts: { weibo: 1, tieba: 0, discuz: 0, blog: 0 },
  postsPerAccount: 6,
  repliesPerPost: [0, 2] as const,
  longTextRatio: 0,
  weiboDates: "rfc" as const,
};

async function postRow(fx: CrawlFixture, platformId: string) {
  return fx.t.db.post.findFirstOrThrow({ where: { accountId: fx.ids.get("weibo-1")!, platformId } });
}

describe("item 4: a long post whose full text fails is stored incomplete and completed by a later crawl", () => {
  const failures: [string, Fault][] = [
    ["HTTP 500 (after the retry)", { type: "status", status: 500 }],
    ["ok: 0", { type: "body", body: JSON.stringify({ ok: 0, msg: "请求过于频繁，歇歇吧" }), contentType: "application/json; charset=utf-8" }],
    [
      "ok: -100 (a block)",
      { type: "body", body: JSON.stringify({ ok: -100, url: "https://passport.weibo.cn/signin/welcome" }), contentType: "application/json; charset=utf-8" },
    ],
  ];
  test.each(failures)("%s", async (_name, fault) => {
    f = await crawlFixture({ seed: 5, ...weiboOnly });
    f.site.clock.advance(MINUTE);
    const post = f.site.addPost("weibo-1", { long: true });
    f.site.clock.advance(MINUTE);
    const extendPath = `/statuses/extend?id=${post.id}`;
    const handle = f.site.fault(extendPath, fault);

    const r1 = await f.crawl("weibo-1");
    expect(handle.hits).toBeGreaterThan(0);
    const cut = await postRow(f, post.id);
    expect(cut).toMatchObject({ incomplete: true, version: 1 });
    expect(cut.text).toContain("全文");
    expect(cut.text.length).toBeLessThan(htmlToText(post.html).length);
    // The run names the API URL that failed, not the post's page.
    expect(r1.warnings).toEqual([expect.objectContaining({ url: f.site.origin + extendPath, field: "body" })]);
    expect(r1.newPosts).toBeGreaterThan(0);

    handle.clear();
    f.site.clock.advance(MINUTE);
    const r2 = await f.crawl("weibo-1");
    expect(r2.warnings).toEqual([]);
    const whole = await postRow(f, post.id);
    expect(whole).toMatchObject({ incomplete: false, version: 1, text: htmlToText(post.html.replace(/<\/p><p>/g, "<br />")) });
    expect(await f.t.db.postVersion.count({ where: { postId: whole.id } })).toBe(0);

    // Complete now: a third crawl of the unchanged site changes nothing and asks no full text.
    const mark = f.site.lastSeq();
    f.site.clock.advance(MINUTE);
    const r3 = await f.crawl("weibo-1");
    expect(r3).toMatchObject({ newPosts: 0, changedPosts: 0 });
    expect(f.site.requests({ afterSeq: mark }).filter((r) => r.path === "/statuses/extend")).toEqual([]);
  });
});

describe("item 4: an incomplete post deep in the timeline", () => {
  test("is reached and completed by the next crawl although newer pages are unchanged", async () => {
    f = await crawlFixture({ seed: 9, ...weiboOnly, postsPerAccount: 2, pinOldest: false, pageSizes: { weibo: 3 } });
    const { site } = f;
    site.clock.advance(MINUTE);
    const long = site.addPost("weibo-1", { long: true });
    for (let k = 0; k < 4; k++) {
      site.clock.advance(MINUTE);
      site.addPost("weibo-1", { text: `通知${k + 1}` });
    }
    site.clock.advance(MINUTE);
    const handle = site.fault(`/statuses/extend?id=${long.id}`, { type: "status", status: 500 });
    await f.crawl("weibo-1");
    expect(await postRow(f, long.id)).toMatchObject({ incomplete: true });

    handle.clear();
    site.clock.advance(MINUTE);
    const r2 = await f.crawl("weibo-1");
    expect(r2.newPosts).toBe(0);
    expect(await postRow(f, long.id)).toMatchObject({ incomplete: false, version: 1 });
  });
});

describe("item 8 and 3: child comments are stored once, under the comment they answer; authors as shown", () => {
  test("a cut preview is read through hotFlowChild, a complete one is not; new children are picked up", async () => {
    f = await crawlFixture({ seed: 6, ...weiboOnly, repliesPerPost: [0, 0], pageSizes: { weiboComments: 2 } });
    const { site } = f;
    site.clock.advance(MINUTE);
    const post = site.addPost("weibo-1", { text: "宿舍今晚停电检修，请提前充电" });
    site.clock.advance(MINUTE);
    const a = site.addReply(post.id, { text: "几点恢复？", author: "小 明" });
    site.clock.advance(MINUTE);
    const b = site.addReply(post.id, { text: "收到", author: "阿强" });
    const childrenOfA = [];
    for (let k = 1; k <= 5; k++) {
      site.clock.advance(MINUTE);
      childrenOfA.push(addWeiboChildComment(site.model, a.id, { text: `回复${k}` }));
    }
    site.clock.advance(MINUTE);
    const onlyChildOfB = addWeiboChildComment(site.model, b.id, { text: "好的" });
    site.clock.advance(MINUTE);

    const mark1 = site.lastSeq();
    const r1 = await f.crawl("weibo-1");
    expect(r1.errors).toEqual([]);
    const childRequests = site.requests({ afterSeq: mark1 }).filter((r) => r.path === "/comments/hotFlowChild");
    // A: 5 children, preview of 2 → 3 pages of 2; B: 1 child, all in the preview → none.
    expect(childRequests.map((r) => new URL(r.url, site.origin).searchParams.get("cid"))).toEqual([a.id, a.id, a.id]);

    const stored = await f.stored("weibo-1");
    for (const c of childrenOfA) expect(stored.get(c.id)).toMatchObject({ kind: "reply", parentPlatformId: a.id, text: htmlToText(c.html) });
    expect(stored.get(onlyChildOfB.id)).toMatchObject({ kind: "reply", parentPlatformId: b.id });
    expect(stored.get(a.id)).toMatchObject({ parentPlatformId: post.id });
    const rowA = await postRow(f, a.id);
    expect(rowA.author).toBe("小 明");
    expect(rowA.authorId).toMatch(/^\d+$/);
    const rowPost = await postRow(f, post.id);
    expect(rowPost).toMatchObject({ author: site.account("weibo-1").name, authorId: site.account("weibo-1").slug });

    // Unchanged: nothing new, nothing changed, no comment requests at all.
    const mark2 = site.lastSeq();
    site.clock.advance(MINUTE);
    const r2 = await f.crawl("weibo-1");
    expect(r2).toMatchObject({ newPosts: 0, changedPosts: 0 });
    expect(site.requests({ afterSeq: mark2 }).filter((r) => r.path.startsWith("/comments/"))).toEqual([]);

    // New children on both comments: each stored once, under its comment.
    site.clock.advance(MINUTE);
    const lateA = addWeiboChildComment(site.model, a.id, { text: "已恢复" });
    const lateB = addWeiboChildComment(site.model, b.id, { text: "谢谢" });
    site.clock.advance(MINUTE);
    const r3 = await f.crawl("weibo-1");
    expect(r3.newPosts).toBe(2);
    expect(r3.changedPosts).toBe(0);
    const after = await f.stored("weibo-1");
    expect(after.get(lateA.id)).toMatchObject({ parentPlatformId: a.id });
    expect(after.get(lateB.id)).toMatchObject({ parentPlatformId: b.id });
    const rows = await f.t.db.post.findMany({ where: { accountId: f.ids.get("weibo-1")! }, select: { platformId: true } });
    expect(new Set(rows.map((r) => r.platformId)).size).toBe(rows.length);
  });
});

describe("items 5 and 9: what failed is named by its API URL; a deletion is told apart", () => {
  test("hotflow failing: the adapter's error carries the hotflow URL, and so does the run's error", async () => {
    f = await crawlFixture({ seed: 7, ...weiboOnly });
    const { site } = f;
    site.clock.advance(MINUTE);
    const post = site.addPost("weibo-1", { text: "食堂新窗口开业" });
    site.clock.advance(MINUTE);
    site.addReply(post.id, { text: "去看看" });
    site.clock.advance(MINUTE);
    site.fault(`/comments/hotflow?id=${post.id}`, { type: "status", status: 500 });

    const fetch = localFetcher();
    try {
      const item = (await firstPage(weiboAdapter.list(contextFor(site, "weibo-1", fetch)))).items.find((i) => i.platformId === post.id) as ListItem;
      const err = await all(weiboAdapter.replies!(contextFor(site, "weibo-1", fetch), item, null)).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(RetryableError);
      expect((err as RetryableError).url).toBe(`${site.origin}/comments/hotflow?id=${post.id}&mid=${post.id}&max_id_type=0`);
    } finally {
      await fetch.close();
    }

    const run = await f.crawl("weibo-1");
    expect(run.errors.map((e) => e.url)).toEqual([`${site.origin}/comments/hotflow?id=${post.id}&mid=${post.id}&max_id_type=0`]);
  });

  test("through the worker: an incomplete long post whose full text now says 微博不存在 is marked deleted, kept", async () => {
    f = await crawlFixture({ seed: 10, ...weiboOnly });
    const { site } = f;
    site.clock.advance(MINUTE);
    const post = site.addPost("weibo-1", { long: true });
    site.clock.advance(MINUTE);
    const failing = site.fault(`/statuses/extend?id=${post.id}`, { type: "status", status: 500 });
    await f.crawl("weibo-1");
    expect(await postRow(f, post.id)).toMatchObject({ incomplete: true, deletedAt: null });
    failing.clear();
    site.fault(`/statuses/extend?id=${post.id}`, {
      type: "body",
      body: JSON.stringify({ ok: 0, msg: "微博不存在或暂无查看权限!" }),
      contentType: "application/json; charset=utf-8",
    });
    site.clock.advance(MINUTE);
    const run = await f.crawl("weibo-1");
    expect(run.errors).toEqual([]);
    const row = await postRow(f, post.id);
    expect(row.deletedAt).toBeInstanceOf(Date);
    expect(row.text).toContain("全文");
  });

  test("extend and hotflow answering Weibo's deletion notice throw GoneError naming the API URL", async () => {
    f = await crawlFixture({ seed: 8, ...weiboOnly });
    const { site } = f;
    site.clock.advance(MINUTE);
    const post = site.addPost("weibo-1", { long: true });
    site.clock.advance(MINUTE);
    site.addReply(post.id, { text: "沙发" });
    site.clock.advance(MINUTE);
    const fetch = localFetcher();
    try {
      const ctx = contextFor(site, "weibo-1", fetch);
      const item = (await firstPage(weiboAdapter.list(ctx))).items.find((i) => i.platformId === post.id) as ListItem;
      const notice = { type: "body" as const, body: JSON.stringify({ ok: 0, msg: "该微博已被删除" }), contentType: "application/json; charset=utf-8" };
      site.fault("/statuses/extend", notice);
      site.fault("/comments/hotflow", notice);
      const fromExtend = await weiboAdapter.complete!(ctx, item).catch((e: unknown) => e);
      expect(fromExtend).toBeInstanceOf(GoneError);
      expect((fromExtend as GoneError).url).toBe(`${site.origin}/statuses/extend?id=${post.id}`);
      const fromHotflow = await all(weiboAdapter.replies!(ctx, item, null)).catch((e: unknown) => e);
      expect(fromHotflow).toBeInstanceOf(GoneError);
      expect((fromHotflow as GoneError).url).toContain("/comments/hotflow?id=");
      // The local server's own answer for a status it does not have is the same notice class.
      site.clearFaults();
      const unknown = await weiboAdapter.complete!(ctx, { ...item, url: `${site.origin}/detail/4900000999999999`, platformId: "4900000999999999" }).catch(
        (e: unknown) => e,
      );
      expect(unknown).toBeInstanceOf(GoneError);
    } finally {
      await fetch.close();
    }
  });
});

/** A fetcher that gives up at once and times out after 300 ms (the slow fault waits 1.5 s). */
const impatient = {
  createFetcher: (_account: unknown, onRequest: NonNullable<Parameters<typeof createFetcher>[0]>["onRequest"]) =>
    createFetcher({
      mode: "http",
      scheduler: new HostScheduler(),
      hostDelayMs: 0,
      retries: 0,
      backoffBaseMs: 1,
      requestTimeoutMs: 300,
      onRequest,
      log: () => undefined,
    }),
};

/** The text the full post reads as once stored (extend's paragraphs become line breaks). */
function fullText(html: string): string {
  return htmlToText(html.replace(/<\/p><p>/g, "<br />"));
}

describe("issue 30 item 1: the full text survives a failed comments request", () => {
  const failures: [string, Fault][] = [
    ["404", { type: "status", status: 404 }],
    ["429", { type: "status", status: 429 }],
    ["timeout", { type: "slow", delayMs: 1500 }],
  ];
  test.each(failures)("comments answer %s: the full text is stored, no version is added", async (_name, fault) => {
    f = await crawlFixture({ seed: 31, ...weiboOnly, postsPerAccount: 3, repliesPerPost: [0, 0] }, impatient);
    const { site } = f;
    site.clock.advance(MINUTE);
    const post = site.addPost("weibo-1", { long: true });
    site.clock.advance(MINUTE);
    site.addReply(post.id, { text: "说得对" });
    site.clock.advance(MINUTE);
    const comments = site.fault(`/comments/hotflow?id=${post.id}`, fault);

    const r1 = await f.crawl("weibo-1");
    expect(comments.hits).toBeGreaterThan(0);
    // The comment request's failure is on the run, naming the hotflow URL.
    expect(r1.errors.map((e) => e.url)).toEqual([expect.stringContaining(`/comments/hotflow?id=${post.id}`)]);
    const row = await postRow(f, post.id);
    expect(row).toMatchObject({ incomplete: false, version: 1, text: fullText(post.html) });
    expect(row.text).not.toContain("全文");
    expect(await f.t.db.postVersion.count({ where: { postId: row.id } })).toBe(0);

    // The comments work again: they are read, and the post's full text is still untouched.
    comments.clear();
    site.clock.advance(MINUTE);
    const r2 = await f.crawl("weibo-1");
    expect(r2.errors).toEqual([]);
    expect(r2.changedPosts).toBe(0);
    const again = await postRow(f, post.id);
    expect(again).toMatchObject({ incomplete: false, version: 1, text: fullText(post.html) });
    expect(await f.t.db.postVersion.count({ where: { postId: row.id } })).toBe(0);
    expect(await f.t.db.post.count({ where: { accountId: f.ids.get("weibo-1")!, kind: "reply" } })).toBe(1);
  });
});

describe("issue 30 item 1: an excerpt only when nothing better exists, completed by the next run", () => {
  test("extend fails (and the comments too): the excerpt is stored incomplete; the next run completes it in place", async () => {
    f = await crawlFixture({ seed: 32, ...weiboOnly, postsPerAccount: 3, repliesPerPost: [0, 0] });
    const { site } = f;
    site.clock.advance(MINUTE);
    const post = site.addPost("weibo-1", { long: true });
    site.clock.advance(MINUTE);
    site.addReply(post.id, { text: "转发了" });
    site.clock.advance(MINUTE);
    const extend = site.fault(`/statuses/extend?id=${post.id}`, { type: "status", status: 500 });
    const comments = site.fault(`/comments/hotflow?id=${post.id}`, { type: "status", status: 404 });

    await f.crawl("weibo-1");
    const cut = await postRow(f, post.id);
    expect(cut).toMatchObject({ incomplete: true, version: 1 });
    expect(cut.text).toContain("全文");

    extend.clear();
    comments.clear();
    site.clock.advance(MINUTE);
    const r2 = await f.crawl("weibo-1");
    expect(r2.errors).toEqual([]);
    const whole = await postRow(f, post.id);
    // Completing a text the crawler knew to be cut is not an edit by its author: no version.
    expect(whole).toMatchObject({ incomplete: false, version: 1, text: fullText(post.html) });
    expect(await f.t.db.postVersion.count({ where: { postId: whole.id } })).toBe(0);
  });
});

describe("issue 30 item 2: Weibo comment flows degrade gracefully", () => {
  const failures: [string, Fault][] = [
    ["HTTP 500", { type: "status", status: 500 }],
    ["HTTP 429", { type: "status", status: 429 }],
  ];
  test.each(failures)(
    "a child-comment request failing (%s) keeps the preview, warns with its URL, and the rest of the run's comments are read",
    async (_name, fault) => {
      f = await crawlFixture({ seed: 34, ...weiboOnly, postsPerAccount: 2, repliesPerPost: [0, 0], pageSizes: { weiboComments: 2 } });
      const { site } = f;
      site.clock.advance(MINUTE);
      const first = site.addPost("weibo-1", { text: "周六运动会改到体育馆" });
      site.clock.advance(MINUTE);
      const second = site.addPost("weibo-1", { text: "选课系统今晚维护" });
      site.clock.advance(MINUTE);
      // `a` has 5 children (a preview of 2 comes with it), `b` 3: both need hotFlowChild.
      const a = site.addReply(first.id, { text: "下雨吗" });
      const b = site.addReply(first.id, { text: "几点开始" });
      const c = site.addReply(first.id, { text: "第三条评论在第二页" });
      const d = site.addReply(second.id, { text: "几点结束" });
      const kids = new Map<string, string[]>();
      for (const [parent, n] of [
        [a, 5],
        [b, 3],
        [c, 3],
        [d, 3],
      ] as const) {
        const ids: string[] = [];
        for (let k = 1; k <= n; k++) {
          site.clock.advance(MINUTE);
          ids.push(addWeiboChildComment(site.model, parent.id, { text: `回复${parent.id.slice(-3)}-${k}` }).id);
        }
        kids.set(parent.id, ids);
      }
      site.clock.advance(MINUTE);
      const failing = site.fault((u) => u.pathname === "/comments/hotFlowChild" && u.searchParams.get("cid") === a.id, fault);

      const r1 = await f.crawl("weibo-1");
      expect(failing.hits).toBeGreaterThan(0);
      expect(r1.errors).toEqual([]);
      expect(r1.status).toBe("partial");
      expect(r1.warnings).toEqual([
        expect.objectContaining({ field: "comments", url: `${site.origin}/comments/hotFlowChild?cid=${a.id}&max_id=0&max_id_type=0` }),
      ]);
      const stored = await f.stored("weibo-1");
      // The preview that came with `a` is kept; the rest of its children are not read.
      const [a1, a2, ...aRest] = kids.get(a.id)!;
      expect(stored.get(a1!)).toMatchObject({ parentPlatformId: a.id });
      expect(stored.get(a2!)).toMatchObject({ parentPlatformId: a.id });
      for (const id of aRest) expect(stored.has(id)).toBe(false);
      // Everything else of the run's comment work went on: `b`, the next hotflow page (`c`) and the other post.
      for (const parent of [b, c, d]) for (const id of kids.get(parent.id)!) expect(stored.get(id)).toMatchObject({ parentPlatformId: parent.id });
      expect(stored.get(c.id)).toMatchObject({ parentPlatformId: first.id });

      // The next run reads the post's comments again, though nothing changed on its list entry.
      failing.clear();
      site.clock.advance(MINUTE);
      const r2 = await f.crawl("weibo-1");
      expect(r2.errors).toEqual([]);
      expect(r2.warnings).toEqual([]);
      expect(r2.status).toBe("ok");
      expect(r2.newPosts).toBe(aRest.length);
      const after = await f.stored("weibo-1");
      for (const id of aRest) expect(after.get(id)).toMatchObject({ parentPlatformId: a.id, version: 1 });

      // Whole now: an unchanged site costs no comment request.
      const mark = site.lastSeq();
      site.clock.advance(MINUTE);
      const r3 = await f.crawl("weibo-1");
      expect(r3).toMatchObject({ newPosts: 0, changedPosts: 0 });
      expect(site.requests({ afterSeq: mark }).filter((r) => r.path.startsWith("/comments/"))).toEqual([]);
    },
  );

  test("one post's failed comments do not end the run's comment work for the other posts", async () => {
    f = await crawlFixture({ seed: 35, ...weiboOnly, postsPerAccount: 2, repliesPerPost: [0, 0] });
    const { site } = f;
    site.clock.advance(MINUTE);
    const older = site.addPost("weibo-1", { text: "图书馆闭馆通知" });
    site.clock.advance(MINUTE);
    const newer = site.addPost("weibo-1", { text: "食堂三楼装修" });
    site.clock.advance(MINUTE);
    const onOlder = site.addReply(older.id, { text: "知道了" });
    const onNewer = site.addReply(newer.id, { text: "那去哪吃" });
    site.clock.advance(MINUTE);
    // The newer post is listed (and its comments read) first.
    site.fault(`/comments/hotflow?id=${newer.id}`, { type: "status", status: 404 });
    const run = await f.crawl("weibo-1");
    expect(run.errors.map((e) => e.url)).toEqual([expect.stringContaining(`/comments/hotflow?id=${newer.id}`)]);
    const stored = await f.stored("weibo-1");
    expect(stored.get(site.platformIdOf(onOlder))).toMatchObject({ parentPlatformId: older.id });
    expect(stored.has(site.platformIdOf(onNewer))).toBe(false);
  });
});
