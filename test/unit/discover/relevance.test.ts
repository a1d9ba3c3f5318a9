/**
 * Relevance parts: weighted relevance, URL evidence, URL words, the common link filters,
 * candidate accounts from page URLs, harvest reports and chart rows.
 */
import { describe, expect, test } from "vitest";
import {
  analysePageType,
  candidateKeyOf,
  CandidateTally,
  commonFilter,
  harvestAt,
  harvestReport,
  mergeByUrl,
  parsePage,
  toHarvestChart,
  UrlEvidence,
  urlWords,
  weightedRelevance,
  type LinkVerdict,
} from "../../../crawler/discover";
import { WordMatcher } from "../../../crawler/classify";
import { reasonGroup } from "../../../server/discovery";
import { ARTICLE } from "./pages";

describe("weighted relevance R = w1·body + w2·anchor + w3·url", () => {
  test.each([
    [{ body: 1, anchor: 1, url: 1 }, { body: 0.3, anchor: 0.5, url: 0.2 }, 1],
    [{ body: 1, anchor: 0, url: 0 }, { body: 0.3, anchor: 0.5, url: 0.2 }, 0.3],
    [{ body: 0, anchor: 1, url: 0 }, { body: 1, anchor: 1, url: 2 }, 0.25],
    [{ body: 0.5, anchor: 0.5, url: 0.5 }, { body: 0, anchor: 0, url: 0 }, 0],
  ])("%o weighted %o is %d", (c, w, r) => {
    expect(weightedRelevance(c, w)).toBeCloseTo(r, 12);
  });
});

describe("URL evidence", () => {
  test("a directory's pages speak for its unseen siblings, shrunk towards the site and the crawl", () => {
    const e = new UrlEvidence();
    expect(e.estimate("http://a.cn/sports/1.html")).toBe(0.5);
    for (let i = 0; i < 8; i++) e.observe(`http://a.cn/sports/${i}.html`, true);
    for (let i = 0; i < 8; i++) e.observe(`http://a.cn/ent/${i}.html`, false);
    const sports = e.estimate("http://a.cn/sports/99.html");
    const ent = e.estimate("http://a.cn/ent/99.html");
    const opaque = e.estimate("http://a.cn/a/x9f.html");
    expect(sports).toBeGreaterThan(0.8);
    expect(ent).toBeLessThan(0.2);
    expect(opaque).toBeCloseTo(0.5, 5);
    expect(e.estimate("http://b.cn/sports/1.html")).toBeCloseTo(0.5, 5);
  });

  test.each([
    ["http://a.cn/x/y/z.html", ["a.cn/", "a.cn/x/", "a.cn/x/y/"]],
    ["http://a.cn:8080/", ["a.cn:8080/"]],
    ["http://a.cn/p?id=3", ["a.cn/"]],
  ])("directories of %s", (url, keys) => {
    expect(UrlEvidence.prefixes(url)).toEqual(keys);
  });

  test.each([
    ["https://tieba.baidu.com/f?kw=%E5%8D%97%E4%BA%AC%E5%A4%A7%E5%AD%A6", "南京大学"],
    ["http://a.cn/tag/足球/", "足球"],
    ["http://a.cn/sports/2024/1.html", ""],
  ])("words of %s: %j", (url, words) => {
    expect(urlWords(url)).toBe(words);
  });
});

describe("common filters", () => {
  const url = "http://news.example.com/sports/2024/05/100.shtml";
  const page = parsePage(ARTICLE, url);
  const view = { url, layer: 1, page, judgement: { score: 0.9, relevant: true }, pageType: analysePageType(page) };

  test("links whose text holds a sensitive word are dropped", () => {
    const { candidates, rejected } = commonFilter(view, { sensitive: new WordMatcher(["博彩"]), sites: null });
    expect(rejected).toEqual([
      expect.objectContaining({ url: "http://ads.example.net/a2", accepted: false, reason: 'sensitive word "博彩" in the link text' }),
    ]);
    expect(candidates).toHaveLength(page.links.length - 1);
  });

  test("same-site drops links to other sites", () => {
    const { rejected } = commonFilter(view, { sensitive: new WordMatcher([]), sites: new Set(["example.com"]) });
    expect(rejected.map((r) => r.url).sort()).toEqual([
      "http://ads.example.net/a1",
      "http://ads.example.net/a2",
      "http://ads.example.net/a3",
      "http://sports.other-news.cn/news/104.html",
    ]);
  });

  test("one verdict per URL: the best acceptance wins over rejections and lower priorities", () => {
    const v = (url: string, order: number, accepted: boolean, priority: number): LinkVerdict => ({ url, anchor: "", order, accepted, priority, reason: "" });
    expect(mergeByUrl([v("a", 3, false, 0), v("b", 1, true, 0.2), v("a", 5, true, 0.4), v("a", 7, true, 0.9), v("b", 0, false, 0)])).toEqual([
      v("b", 0, true, 0.2),
      v("a", 3, true, 0.9),
    ]);
  });
});

