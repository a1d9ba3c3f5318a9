/**
 * Blog pages read right on markup modelled on real themes: the article's own title (never the
 * site name), whitespace-collapsed titles and authors, and one unreadable field (a date, a body)
 * recorded as a warning while the item is kept with the best value available.
 */
import { describe, expect, test } from "vitest";
import { parseBlogArticle, parseBlogListing, parseFeed } from "../../../crawler/adapters";
import type { FieldWarning, ListItem } from "../../../crawler/types";

const NOW = new Date("2024-06-01T00:00:00Z");
const URL_ = "http://blog.test/2024/05/notice/";
const listed: ListItem = {
  platformId: "/2024/05/notice/",
  kind: "post",
  url: URL_,
  title: "选课 通知",
  author: "教务处",
  publishedAt: new Date("2024-05-09T10:21:00Z"),
  html: "<p>摘要</p>",
  incomplete: true,
  textIncomplete: true,
};
const page = (headExtra: string, body: string): string =>
  `<!DOCTYPE html><html><head><meta charset="utf-8"><title>选课通知 | 教务处博客</title>${headExtra}</head><body>
   <header class="header"><div class="site-meta"><a href="/" class="brand"><h1 class="site-title">教务处博客</h1></a></div></header>
   <main>${body}</main></body></html>`;

describe("article titles", () => {
  test("Hexo/NexT: the header's h1.site-title is not the title; the article's h1.post-title is, collapsed", () => {
    const html = page(
      "",
      `<article class="post-block"><header class="post-header"><h1 class="post-title" itemprop="name headline">
      选课
      通知<a href="/edit" class="post-edit-link" title="编辑"><i class="fa fa-pencil"></i></a></h1>
      <time itemprop="dateCreated datePublished" datetime="2024-05-09T18:21:00+08:00">2024-05-09</time></header>
      <div class="post-body"><p>全文</p></div></article>`,
    );
    expect(parseBlogArticle(html, URL_, NOW, listed).title).toBe("选课 通知");
  });

  test("a theme whose only h1 is the site's: og:title, else the feed's or list's title, never the site name", () => {
    const noHeading = page(
      '<meta property="og:site_name" content="教务处博客"><meta property="og:title" content="选课通知（第二轮）">',
      `<article><div class="entry-content"><p>全文</p></div></article>`,
    );
    expect(parseBlogArticle(noHeading, URL_, NOW, listed).title).toBe("选课通知（第二轮）");
    const bare = page("", `<div class="entry-content"><p>全文</p></div>`);
    expect(parseBlogArticle(bare, URL_, NOW, listed).title).toBe("选课 通知");
    const siteNamedHeading = page("", `<article><h2>教务处博客</h2><div class="entry-content"><p>全文</p></div></article>`);
    expect(parseBlogArticle(siteNamedHeading, URL_, NOW, { ...listed, title: "" }).title).toBe("选课通知");
  });

  test("listing titles and the page author are whitespace-collapsed", () => {
    const html = `<html><head><meta name="author" content=" 胡  金波 "></head><body><article class="post-block">
      <h2 class="post-title"><a class="post-title-link" href="/posts/1/">  安卓逆向
        分析 </a></h2><time itemprop="dateCreated datePublished" datetime="2020-10-24T15:01:26+08:00">x</time>
      <div class="post-body"><p>摘要</p></div></article></body></html>`;
    const { items } = parseBlogListing(html, "http://blog.test/", NOW);
    expect(items[0]).toMatchObject({ title: "安卓逆向 分析", author: "胡 金波" });
  });
});

