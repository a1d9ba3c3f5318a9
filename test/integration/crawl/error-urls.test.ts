/**
 * Every error on a crawl run names the exact URL that failed: the API or page that was
 * requested, not the post page it belongs to.
 */
import { afterEach, describe, expect, it } from "vitest";
import { crawlFixture, type CrawlFixture } from "./support";

let f: CrawlFixture | undefined;
afterEach(async () => {
  await f?.close();
  f = undefined;
});

describe("errors name the URL that was requested", () => {
  it("a failing Weibo comments API is recorded with the API URL, not the post's page", async () => {
    f = await crawlFixture({
      seed: 161,
      accounts: { weibo: 1, tieba: 0, discuz: 0, blog: 0 },
      postsPerAccount: 3,
      repliesPerPost: [2, 2],
      pinOldest: false,
      weiboDates: "rfc",
      longTextRatio: 0,
    });
    f.site.fault("/comments/hotflow", { type: "status", status: 500 });
    const run = await f.crawl("weibo-1");
    expect(run.errors.length).toBeGreaterThan(0);
    for (const e of run.errors) {
      expect(e.url, e.reason).toMatch(new RegExp(`^${f.site.origin}/comments/hotflow\\?id=\\d+&mid=\\d+`));
      expect(e.url).not.toMatch(/\/detail\//);
    }
  });

  it("a failing page 2 of a Discuz! thread is recorded with that page's URL", async () => {
    f = await crawlFixture({
      seed: 162,
      accounts: { weibo: 0, tieba: 0, discuz: 1, blog: 0 },
      postsPerAccount: 1,
      repliesPerPost: [5, 5],
      pinOldest: false,
      pageSizes: { discuzPosts: 2 },
    });
    const thread = f.site.model.visiblePosts(f.site.account("discuz-1"))[0]!;
    f.site.fault((u) => u.searchParams.get("mod") === "viewthread" && u.searchParams.get("page") === "2", { type: "status", status: 503 });
    const run = await f.crawl("discuz-1");
    expect(run.errors).toHaveLength(1);
    expect(run.errors[0]!.url).toBe(`${f.site.origin}/bbs/forum.php?mod=viewthread&tid=${thread.id}&page=2`);
    expect(run.status).toBe("partial");
    // Page 1 was stored; the thread is read again next run, and nothing is lost.
    f.site.clearFaults();
    const again = await f.crawl("discuz-1");
    expect(again.errors).toEqual([]);
    expect([...(await f.stored("discuz-1")).keys()].sort()).toEqual([...f.expected("discuz-1").keys()].sort());
  });
});