describe("candidate accounts", () => {
  test.each([
    ["https://weibo.com/u/1669879400?page=2", { url: "https://weibo.com/u/1669879400", platform: "weibo" }],
    [
      "https://tieba.baidu.com/f?kw=%E5%8D%97%E4%BA%AC%E5%A4%A7%E5%AD%A6&pn=50",
      { url: "https://tieba.baidu.com/f?kw=%E5%8D%97%E4%BA%AC%E5%A4%A7%E5%AD%A6", platform: "tieba", name: "南京大学吧" },
    ],
    ["http://bbs.example.edu.cn/forum-7-2.html", { url: "http://bbs.example.edu.cn/forum.php?mod=forumdisplay&fid=7", platform: "discuz" }],
    ["http://blog.example.cn/2024/05/01/post.html", { url: "http://blog.example.cn/", platform: "blog", name: "blog.example.cn" }],
  ])("%s belongs to %o", (page, key) => {
    expect(candidateKeyOf(page)).toMatchObject(key);
  });

  test("a Tieba thread URL does not name its bar, so it proposes nothing", () => {
    expect(candidateKeyOf("https://tieba.baidu.com/p/9117905169")).toBeNull();
  });

  test("a site is proposed only after enough relevant pages", () => {
    const t = new CandidateTally({ minRelevantPages: 3 });
    t.observe("http://a.cn/1.html", true);
    t.observe("http://a.cn/2.html", false);
    t.observe("http://a.cn/3.html", true);
    expect(t.proposed()).toEqual([]);
    t.observe("http://a.cn/4.html", true);
    expect(t.proposed()).toEqual([expect.objectContaining({ url: "http://a.cn/", relevantPages: 3, crawledPages: 4, score: 0.75 })]);
    expect(t.takeChanged()).toHaveLength(1);
    expect(t.takeChanged()).toHaveLength(0);
  });
});

describe("harvest rate", () => {
  const points = Array.from({ length: 1200 }, (_, i) => ({ crawled: i + 1, relevant: Math.floor((i + 1) * 0.6) }));

  test("at fixed page counts, and where the run ended", () => {
    expect(harvestReport(points).map((r) => [r.pages, r.relevant])).toEqual([
      [100, 60],
      [200, 120],
      [300, 180],
      [500, 300],
      [1000, 600],
      [1200, 720],
    ]);
    expect(harvestAt(points, 500)).toBe(0.6);
    expect(harvestAt(points, 5000)).toBeNull();
    expect(harvestReport([])).toEqual([]);
  });

  test("chart rows put curves on one grid of page counts", () => {
    const short = points.slice(0, 450).map((p) => ({ crawled: p.crawled, relevant: Math.floor(p.crawled * 0.3) }));
    const rows = toHarvestChart(
      [
        { key: "#1 bfs", points: short },
        { key: "#2 focused", points },
      ],
      12,
    );
    expect(rows.map((r) => r.crawled)).toEqual([100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 1100, 1200]);
    expect(rows[0]).toEqual({ crawled: 100, "#1 bfs": 0.3, "#2 focused": 0.6 });
    expect(rows[4]).toEqual({ crawled: 500, "#2 focused": 0.6 });
    expect(toHarvestChart([])).toEqual([]);
  });
});

describe("drop reasons as the dashboard counts them", () => {
  test.each([
    ["block div.hot: rule title-words (0 content words shared with the title)", "block rule: title-words"],
    ["block ul: classifier 0.012 < 0.3", "block classifier below threshold"],
    ["over the 255/L budget of layer 4", "over the 255/L budget"],
    ["relevance 0.201 < 0.25", "link relevance below threshold"],
    ['sensitive word "博彩" in the link text', "sensitive word “博彩”"],
    ["unreachable: disallowed by robots.txt", "disallowed by robots.txt"],
    ["unreachable: HTTP 404", "unreachable"],
    ["off-topic page (score 0.003)", "off-topic page (crawled)"],
    ["found on an off-topic page", "found on an off-topic page"],
    ["duplicate of http://a.cn/1.html", "duplicate content (crawled)"],
    [null, "unknown"],
  ])("%s → %s", (reason, group) => {
    expect(reasonGroup(reason)).toBe(group);
  });
});
