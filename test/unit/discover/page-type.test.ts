/**
 * The page-type analyser on real captured pages (../shared/fixtures/real; skipped with the reason
 * when absent) and on pages written for the tests.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { analysePageType, pageTypeFeatures, parsePage } from "../../../crawler/discover";
import { ARTICLE, BOARD, LIST } from "./pages";

const FIXTURES = process.env.CAMPUSWATCH_FIXTURES_DIR ?? path.resolve(import.meta.dirname, "../../../../shared/fixtures/real");
const haveFixtures = fs.existsSync(path.join(FIXTURES, "wordpress_author_listing.html"));
if (!haveFixtures) console.warn(`[page-type] real pages skipped: ${FIXTURES} not found`);

const real = (file: string, url: string) => parsePage(fs.readFileSync(path.join(FIXTURES, file), "utf8"), url);

describe.skipIf(!haveFixtures)("page types of real pages", () => {
  test.each([
    // A listing of post titles: two thirds of its text is link text, and there is no sentence.
    ["wordpress_author_listing.html", "hub", "https://zhaoshuai.me/author/zhaoshuai/"],
    // A blog's front page full of excerpts reads as text, but a site's front page is a hub.
    ["hexo_next_blog_index.html", "hub", "https://hujinbo.github.io/"],
    // A Tieba thread: 220 punctuation marks, a numeric file name.
    ["tieba_thread_detail_pb.html", "topic", "https://tieba.baidu.com/p/9117905169"],
    // A Tieba bar shows an abstract of every thread: by the paper's features it reads as text,
    // so it is judged by its text (relevant bars are followed).
    ["tieba_forum_list_frs.html", "topic", "https://tieba.baidu.com/f?kw=%E7%9B%97%E5%A2%93%E7%AC%94%E8%AE%B0"],
    // A weibo.cn timeline: the posts' text balances the links (a tie, and ties are judged by text).
    ["weibo_cn_profile_page1.html", "topic", "https://weibo.cn/1669879400/profile?page=1"],
  ] as const)("%s is a %s page", (file, type, url) => {
    expect(analysePageType(real(file, url)).type).toBe(type);
  });

  test("the features behind the votes", () => {
    const listing = pageTypeFeatures(real("wordpress_author_listing.html", "https://zhaoshuai.me/author/zhaoshuai/"));
    expect(listing).toMatchObject({ punctuation: 0, fileName: "", fileHint: "hub", siteRoot: false });
    expect(listing.linkTextRatio).toBeGreaterThan(0.6);
    const thread = pageTypeFeatures(real("tieba_thread_detail_pb.html", "https://tieba.baidu.com/p/9117905169"));
    expect(thread).toMatchObject({ fileName: "9117905169", fileHint: "topic" });
    expect(thread.punctuation).toBeGreaterThan(100);
    expect(thread.linkTextRatio).toBeLessThan(0.35);
  });

  test("Tieba's thread list, shipped inside an HTML comment, is read", () => {
    const bar = real("tieba_forum_list_frs.html", "https://tieba.baidu.com/f?kw=%E7%9B%97%E5%A2%93%E7%AC%94%E8%AE%B0");
    expect(bar.links.filter((l) => /^https:\/\/tieba\.baidu\.com\/p\/\d+$/.test(l.url)).length).toBeGreaterThanOrEqual(40);
  });
});

describe("page types of our own pages", () => {
  test.each([
    ["an article with menus and link boxes", ARTICLE, "http://news.example.com/sports/2024/05/100.shtml", "topic"],
    ["a category list with a pager", LIST, "http://news.example.com/sports/index_2.shtml", "hub"],
    ["a forum board", BOARD, "http://bbs.example.edu.cn/forum.php?mod=forumdisplay&fid=7", "hub"],
    ["a site's front page", LIST, "http://news.example.com/", "hub"],
    ["a page without links", "<html><body><p>只有一段话。</p></body></html>", "http://x.example.com/", "topic"],
  ])("%s", (_what, html, url, type) => {
    expect(analysePageType(parsePage(html, url)).type).toBe(type);
  });

  test.each([
    ["/2024/05/01/some-title.html", "topic"],
    ["/p/123456", "topic"],
    ["/archives/42", "topic"],
    ["/forum.php?mod=viewthread&tid=9", "topic"],
    ["/news/20240501123.shtml", "topic"],
    ["/index.html", "hub"],
    ["/list_3.html", "hub"],
    ["/category/sports/", "hub"],
    ["/tag/足球", "hub"],
    ["/about-us.html", null],
  ])("file name of %s suggests %s", (p, hint) => {
    expect(pageTypeFeatures(parsePage("<html><body><a href='/'>x</a></body></html>", `http://a.example.com${p}`)).fileHint).toBe(hint);
  });

  test("thresholds are options", () => {
    const page = parsePage(ARTICLE, "http://news.example.com/sports/2024/05/100.shtml");
    const v = analysePageType(page);
    expect(v.type).toBe("topic");
    // Demand more punctuation and count a lower link ratio as "mostly links": the article now reads as a hub.
    expect(analysePageType(page, { hubLinkRatio: 0.2, topicMinPunctuation: 1000, hubMaxPunctuation: 1000, topicMinUrlLength: 1000 }).type).toBe("hub");
  });
});
