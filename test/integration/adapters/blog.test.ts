import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { createBlogAdapter } from "../../../crawler/adapters/blog";
import type { PoliteFetcher } from "../../../crawler/fetch";
import { startLocalPlatforms, type LocalPlatforms } from "../../support/platforms";
import { all, contextFor, firstPage, localFetcher, trail } from "./helpers";

describe("blog adapter against local Hexo-style blogs", () => {
  let site: LocalPlatforms;
  let fetch: PoliteFetcher;

  beforeAll(async () => {
    // blog-1 has an RSS feed, blog-2 only listing pages.
    site = await startLocalPlatforms({ seed: 4, accounts: { weibo: 0, tieba: 0, discuz: 0, blog: 2 }, postsPerAccount: 25 });
  });
  afterAll(async () => site.close());
  beforeEach(() => {
    fetch = localFetcher();
    site.clearFaults();
  });
  afterEach(async () => fetch.close());

  test("a blog with a feed: found via <link rel=alternate>, full content, then remembered", async () => {
    const adapter = createBlogAdapter();
    const slug = site.account("blog-1").slug;
    const mark = site.lastSeq();
    const { items } = await firstPage(adapter.list(contextFor(site, "blog-1", fetch)));
    expect(trail(site, mark)).toEqual([`list /blog/${slug}/`, `list /blog/${slug}/feed/`]);
    expect(items).toHaveLength(10);
    const newest = site.model.visiblePosts(site.account("blog-1")).slice(0, 10);
    expect(items.map((i) => i.platformId)).toEqual(newest.map((p) => site.platformIdOf(p)));
    for (const [k, item] of items.entries()) {
      // The feed has the whole post, but the article page is the one source stored (no flip-flopping).
      expect(item).toMatchObject({ incomplete: true, textIncomplete: false });
      expect(item.html).toBe(newest[k]!.html);
      expect(item.publishedAt.getTime()).toBe(Math.floor(newest[k]!.publishedAt.getTime() / 1000) * 1000);
    }
    // Next run: straight to the feed; asking for more continues on the listing pages.
    const mark2 = site.lastSeq();
    const more = await all(adapter.list(contextFor(site, "blog-1", fetch)));
    expect(trail(site, mark2)).toEqual([`list /blog/${slug}/feed/`, `list /blog/${slug}/`, `list /blog/${slug}/page/2/`, `list /blog/${slug}/page/3/`]);
    const ids = new Set(more.flatMap((p) => p.items.map((i) => i.platformId)));
    expect(ids.size).toBe(25); // feed and listing agree on ids: overlap, no duplicates by id
  });

  test("a blog without a feed: guesses fail once, listing pages are incomplete, complete() reads the article", async () => {
    const adapter = createBlogAdapter();
    const slug = site.account("blog-2").slug;
    const mark = site.lastSeq();
    const pages = await all(adapter.list(contextFor(site, "blog-2", fetch)));
    expect(trail(site, mark)).toEqual([
      `list /blog/${slug}/`,
      `list /blog/${slug}/feed/`,
      `list /blog/${slug}/atom.xml`,
      `list /blog/${slug}/rss.xml`,
      "other /feed/",
      "other /atom.xml",
      "other /rss.xml",
      `list /blog/${slug}/page/2/`,
      `list /blog/${slug}/page/3/`,
    ]);
    expect(pages.map((p) => p.items.length)).toEqual([10, 10, 5]);
    const items = pages.flatMap((p) => p.items);
    expect(items.every((i) => i.incomplete)).toBe(true);
    const post = site.model.post(items[3]!.platformId.split("/")[4]!)!;
    expect(items[3]!.title).toBe(post.title);
    expect(items[3]!.publishedAt.getTime()).toBe(Math.floor(post.publishedAt.getTime() / 1000) * 1000);

    const mark2 = site.lastSeq();
    const full = await adapter.complete!(contextFor(site, "blog-2", fetch), items[3]!);
    expect(trail(site, mark2)).toEqual([`item /blog/${slug}/posts/${post.id}/`]);
    expect(full.html).toBe(post.html);
    expect(full).toMatchObject({ platformId: items[3]!.platformId, title: post.title, author: post.author });

    // Second run: no rediscovery, and lazy: one request for the first page.
    const mark3 = site.lastSeq();
    expect((await firstPage(adapter.list(contextFor(site, "blog-2", fetch)))).items).toHaveLength(10);
    expect(trail(site, mark3)).toEqual([`list /blog/${slug}/`]);
  });

  test("a sticky post is listed first and flagged; a slow article still arrives", async () => {
    const adapter = createBlogAdapter();
    const old = site.account("blog-2").posts[0]!;
    site.pin(old.id);
    site.fault(`/blog/${site.account("blog-2").slug}/posts/`, { type: "slow", delayMs: 30, times: 1 });
    try {
      const first = await firstPage(adapter.list(contextFor(site, "blog-2", fetch)));
      expect(first.items[0]).toMatchObject({ platformId: site.platformIdOf(old), pinned: true });
      expect(first.items).toHaveLength(11);
      const full = await adapter.complete!(contextFor(site, "blog-2", fetch), first.items[0]!);
      expect(full.html).toBe(old.html);
    } finally {
      site.pin(old.id, false);
    }
  });

  test("new posts appear when the clock passes them", async () => {
    const adapter = createBlogAdapter();
    const future = site.addPost("blog-1", { title: "运动会报名", text: "周五截止", at: new Date(site.clock.now().getTime() + 3_600_000) });
    const before = await firstPage(adapter.list(contextFor(site, "blog-1", fetch)));
    expect(before.items.some((i) => i.title === "运动会报名")).toBe(false);
    site.clock.advance(2 * 3_600_000);
    const after = await firstPage(adapter.list(contextFor(site, "blog-1", fetch)));
    expect(after.items[0]).toMatchObject({ title: "运动会报名", platformId: site.platformIdOf(future) });
  });
});
