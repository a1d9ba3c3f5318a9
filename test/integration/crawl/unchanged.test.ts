/**
 * No spurious edits: crawling unchanged pages again, on every local platform, creates nothing,
 * changes nothing, and leaves every post and reply at version 1 — both with the default
 * incremental walk and with a re-check window that reopens every post (where a second source of
 * the same post, e.g. a blog's feed and its article page, would show up as an edit).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { crawlFixture, type CrawlFixture } from "./support";

// Blogs: 1 Hexo with an RSS feed, 2 Hexo without a feed, 3 WordPress with RSS, 4 Hexo with Atom
// (a feed beside the article pages is where a second source of the same post could creep in).
const KEYS = ["weibo-1", "tieba-1", "discuz-1", "blog-1", "blog-2", "blog-3", "blog-4"] as const;

describe.each([
  { window: "no re-check window", recheckDays: 0 },
  { window: "a re-check window covering every post", recheckDays: 365 },
])("three crawls of unchanged pages, $window", ({ recheckDays }) => {
  let f: CrawlFixture;
  beforeAll(async () => {
    f = await crawlFixture({
      seed: 141,
      weiboDates: "rfc",
      accounts: { weibo: 1, tieba: 1, discuz: 1, blog: 4 },
      blogFeeds: true,
      postsPerAccount: 25,
      repliesPerPost: [0, 6],
      pageSizes: { weibo: 10, weiboComments: 5, tiebaFloors: 4, discuz: 10, discuzPosts: 4, blog: 10 },
    });
    f.site.account("blog-2").hasFeed = false;
    f.site.account("blog-3").blogTheme = "wordpress";
    f.site.account("blog-4").blogFeed = "atom";
    for (const id of f.ids.values()) await f.t.db.account.update({ where: { id }, data: { recheckDays } });
  });
  afterAll(async () => f?.close());

  it.each(KEYS)("%s: runs 2 and 3 find 0 new and 0 changed, every post stays at version 1", async (key) => {
    const first = await f.crawl(key);
    expect(first.errors).toEqual([]);
    expect(first.newPosts).toBeGreaterThan(20);
    for (const n of [2, 3]) {
      const run = await f.crawl(key);
      expect(run.errors, `run ${n}`).toEqual([]);
      expect(run.status, `run ${n}`).toBe("ok");
      expect({ run: n, new: run.newPosts, changed: run.changedPosts, deleted: run.deletedPosts }).toEqual({ run: n, new: 0, changed: 0, deleted: 0 });
    }
    const stored = await f.stored(key);
    expect(stored.size).toBe(first.newPosts);
    const edited = [...stored.values()].filter((p) => p.version !== 1).map((p) => `${p.platformId} v${p.version}`);
    expect(edited).toEqual([]);
    expect(await f.t.db.postVersion.count({ where: { post: { accountId: f.ids.get(key)! } } })).toBe(0);
  });
});
