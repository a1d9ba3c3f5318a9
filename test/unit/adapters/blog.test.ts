import { describe, expect, test } from "vitest";
import { createBlogAdapter, looksLikeFeed, parseBlogArticle, parseBlogListing, parseFeed } from "../../../crawler/adapters";
import { collect, readReal, realAvailable, stubContext, stubFetcher } from "./helpers";

const NOW = new Date("2021-01-01T00:00:00Z");
const sh = (wall: string): string => new Date(`${wall}+08:00`).toISOString();

describe.skipIf(!realAvailable)("blog parsing on the real captures", () => {
  test("Hexo/NexT listing: its 10 posts with titles and ISO times", () => {
    const { items, nextUrl } = parseBlogListing(readReal("hexo_next_blog_index.html"), "https://hujinbo.me/", NOW);
    expect(items).toHaveLength(10);
    expect(items.map((i) => i.publishedAt.toISOString())).toEqual(
      [
        "2020-10-24T15:01:26",
        "2020-09-15T23:00:12",
        "2020-01-08T21:48:32",
        "2020-01-01T11:43:30",
        "2019-11-12T20:12:35",
        "2019-11-10T17:10:12",
        "2019-11-08T22:15:46",
        "2019-06-24T20:18:26",
        "2019-05-25T20:22:15",
        "2019-04-14T20:00:28",
      ].map(sh),
    );
    expect(items[0]).toMatchObject({
      platformId: "/posts/56548/",
      url: "https://hujinbo.me/posts/56548/",
      title: "安卓逆向分析之抓包、拆包、打包、签名",
      author: "胡金波",
      incomplete: true,
    });
    expect(items[0]!.html).toContain("环境准备");
    expect(items.at(-1)!.title).toBe("Markdown常用语法介绍");
    expect(nextUrl).toBeNull();
  });

  test("WordPress feed: its 10 items with full content:encoded and RFC-822 dates", () => {
    const items = parseFeed(readReal("wordpress_feed_zh.xml"), "https://zhaoshuai.me/feed/", NOW);
    expect(items).toHaveLength(10);
    expect(items[0]).toMatchObject({
      platformId: "/2019-05-16/",
      url: "https://zhaoshuai.me/2019-05-16/",
      title: "【WordPress】Crayon Syntax Highlighter 与主题不兼容",
      author: "zhaoshuai",
      incomplete: false,
    });
    expect(items[0]!.publishedAt.toISOString()).toBe("2019-05-16T14:00:16.000Z");
    expect(items[0]!.html).toContain("写在前面");
    expect(items[0]!.html.length).toBeGreaterThan(1000);
    expect(items.every((i) => !i.incomplete && i.html.length > 100)).toBe(true);
    expect(items[0]!.images?.length).toBeGreaterThan(0);
  });

  test("custom WordPress theme: <time datetime> without offset is site-local UTC+8", () => {
    const { items, nextUrl } = parseBlogListing(readReal("wordpress_author_listing.html"), "https://zhaoshuai.me/author/zhaoshuai/", NOW);
    expect(items).toHaveLength(10);
    expect(items[0]).toMatchObject({ platformId: "/2019-05-16/", title: "【WordPress】Crayon Syntax Highlighter 与主题不兼容" });
    expect(items[0]!.publishedAt.toISOString()).toBe(sh("2019-05-16T10:00:16"));
    expect(items.at(-1)!.publishedAt.toISOString()).toBe(sh("2018-09-21T12:15:42"));
    expect(nextUrl).toBe("https://zhaoshuai.me/author/zhaoshuai/page/2/");
  });

  test("the feed and the listing give the same post the same platformId", () => {
    const feed = parseFeed(readReal("wordpress_feed_zh.xml"), "https://zhaoshuai.me/feed/", NOW).map((i) => i.platformId);
    const listing = parseBlogListing(readReal("wordpress_author_listing.html"), "https://zhaoshuai.me/author/zhaoshuai/", NOW).items.map((i) => i.platformId);
    expect(listing.filter((id) => feed.includes(id)).length).toBeGreaterThanOrEqual(5);
  });

  test("Hexo site: the advertised /atom.xml is missing, so guesses are tried once and the listing is read", async () => {
    const fetch = stubFetcher({ "http://blog.test/": readReal("hexo_next_blog_index.html") });
    const adapter = createBlogAdapter();
    const ctx = stubContext("blog", "http://blog.test/", fetch, NOW);
    const pages = await collect(adapter.list(ctx));
    expect(pages.map((p) => p.items.length)).toEqual([10]);
    expect(pages[0]!.items[0]!.url).toBe("http://blog.test/posts/56548/"); // moved onto the account's origin
    expect(fetch.requests.map((r) => r.url)).toEqual(["http://blog.test/", "http://blog.test/atom.xml", "http://blog.test/feed/", "http://blog.test/rss.xml"]);
    // The next run remembers there is no feed.
    fetch.requests.length = 0;
    await collect(adapter.list(ctx));
    expect(fetch.requests.map((r) => r.url)).toEqual(["http://blog.test/"]);
  });

  test("WordPress site: the feed is found at /feed/ and remembered", async () => {
    const listing = readReal("wordpress_author_listing.html");
    const fetch = stubFetcher({ "http://wp.test/": listing, "http://wp.test/feed/": readReal("wordpress_feed_zh.xml") });
    const adapter = createBlogAdapter();
    const ctx = stubContext("blog", "http://wp.test/", fetch, NOW);
    for await (const page of adapter.list(ctx)) {
      expect(page.items).toHaveLength(10);
      expect(page.items[0]!.url).toBe("http://wp.test/2019-05-16/");
      break;
    }
    expect(fetch.requests.map((r) => r.url)).toEqual(["http://wp.test/", "http://wp.test/feed/"]);
    fetch.requests.length = 0;
    // Second run: straight to the feed; asking for more continues on the listing (page 1 then page 2).
    const pages = await collect(adapter.list(ctx), 2);
    expect(pages.map((p) => p.items.length)).toEqual([10, 10]);
    expect(fetch.requests.map((r) => r.url)).toEqual(["http://wp.test/feed/", "http://wp.test/"]);
  });
});

