import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { weiboAdapter } from "../../../crawler/adapters/weibo";
import type { PoliteFetcher } from "../../../crawler/fetch";
import type { ListItem } from "../../../crawler/types";
import { startLocalPlatforms, type LocalPlatforms } from "../../support/platforms";
import { all, contextFor, firstPage, DAY, localFetcher, trail } from "./helpers";

describe("weibo adapter against the local m.weibo.cn", () => {
  let site: LocalPlatforms;
  let fetch: PoliteFetcher;

  beforeAll(async () => {
    site = await startLocalPlatforms({
      seed: 11,
      accounts: { weibo: 2, tieba: 0, discuz: 0, blog: 0 },
      postsPerAccount: 23,
      repliesPerPost: [0, 3],
      pageSizes: { weibo: 5, weiboComments: 4 },
    });
  });
  afterAll(async () => site.close());
  beforeEach(() => {
    fetch = localFetcher();
    site.clearFaults();
  });
  afterEach(async () => fetch.close());

  test("pages through the whole timeline once, pinned first, with since_id", async () => {
    const mark = site.lastSeq();
    const pages = await all(weiboAdapter.list(contextFor(site, "weibo-1", fetch)));
    const items = pages.flatMap((p) => p.items);
    const account = site.account("weibo-1");
    expect(pages.map((p) => p.items.length)).toEqual([6, 5, 5, 5, 2]); // 1 pinned + 22 by 5
    expect(new Set(items.map((i) => i.platformId)).size).toBe(23);
    expect(items.map((i) => i.platformId).sort()).toEqual(account.posts.map((p) => site.platformIdOf(p)).sort());
    // The pinned post is the account's oldest: first in the list, flagged, and old.
    const oldest = account.posts[0]!;
    expect(items[0]).toMatchObject({ platformId: oldest.id, pinned: true });
    expect(items.filter((i) => i.pinned)).toHaveLength(1);
    // Short dates ("3小时前", "06-14") resolve to within a day of the real time.
    for (const item of items) {
      const real = site.model.post(item.platformId)!.publishedAt.getTime();
      expect(Math.abs(item.publishedAt.getTime() - real)).toBeLessThan(DAY);
    }
    expect(site.requests({ afterSeq: mark, accountKey: "weibo-1" }).every((r) => r.kind === "list")).toBe(true);
    expect(site.requests({ afterSeq: mark })).toHaveLength(6); // lookup + 5 pages (the last has no since_id)
  });

  test("is lazy: stopping after the first page made exactly that page's requests", async () => {
    const mark = site.lastSeq();
    for await (const page of weiboAdapter.list(contextFor(site, "weibo-2", fetch))) {
      expect(page.items.length).toBeGreaterThan(0);
      break;
    }
    const uid = site.account("weibo-2").slug;
    expect(trail(site, mark)).toEqual([
      `list /api/container/getIndex?type=uid&value=${uid}`,
      `list /api/container/getIndex?type=uid&value=${uid}&containerid=107603${uid}`,
    ]);
  });

  test("long posts are incomplete in the list and complete() reads /statuses/extend", async () => {
    site.clock.advance(60_000);
    const post = site.addPost("weibo-1", { long: true, at: site.clock.now() });
    const first = await firstPage(weiboAdapter.list(contextFor(site, "weibo-1", fetch)));
    const item = first.items.find((i) => i.platformId === post.id)!;
    expect(item.incomplete).toBe(true);
    expect(item.html).toContain("全文");
    const mark = site.lastSeq();
    const full = await weiboAdapter.complete!(contextFor(site, "weibo-1", fetch), item);
    expect(trail(site, mark)).toEqual([`item /statuses/extend?id=${post.id}`]);
    const plain = post.html.replace(/<\/p><p>/g, "").replace(/<[^>]+>/g, "");
    expect(full.html.replace(/<br \/>/g, "")).toBe(plain);
    expect(full.platformId).toBe(post.id);
    expect("incomplete" in full).toBe(false);
  });

  test("a new pinned post comes first and hides none of the older unseen ones", async () => {
    site.clock.advance(60_000);
    const fresh = site.addPost("weibo-2", { text: "新学期选课系统今晚开放", pinned: true });
    const pages = await all(weiboAdapter.list(contextFor(site, "weibo-2", fetch)));
    const items = pages.flatMap((p) => p.items);
    const pinned = items.filter((i) => i.pinned).map((i) => i.platformId);
    expect(pinned).toEqual(expect.arrayContaining([fresh.id, site.account("weibo-2").posts[0]!.id]));
    expect(new Set(items.map((i) => i.platformId)).size).toBe(site.account("weibo-2").posts.length);
  });

  test("comments are replies, read across hotflow pages with max_id", async () => {
    site.clock.advance(60_000);
    const post = site.addPost("weibo-2", { text: "图书馆今晚闭馆检修" });
    for (let k = 0; k < 10; k++) {
      site.clock.advance(60_000);
      site.addReply(post.id, { text: `第${k + 1}条评论` });
    }
    const first = await firstPage(weiboAdapter.list(contextFor(site, "weibo-2", fetch)));
    const item = first.items.find((i) => i.platformId === post.id) as ListItem;
    expect(item).toMatchObject({ hasReplies: true, replyCount: 10 });
    const mark = site.lastSeq();
    const pages = await all(weiboAdapter.replies!(contextFor(site, "weibo-2", fetch), item, null));
    expect(pages.map((p) => p.replies.length)).toEqual([4, 4, 2]);
    const replies = pages.flatMap((p) => p.replies);
    expect(replies.map((r) => r.platformId).sort()).toEqual(post.replies.map((r) => r.id).sort());
    expect(replies.every((r) => r.kind === "reply" && r.parentPlatformId === post.id)).toBe(true);
    // Comment dates are the full RFC form: exact to the second.
    const byId = new Map(post.replies.map((r) => [r.id, r.publishedAt.getTime()]));
    expect(replies.every((r) => r.publishedAt.getTime() === byId.get(r.platformId))).toBe(true);
    expect(site.requests({ afterSeq: mark }).map((r) => r.kind)).toEqual(["item", "item", "item"]);
  });

  test("418 once, then success: the fetcher backs off and the adapter never notices", async () => {
    const fault = site.fault("/api/container/getIndex", { type: "status", status: 418, times: 1, retryAfterSeconds: 0 });
    const mark = site.lastSeq();
    for await (const page of weiboAdapter.list(contextFor(site, "weibo-1", fetch))) {
      expect(page.items.length).toBeGreaterThan(0);
      break;
    }
    expect(fault.hits).toBe(1);
    expect(site.requests({ afterSeq: mark }).map((r) => r.status)).toEqual([418, 200, 200]);
  });

  test("full RFC dates (weiboDates: rfc) resolve exactly", async () => {
    const exact = await startLocalPlatforms({ seed: 3, accounts: { weibo: 1, tieba: 0, discuz: 0, blog: 0 }, postsPerAccount: 5, weiboDates: "rfc" });
    try {
      const pages = await all(weiboAdapter.list(contextFor(exact, "weibo-1", fetch)));
      const items = pages.flatMap((p) => p.items);
      expect(items).toHaveLength(5);
      for (const item of items) {
        const real = exact.model.post(item.platformId)!.publishedAt;
        expect(item.publishedAt.getTime()).toBe(Math.floor(real.getTime() / 1000) * 1000);
      }
    } finally {
      await exact.close();
    }
  });
});
