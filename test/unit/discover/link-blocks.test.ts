/**
 * Splitting pages into link blocks, and the block rules (pass 1) of the link predictor, on pages
 * written for the tests and on real captured pages (skipped with the reason when absent).
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import {
  blockAnchorText,
  blockRuleFailure,
  contentWords,
  gbBytes,
  measureBlock,
  parsePage,
  type BlockMeasures,
  type LinkBlock,
} from "../../../crawler/discover";
import { ARTICLE, BOARD, LIST } from "./pages";

const URL_ARTICLE = "http://news.example.com/sports/2024/05/100.shtml";
const FIXTURES = process.env.CAMPUSWATCH_FIXTURES_DIR ?? path.resolve(import.meta.dirname, "../../../../shared/fixtures/real");
const haveFixtures = fs.existsSync(path.join(FIXTURES, "wordpress_author_listing.html"));

/** The block a link (by its URL) sits in. */
function blockWith(blocks: readonly LinkBlock[], url: string): LinkBlock {
  const b = blocks.find((x) => x.links.some((l) => l.url === url));
  if (!b) throw new Error(`no block holds ${url}`);
  return b;
}

describe("link blocks", () => {
  test("an article splits into its regions: menu, related box, hot box, ads, footer", () => {
    const page = parsePage(ARTICLE, URL_ARTICLE);
    expect(page.blocks.map((b) => `${b.label}:${b.links.length}`)).toEqual(["div.nav:5", "ul:4", "ul:3", "div.ad:3", "div.footer:3"]);
    expect(page.title).toBe("女排世界杯三比零战胜强敌 主教练称防守还需加强_体育新闻");
    // Links are resolved against the page and kept in document order.
    expect(page.links[5]).toMatchObject({ url: "http://news.example.com/sports/2024/05/101.shtml", anchor: "女排世界杯首战告捷 主攻手砍下二十分", order: 5 });
    // The content text is the article without its link text.
    expect(page.contentText).toContain("主教练赛后表示");
    expect(page.contentText).not.toContain("首战告捷");
    expect(page.punctuation).toBeGreaterThanOrEqual(10);
  });

  test("entries of a few links each (a forum board's threads) form one block, not one per entry", () => {
    const page = parsePage(BOARD, "http://bbs.example.edu.cn/forum.php?mod=forumdisplay&fid=7");
    expect(page.blocks).toHaveLength(1);
    expect(page.blocks[0]?.links).toHaveLength(36);
  });

  test("a list and its pager are separate blocks", () => {
    const page = parsePage(LIST, "http://news.example.com/sports/index_2.shtml");
    expect(page.blocks.map((b) => b.links.length)).toEqual([5, 30, 4, 3]);
    expect(blockAnchorText(page.blocks[2] as LinkBlock)).toBe("上一页\n1\n3\n下一页");
  });

  test("nofollow pages offer no links to follow; <base href> resolves links", () => {
    expect(
      parsePage(`<html><head><meta name="robots" content="noindex, nofollow"></head><body><a href="/a">x</a></body></html>`, "http://a.example.com/").nofollow,
    ).toBe(true);
    const page = parsePage(
      `<html><head><base href="http://cdn.example.com/dir/"></head><body><a href="x.html#frag">x</a><a href="javascript:void(0)">y</a></body></html>`,
      "http://a.example.com/",
    );
    expect(page.links.map((l) => l.url)).toEqual(["http://cdn.example.com/dir/x.html"]);
  });
});