describe("blog helpers", () => {
  test("looksLikeFeed", () => {
    expect(looksLikeFeed('<?xml version="1.0" encoding="UTF-8"?><rss version="2.0">')).toBe(true);
    expect(looksLikeFeed('\n<feed xmlns="http://www.w3.org/2005/Atom">')).toBe(true);
    expect(looksLikeFeed("<!DOCTYPE html><html>")).toBe(false);
  });

  test("Atom entries", () => {
    const atom = `<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>校园日记</title><author><name>阿青</name></author>
      <entry><title>图书馆占座</title><link href="https://blog.test/posts/1/"/><id>https://blog.test/posts/1/</id>
      <published>2020-10-24T15:01:26+08:00</published><updated>2020-10-25T00:00:00+08:00</updated>
      <content type="html">&lt;p&gt;早上六点就有人排队&lt;/p&gt;</content></entry></feed>`;
    const items = parseFeed(atom, "http://local.test/atom.xml", NOW);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      platformId: "/posts/1/",
      url: "http://local.test/posts/1/",
      title: "图书馆占座",
      author: "阿青",
      html: "<p>早上六点就有人排队</p>",
      incomplete: false,
    });
    expect(items[0]!.publishedAt.toISOString()).toBe(sh("2020-10-24T15:01:26"));
  });

  test("article page: full body replaces the excerpt", () => {
    const html = `<html><head><meta name="author" content="阿青"></head><body><article><h1 class="post-title">图书馆占座</h1>
      <time itemprop="dateCreated datePublished" datetime="2020-10-24T15:01:26+08:00">2020-10-24</time>
      <div class="post-body"><p>早上六点就有人排队。</p><p>全文在这里。</p></div></article></body></html>`;
    const item = parseBlogArticle(html, "http://local.test/posts/1/", NOW, {
      platformId: "/posts/1/",
      kind: "post",
      url: "http://local.test/posts/1/",
      title: "图书馆占座",
      author: "",
      publishedAt: new Date(0),
      html: "<p>早上</p>",
      incomplete: true,
    });
    expect(item.html).toContain("全文在这里");
    expect(item.author).toBe("阿青");
    expect(item.publishedAt.toISOString()).toBe(sh("2020-10-24T15:01:26"));
    expect("incomplete" in item).toBe(false);
  });
});
