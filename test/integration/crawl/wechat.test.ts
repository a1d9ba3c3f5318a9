/**
 * WeChat articles (issue 34 item 4) crawled from the local copy of mp.weixin.qq.com, through the
 * real fetcher and store: a watched article is stored as one post (title, account, publish time,
 * text), re-read on every run (an edit is a new version, an unchanged article is nothing new),
 * and marked deleted, never removed, when WeChat serves its removal page.
 */
import { afterEach, describe, expect, it } from "vitest";
import { htmlToText } from "../../../crawler/text";
import { crawlFixture, storedRow, type CrawlFixture } from "./support";

let f: CrawlFixture | undefined;
afterEach(async () => {
  await f?.close();
  f = undefined;
});

/** Runs an hour apart, as an article's interval would space them. */
const RUN_GAP_MS = 3_600_000;

describe("a watched WeChat article", () => {
  it("is stored whole, an edit is a new version, and WeChat's removal page marks it deleted", async () => {
    f = await crawlFixture({ seed: 34, accounts: { weibo: 0, tieba: 0, discuz: 0, blog: 0, wechat: 1 } });
    const site = f.site;
    const account = site.account("wechat-1");
    const article = account.posts[0]!;
    const id = site.platformIdOf(article);

    const first = await f.crawl("wechat-1");
    expect(first.errors).toEqual([]);
    expect(first.warnings).toEqual([]);
    expect(first.newPosts).toBe(1);
    const stored = await storedRow(f, "wechat-1", id);
    expect(stored).toMatchObject({ kind: "post", title: article.title, author: account.name, text: htmlToText(article.html), version: 1, deletedAt: null });
    // `var ct` is in whole seconds.
    expect(stored.publishedAt.getTime()).toBe(Math.floor(article.publishedAt.getTime() / 1000) * 1000);
    expect(stored.url).toBe(site.entryUrl("wechat-1"));

    site.clock.advance(RUN_GAP_MS);
    const same = await f.crawl("wechat-1");
    expect(same.errors).toEqual([]);
    expect(same.newPosts + same.changedPosts + same.deletedPosts).toBe(0);

    site.clock.advance(RUN_GAP_MS);
    site.editPost(article.id, { text: "更正：讲座改到周五下午三点，地点不变。" });
    const edited = await f.crawl("wechat-1");
    expect(edited.errors).toEqual([]);
    expect(edited.changedPosts).toBe(1);
    const afterEdit = await storedRow(f, "wechat-1", id);
    expect(afterEdit.version).toBe(2);
    expect(afterEdit.text).toBe("更正：讲座改到周五下午三点，地点不变。");
    expect(await f.t.db.postVersion.count({ where: { postId: afterEdit.id } })).toBeGreaterThanOrEqual(1);

    site.clock.advance(RUN_GAP_MS);
    site.removePost(article.id);
    const noticedAt = site.clock.now();
    const mark = site.lastSeq();
    const removed = await f.crawl("wechat-1");
    expect(removed.errors).toEqual([]);
    expect(removed.deletedPosts).toBe(1);
    expect(removed.notes.join("\n")).toContain(`deleted: ${id} (WeChat says the article is gone: 该内容已被发布者删除`);
    // One request: the removal page seen by the listing is the deletion.
    expect(site.requests({ afterSeq: mark, accountKey: "wechat-1" })).toHaveLength(1);
    const gone = await storedRow(f, "wechat-1", id);
    expect(gone.deletedAt?.getTime()).toBe(noticedAt.getTime());
    expect(gone.text).toBe("更正：讲座改到周五下午三点，地点不变。");
  });

  it("an article already removed at its first crawl is on record as deleted; a page that is neither is a structure warning", async () => {
    f = await crawlFixture({ seed: 35, accounts: { weibo: 0, tieba: 0, discuz: 0, blog: 0, wechat: 2 } });
    const site = f.site;
    const article = site.account("wechat-1").posts[0]!;
    site.removePost(article.id);
    const run = await f.crawl("wechat-1");
    expect(run.errors).toEqual([]);
    expect(run.deletedPosts).toBe(1);
    expect((await storedRow(f, "wechat-1", site.platformIdOf(article))).deletedAt).not.toBeNull();

    site.fault("/s/", { type: "body", body: "<html><head><title>微信公众平台</title></head><body><p>请稍候</p></body></html>" });
    const odd = await f.crawl("wechat-2");
    expect(odd.errors).toEqual([]);
    expect(odd.newPosts).toBe(0);
    expect(odd.warnings.map((w) => [w.field, w.raw])).toEqual([["structure", "微信公众平台"]]);
  });
});