describe("block rules", () => {
  test.each([
    ["首页", 4],
    ["下一页", 6],
    ["Index", 5],
    ["女排世界杯首战告捷", 18],
    ["NBA季后赛", 9],
  ])("%s is %i bytes in GB2312", (text, bytes) => {
    expect(gbBytes(text)).toBe(bytes);
  });

  test("on an article: the menu is too short, the off-topic box and the ads share no word with the title, the ads are off-site", () => {
    const page = parsePage(ARTICLE, URL_ARTICLE);
    const title = contentWords(page.title);
    const verdict = (url: string) => {
      const m = measureBlock(blockWith(page.blocks, url), URL_ARTICLE, title, contentWords);
      return { rule: blockRuleFailure(m, { pageType: "topic", titleWordCount: title.size }), m };
    };
    expect(verdict("http://news.example.com/ent/").rule).toBe("anchor-length");
    const related = verdict("http://news.example.com/sports/2024/05/101.shtml");
    expect(related.rule).toBeNull();
    expect(related.m.titleWords).toBeGreaterThanOrEqual(2); // 女排, 世界杯, 主教练, 防守 …
    expect(related.m.onSiteRatio).toBe(0.75);
    const hot = verdict("http://news.example.com/ent/2024/05/201.shtml");
    expect(hot).toMatchObject({ rule: "title-words", m: { titleWords: 0 } });
    // The ads fail the title rule first (rules go in the paper's order); they are off-site too.
    const ads = verdict("http://ads.example.net/a1");
    expect(ads).toMatchObject({ rule: "title-words", m: { onSiteRatio: 0 } });
    expect(blockRuleFailure(ads.m, { pageType: "hub", titleWordCount: title.size })).toBe("on-site");
    expect(verdict("http://news.example.com/about.html").rule).toBe("anchor-length");
  });

  const m = (over: Partial<BlockMeasures>): BlockMeasures => ({ links: 5, avgAnchorBytes: 20, titleWords: 2, onSiteRatio: 1, ...over });
  test.each([
    ["all good", m({}), "topic", null],
    ["anchors of 9.9 bytes", m({ avgAnchorBytes: 9.9 }), "topic", "anchor-length"],
    ["anchors of exactly 10 bytes", m({ avgAnchorBytes: 10 }), "topic", null],
    ["no title word on an article", m({ titleWords: 0 }), "topic", "title-words"],
    ["no title word on a hub (its title names the site)", m({ titleWords: 0 }), "hub", null],
    ["on-site ratio 0.59", m({ onSiteRatio: 0.59 }), "topic", "on-site"],
    ["on-site ratio 0.6", m({ onSiteRatio: 0.6 }), "topic", null],
    ["short anchors AND off-site: the first rule is named", m({ avgAnchorBytes: 3, onSiteRatio: 0 }), "hub", "anchor-length"],
  ] as const)("%s", (_what, measures, pageType, rule) => {
    expect(blockRuleFailure(measures, { pageType, titleWordCount: 4 })).toBe(rule);
  });

  test("thresholds are options; the title rule waits for a title that says something", () => {
    const weak = m({ avgAnchorBytes: 8, titleWords: 0, onSiteRatio: 0.5 });
    expect(blockRuleFailure(weak, { pageType: "topic", titleWordCount: 4 }, { minAvgAnchorBytes: 6 })).toBe("title-words");
    expect(blockRuleFailure(weak, { pageType: "topic", titleWordCount: 1 }, { minAvgAnchorBytes: 6 })).toBe("on-site");
    expect(blockRuleFailure(weak, { pageType: "topic", titleWordCount: 4 }, { minAvgAnchorBytes: 6, titleRuleOn: "off", minOnSiteRatio: 0.5 })).toBeNull();
    expect(blockRuleFailure(weak, { pageType: "hub", titleWordCount: 4 }, { minAvgAnchorBytes: 6, titleRuleOn: "all" })).toBe("title-words");
  });

  test.skipIf(!haveFixtures)("a real WordPress listing: the menus fail the length rule, the list of posts passes", () => {
    const url = "https://zhaoshuai.me/author/zhaoshuai/";
    const page = parsePage(fs.readFileSync(path.join(FIXTURES, "wordpress_author_listing.html"), "utf8"), url);
    const title = contentWords(page.title);
    const rules = page.blocks.map((b) => [
      b.label.split("#")[0],
      b.links.length,
      blockRuleFailure(measureBlock(b, url, title, contentWords), { pageType: "hub", titleWordCount: title.size }),
    ]);
    expect(rules).toContainEqual(["ul.mod-archive__list", 10, null]);
    expect(rules.filter(([label]) => String(label).startsWith("ul.mod-head") || String(label).startsWith("ul.ymod-head"))).toEqual([
      ["ul.mod-head__ul", 7, "anchor-length"],
      ["ul.ymod-head", 7, "anchor-length"],
    ]);
  });

  test.skipIf(!haveFixtures)("a real blog front page: the ten posts (title, category, 阅读全文) are one block", () => {
    const url = "https://hujinbo.github.io/";
    const page = parsePage(fs.readFileSync(path.join(FIXTURES, "hexo_next_blog_index.html"), "utf8"), url);
    const posts = blockWith(page.blocks, "https://hujinbo.github.io/posts/56548/");
    expect(posts.links.length).toBeGreaterThanOrEqual(29);
    expect(posts.links.some((l) => l.anchor === "阅读全文 »")).toBe(true);
  });
});
