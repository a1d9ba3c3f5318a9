/**
 * The 255/L link budget (method.md §5): all links on layer 0, at most ⌊255/L⌋ from a page on
 * layer L, the most topic-similar kept.
 */
import { describe, expect, test } from "vitest";
import {
  analysePageType,
  applyLinkBudget,
  commonFilter,
  contentWords,
  focusedStrategy,
  linkBudget,
  parsePage,
  UrlEvidence,
  type PageView,
  type TopicJudge,
} from "../../../crawler/discover";
import { WordMatcher } from "../../../crawler/classify";

/** A judge that calls any text with 体育 in it on-topic (what a trained model would say, without one). */
const judge: TopicJudge = {
  kind: "keywords",
  judge: (text) => ({ score: text.includes("体育") ? 0.9 : 0.1, relevant: text.includes("体育") }),
  score: (text) => (text.includes("体育") ? 0.9 : 0.1),
};

/** A list page of `n` links: even ones about 体育, odd ones not. */
function listPage(n: number): string {
  const items = Array.from(
    { length: n },
    (_, i) => `<li><a href="/a/${i}.html">${i % 2 === 0 ? `体育新闻第${i}条 球队主场取胜` : `综合新闻第${i}条 今日消息汇总`}</a></li>`,
  );
  return `<html><head><title>新闻列表</title></head><body><div class="list"><ul>${items.join("")}</ul></div></body></html>`;
}

function view(html: string, layer: number): PageView {
  const url = "http://news.example.com/list/";
  const page = parsePage(html, url);
  return { url, layer, page, judgement: judge.judge(page.text), pageType: analysePageType(page) };
}

function expand(html: string, layer: number) {
  const v = view(html, layer);
  const { candidates } = commonFilter(v, { sensitive: new WordMatcher([]), sites: null });
  return focusedStrategy().expand(v, candidates, { judge, urlEvidence: new UrlEvidence(), words: contentWords });
}

describe("the 255/L budget", () => {
  test.each([
    [0, Infinity],
    [1, 255],
    [2, 127],
    [3, 85],
    [5, 51],
    [10, 25],
    [255, 1],
    [256, 0],
  ])("layer %i keeps at most %d links", (layer, budget) => {
    expect(linkBudget(layer)).toBe(budget);
  });

  test("the most similar links are kept, ties in document order, and both lists stay in document order", () => {
    const links = [0.2, 0.9, 0.5, 0.9, 0.1].map((s, order) => ({ order, s }));
    const { kept, dropped } = applyLinkBudget(links, 85, (l) => l.s);
    expect(kept).toHaveLength(3);
    expect(kept.map((l) => l.order)).toEqual([1, 2, 3]);
    expect(dropped.map((l) => l.order)).toEqual([0, 4]);
    expect(applyLinkBudget(links, 0, (l) => l.s).kept).toHaveLength(5);
  });

  test.each([
    [0, 300, 150],
    [1, 255, 150],
    [2, 127, 127],
    [3, 85, 85],
  ])("a focused page on layer %i with 300 links queues %i, %i of them about the topic", (layer, queued, onTopic) => {
    const verdicts = expand(listPage(300), layer);
    const accepted = verdicts.filter((v) => v.accepted);
    expect(accepted).toHaveLength(queued);
    expect(accepted.filter((v) => v.anchor.startsWith("体育"))).toHaveLength(onTopic);
    const over = verdicts.filter((v) => !v.accepted);
    expect(over).toHaveLength(300 - queued);
    expect(over.every((v) => v.reason === `over the 255/L budget of layer ${layer}`)).toBe(true);
  });

  test("the budget counts distinct URLs, not links", () => {
    const twice = listPage(200).replace(
      "</ul>",
      `${Array.from({ length: 200 }, (_, i) => `<li><a href="/a/${i}.html">体育 again ${i}</a></li>`).join("")}</ul>`,
    );
    expect(expand(twice, 1).filter((v) => v.accepted)).toHaveLength(200);
  });
});
