/**
 * Tieba end to end through the worker and the store, against the local tieba.baidu.com:
 * 楼中楼 stored once under the floor they answer, printed names with portrait ids, one bad floor
 * field warned about while the page is kept, a failed 楼中楼 request named by its URL without
 * losing the floors, and unchanged re-crawls that change nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { LocalPost } from "../../support/platforms";
import { addTiebaLzl, garbleTiebaFloor, tiebaForumId, tiebaPortrait } from "../../support/platforms/tieba-lzl";
import { crawlFixture, minute, type CrawlFixture } from "../crawl/support";

const MINUTE = 60_000;
const KEY = "tieba-1";

describe("tieba in the field", () => {
  let f: CrawlFixture;
  let thread: LocalPost;
  /** platformId → floor pid of every 楼中楼 added, to check parents. */
  const lzlParent = new Map<string, string>();

  beforeAll(async () => {
    f = await crawlFixture({
      seed: 31,
      accounts: { weibo: 0, tieba: 1, discuz: 0, blog: 0 },
      postsPerAccount: 6,
      repliesPerPost: [0, 3],
      pageSizes: { tiebaFloors: 5 },
    });
    const site = f.site;
    site.clock.advance(MINUTE);
    thread = site.addPost(KEY, { title: "  图书馆   占座  ", text: "三楼自习室天天被占", author: "自习  达人" });
    for (let k = 0; k < 7; k++) {
      site.clock.advance(MINUTE);
      site.addReply(thread.id, { text: `回复${k + 1}`, author: `同学${k % 3}` });
    }
    const [r1, r2, , , , , r7] = thread.replies;
    // Floor 1 (the head post): one, shown inline. Floor 2: three (two inline, one from totalComment).
    // Floor 3: one. Floor 8, on thread page 2: 25 (10 from totalComment, the rest from two /p/comment pages).
    const add = (pid: string, n: number) => {
      for (let k = 0; k < n; k++) {
        site.clock.advance(MINUTE);
        lzlParent.set(addTiebaLzl(site.model, pid, { text: `楼中楼${pid.slice(-3)}-${k}`, author: `评论者${k % 4}` }).id, pid);
      }
    };
    add(thread.headId, 1);
    add(r1!.id, 3);
    add(r2!.id, 1);
    add(r7!.id, 25);
    site.clock.advance(MINUTE);
  });
  afterAll(async () => f?.close());

  test("first crawl stores every floor and every 楼中楼 once, each under the floor it answers", async () => {
    const mark = f.site.lastSeq();
    const run = await f.crawl(KEY);
    expect(run.errors).toEqual([]);
    expect(run.warnings).toEqual([]);
    const stored = await f.stored(KEY);
    for (const [id, pid] of lzlParent) {
      // Floor 1's comments hang under the thread (its platformId is the thread id).
      expect(stored.get(id), id).toMatchObject({ kind: "reply", parentPlatformId: pid === thread.headId ? thread.id : pid, version: 1 });
    }
    const expected = f.expected(KEY);
    expect(stored.size).toBe(expected.size + lzlParent.size);
    expect(run.newPosts).toBe(expected.size + lzlParent.size);
    // One totalComment per thread page whose floors have more than they show, then floor 8's pages 2 and 3.
    const lzlRequests = f.site
      .requests({ afterSeq: mark })
      .map((r) => r.url)
      .filter((u) => u.startsWith("/p/totalComment") || u.startsWith("/p/comment"));
    const fid = /fid=(\d+)/.exec(lzlRequests[0] ?? "")?.[1];
    expect(lzlRequests).toEqual([
      `/p/totalComment?tid=${thread.id}&fid=${fid}&pn=1`,
      `/p/totalComment?tid=${thread.id}&fid=${fid}&pn=2`,
      `/p/comment?tid=${thread.id}&pid=${thread.replies[6]!.id}&pn=2`,
      `/p/comment?tid=${thread.id}&pid=${thread.replies[6]!.id}&pn=3`,
    ]);
  });

  test("authors are the printed names, whitespace-collapsed, with the portrait as authorId; titles collapsed", async () => {
    const rows = await f.t.db.post.findMany({
      where: { accountId: f.ids.get(KEY)!, platformId: { in: [thread.id, thread.replies[0]!.id] } },
      orderBy: { id: "asc" },
    });
    expect(rows.map((r) => [r.title, r.author, r.authorId])).toEqual([
      ["图书馆 占座", "自习 达人", tiebaPortrait("自习  达人")],
      ["", "同学0", tiebaPortrait("同学0")],
    ]);
  });

  test("three unchanged re-crawls change nothing and add nothing", async () => {
    for (let k = 0; k < 3; k++) {
      f.site.clock.advance(MINUTE);
      const run = await f.crawl(KEY);
      expect([run.newPosts, run.changedPosts, run.errors]).toEqual([0, 0, []]);
    }
    const versions = await f.t.db.post.findMany({ where: { accountId: f.ids.get(KEY)!, version: { gt: 1 } } });
    expect(versions).toEqual([]);
  });

  test("a new 楼中楼 on a long floor of the last page is picked up once, reading that floor's last comment page only", async () => {
    const site = f.site;
    site.clock.advance(MINUTE);
    const floor8 = thread.replies[6]!;
    const lzl = addTiebaLzl(site.model, floor8.id, { text: "又来一条" });
    site.clock.advance(MINUTE);
    const mark = site.lastSeq();
    const run = await f.crawl(KEY);
    expect([run.newPosts, run.changedPosts, run.errors]).toEqual([1, 0, []]);
    expect((await f.stored(KEY)).get(lzl.id)).toMatchObject({ parentPlatformId: floor8.id, text: "又来一条" });
    const lzlRequests = site
      .requests({ afterSeq: mark })
      .map((r) => r.url)
      .filter((u) => u.startsWith("/p/comment"));
    expect(lzlRequests).toEqual([`/p/comment?tid=${thread.id}&pid=${floor8.id}&pn=3`]);
    const again = await f.crawl(KEY);
    expect([again.newPosts, again.changedPosts]).toEqual([0, 0]);
  });

  test("an unreadable floor date is a warning with the page URL and raw text; the floor is stored with the previous floor's date", async () => {
    const site = f.site;
    site.clock.advance(MINUTE);
    const before = thread.replies.at(-1)!;
    const bad = site.addReply(thread.id, { text: "日期坏了的一楼" });
    const after = site.addReply(thread.id, { text: "后面一楼", at: new Date(site.clock.now().getTime() + MINUTE) });
    garbleTiebaFloor(site.model, bad.id, ["date"]);
    site.clock.advance(2 * MINUTE);
    const run = await f.crawl(KEY);
    expect(run.errors).toEqual([]);
    expect(run.warnings).toEqual([expect.objectContaining({ field: "date", raw: "某天下午", reason: "the previous floor's date" })]);
    expect(run.warnings[0]!.url).toContain(`/p/${thread.id}?pn=`);
    const stored = await f.stored(KEY);
    expect(minute(stored.get(bad.id)!.publishedAt)).toBe(minute(before.publishedAt));
    expect(stored.get(bad.id)!.text).toBe("日期坏了的一楼");
    expect(minute(stored.get(after.id)!.publishedAt)).toBe(minute(after.publishedAt));
    const row = await f.t.db.crawlRun.findUnique({ where: { id: run.runId } });
    expect(row?.warningCount).toBe(1);
    expect(row?.warnings).toContain("某天下午");
  });

  /** A new floor with three 楼中楼: the page shows two, the third needs totalComment or /p/comment. */
  function floorWithThreeLzl(text: string) {
    const site = f.site;
    site.clock.advance(MINUTE);
    const reply = site.addReply(thread.id, { text, author: "晚来的人" });
    site.clock.advance(MINUTE);
    const lzl = addTiebaLzl(site.model, reply.id, { text: `${text}的楼中楼` });
    const lzl2 = addTiebaLzl(site.model, reply.id, { text: "第二条" });
    const lzl3 = addTiebaLzl(site.model, reply.id, { text: "第三条，不在页面里" });
    site.clock.advance(MINUTE);
    return { reply, lzl, lzl2, lzl3 };
  }

  test("issue 30 item 2: a failed totalComment is a warning naming its URL; the floors and inline 楼中楼 are kept, /p/comment fills in", async () => {
    const site = f.site;
    const { reply, lzl, lzl2, lzl3 } = floorWithThreeLzl("新的一楼");
    const fault = site.fault("/p/totalComment", { type: "status", status: 500 });
    const run = await f.crawl(KEY);
    fault.clear();
    expect(fault.hits).toBeGreaterThan(0);
    expect(run.errors).toEqual([]);
    // (The floor garbled by the test before still warns about its date.)
    const missed = run.warnings.filter((w) => w.field === "comments");
    expect(missed.length).toBeGreaterThan(0);
    for (const w of missed)
      expect(w.url).toMatch(new RegExp(`^${site.origin}/p/totalComment\\?tid=${thread.id}&fid=${tiebaForumId(site.model, KEY)}&pn=\\d+$`));
    const stored = await f.stored(KEY);
    expect(stored.get(reply.id)).toMatchObject({ parentPlatformId: thread.id });
    // The two shown inline are kept; the third came from the floor's /p/comment page.
    expect([stored.has(lzl.id), stored.has(lzl2.id), stored.has(lzl3.id)]).toEqual([true, true, true]);
    expect(stored.get(lzl3.id)).toMatchObject({ parentPlatformId: reply.id });
  });

  test("issue 30 item 2: totalComment and /p/comment both failing keep the floors and inline 楼中楼, warn, and the next run reads the rest", async () => {
    const site = f.site;
    const { reply, lzl, lzl2, lzl3 } = floorWithThreeLzl("又一楼");
    const total = site.fault("/p/totalComment", { type: "status", status: 404 });
    const pages = site.fault("/p/comment", { type: "status", status: 500 });
    const run = await f.crawl(KEY);
    total.clear();
    pages.clear();
    expect(run.errors).toEqual([]);
    expect(run.status).toBe("partial");
    // totalComment, then the /p/comment pages of each floor with more 楼中楼 than the page shows.
    const paths = run.warnings.filter((w) => w.field === "comments").map((w) => new URL(w.url).pathname);
    expect(paths).toContain("/p/totalComment");
    expect(paths).toContain("/p/comment");
    expect(new Set(paths)).toEqual(new Set(["/p/totalComment", "/p/comment"]));
    const stored = await f.stored(KEY);
    expect(stored.get(reply.id)).toMatchObject({ parentPlatformId: thread.id });
    expect([stored.has(lzl.id), stored.has(lzl2.id), stored.has(lzl3.id)]).toEqual([true, true, false]);

    site.clock.advance(MINUTE);
    const next = await f.crawl(KEY);
    expect(next.errors).toEqual([]);
    expect(next.warnings.filter((w) => w.field === "comments")).toEqual([]);
    expect(next.status).toBe("ok");
    expect((await f.stored(KEY)).get(lzl3.id)).toMatchObject({ parentPlatformId: reply.id, version: 1 });

    // Read whole now: once the list's reply count is stored with the head (the crawl after a
    // thread read from a later page reads it whole once, as without any failure), the thread is
    // not read again without new activity.
    site.clock.advance(MINUTE);
    await f.crawl(KEY);
    const mark = site.lastSeq();
    site.clock.advance(MINUTE);
    await f.crawl(KEY);
    expect(site.requests({ afterSeq: mark }).filter((r) => r.path.startsWith("/p/"))).toEqual([]);
  });
});