describe("one bad field never loses a post", () => {
  test("a listing entry without a readable date keeps the date of the entry above it, with a warning", () => {
    const warnings: FieldWarning[] = [];
    const entry = (n: number, time: string) =>
      `<article class="post-block"><h2><a class="post-title-link" href="/posts/${n}/">第${n}篇</a></h2>${time}<div class="post-body"><p>摘要${n}</p></div></article>`;
    const html = `<html><body>${entry(1, '<time itemprop="datePublished" datetime="2024-05-09T18:21:00+08:00">2024-05-09</time>')}
      ${entry(2, '<time itemprop="datePublished" datetime="昨天吧">昨天吧</time>')}
      ${entry(3, '<time itemprop="datePublished">2024年5月1日 08:00</time>')}</body></html>`;
    const { items } = parseBlogListing(html, "http://blog.test/", NOW, { warn: (w) => warnings.push(w) });
    expect(items.map((i) => i.title)).toEqual(["第1篇", "第2篇", "第3篇"]);
    expect(items[1]!.publishedAt.toISOString()).toBe(items[0]!.publishedAt.toISOString());
    expect(warnings).toEqual([{ url: "http://blog.test/", field: "date", raw: "昨天吧", reason: "the date of the post listed above it" }]);
  });

  test("an article page without a recognisable body keeps the list's text, marked incomplete, with a warning", () => {
    const warnings: FieldWarning[] = [];
    const html = `<html><head><title>选课通知</title></head><body><div id="app">正在加载……</div></body></html>`;
    const item = parseBlogArticle(html, URL_, NOW, listed, { warn: (w) => warnings.push(w) });
    expect(item).toMatchObject({ html: "<p>摘要</p>", textIncomplete: true, publishedAt: listed.publishedAt });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ url: URL_, field: "body", raw: "正在加载……" });
  });

  test("an article date that cannot be read keeps the list's date, with the raw text", () => {
    const warnings: FieldWarning[] = [];
    const html = page(
      "",
      `<article><h1 class="entry-title">选课通知</h1><time class="entry-date published" datetime="">很久以前</time><div class="entry-content"><p>全文</p></div></article>`,
    );
    const item = parseBlogArticle(html, URL_, NOW, listed, { warn: (w) => warnings.push(w) });
    expect(item.publishedAt).toEqual(listed.publishedAt);
    expect(warnings).toEqual([{ url: URL_, field: "date", raw: "很久以前", reason: "the feed's or list's date" }]);
  });

  test("a feed item with a broken pubDate is kept with the feed's date, with a warning", () => {
    const warnings: FieldWarning[] = [];
    const rss = `<?xml version="1.0"?><rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel><title>教务处</title>
      <lastBuildDate>Thu, 09 May 2024 10:30:00 +0000</lastBuildDate>
      <item><title>选课通知</title><link>http://blog.test/a/</link><pubDate>星期四</pubDate><content:encoded><![CDATA[<p>全文</p>]]></content:encoded></item>
      <item><title>放假安排</title><link>http://blog.test/b/</link><pubDate>Wed, 08 May 2024 02:00:00 +0000</pubDate><content:encoded><![CDATA[<p>全文</p>]]></content:encoded></item>
      </channel></rss>`;
    const items = parseFeed(rss, "http://blog.test/feed/", NOW, (w) => warnings.push(w));
    expect(items.map((i) => [i.title, i.publishedAt.toISOString()])).toEqual([
      ["选课通知", "2024-05-09T10:30:00.000Z"],
      ["放假安排", "2024-05-08T02:00:00.000Z"],
    ]);
    expect(warnings).toEqual([{ url: "http://blog.test/feed/", field: "date", raw: "星期四", reason: "the feed's date" }]);
  });

  test("theme widgets inside the body (sharing, related posts) are not the post's text", () => {
    const html = page(
      "",
      `<article><h1 class="entry-title">选课通知</h1><div class="entry-content"><p>全文</p>
      <div class="sharedaddy"><h3 class="sd-title">分享此文：</h3></div><div class="jp-relatedposts">相关</div></div></article>`,
    );
    expect(parseBlogArticle(html, URL_, NOW, listed).html).toBe("<p>全文</p>");
  });
});

describe("WordPress feed entries say where their comments are", () => {
  test("slash:comments gives the count; 0 comments means no replies to read", () => {
    const rss = `<?xml version="1.0"?><rss version="2.0" xmlns:slash="http://purl.org/rss/1.0/modules/slash/" xmlns:wfw="http://wellformedweb.org/CommentAPI/"><channel><title>t</title><generator>https://wordpress.org/?v=6.4.2</generator>
      <item><title>a</title><link>http://blog.test/a/</link><pubDate>Thu, 09 May 2024 10:30:00 +0000</pubDate><guid isPermaLink="false">http://blog.test/?p=7</guid><wfw:commentRss>http://blog.test/a/feed/</wfw:commentRss><slash:comments>3</slash:comments></item>
      <item><title>b</title><link>http://blog.test/b/</link><pubDate>Thu, 09 May 2024 09:30:00 +0000</pubDate><slash:comments>0</slash:comments></item>
      </channel></rss>`;
    const items = parseFeed(rss, "http://blog.test/feed/", NOW);
    expect(items.map((i) => [i.replyCount, i.hasReplies])).toEqual([
      [3, true],
      [0, false],
    ]);
  });
});
