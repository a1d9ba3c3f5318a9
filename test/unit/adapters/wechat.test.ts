/**
 * The WeChat article parser on the real captures (../shared/fixtures/real/newer): a 2018 article
 * of 华商报 and WeChat's expired-link page. Skipped, saying why, when the captures are absent.
 */
import { describe, expect, it } from "vitest";
import { parseWechatArticle } from "../../../crawler/adapters";
import { wechat, wechatArticleOf } from "../../../lib/platforms/wechat";
import type { FieldWarning } from "../../../crawler/types";
import { htmlToText } from "../../../crawler/text";
import { readReal, realAvailable } from "./helpers";

const NOW = new Date("2026-12-04T08:00:00Z");
const ARTICLE_URL = "https://mp.weixin.qq.com/s?__biz=ODUzMjkwMzYx&mid=2654593305&idx=1&sn=5c8f1b0e&chksm=01&scene=21#wechat_redirect";

describe.skipIf(!realAvailable)("WeChat article pages (real captures)", () => {
  it("reads the article: title, account, account id, publish time from var ct, text of #js_content", () => {
    const warnings: FieldWarning[] = [];
    const page = parseWechatArticle(readReal("newer/wechat_article_huashangbao_2018-04-06.html"), ARTICLE_URL, NOW, (w) => warnings.push(w));
    expect(warnings).toEqual([]);
    if (page.state !== "article") throw new Error(`read as ${page.state}`);
    const { item } = page;
    expect(item).toMatchObject({
      platformId: "ODUzMjkwMzYx_2654593305_1",
      kind: "post",
      url: "https://mp.weixin.qq.com/s?__biz=ODUzMjkwMzYx&mid=2654593305&idx=1&sn=5c8f1b0e",
      title: "4月6日周五【新闻速览一分钟】",
      author: "华商报",
      authorId: "ODUzMjkwMzYx",
    });
    // var ct = "1522968980": 2018-04-06 06:56:20 in Beijing.
    expect(item.publishedAt.toISOString()).toBe("2018-04-05T22:56:20.000Z");
    const text = htmlToText(item.html);
    expect(text).toMatch(/^早上好~/);
    expect(text).toContain("戊戌（2018）年清明公祭轩辕黄帝典礼在黄陵举行");
    // The page's scripts and meta block are not the article's text.
    expect(text).not.toMatch(/var |微信号|功能介绍/);
    expect(item.images!.every((u) => /^https?:\/\/mmbiz\.qpic\.cn\//.test(u))).toBe(true);
    expect(item.images!.length).toBeGreaterThan(3);
  });

  it("a page saved without its address names the article by the page's own biz and mid", () => {
    const page = parseWechatArticle(readReal("newer/wechat_article_huashangbao_2018-04-06.html"), "https://mp.weixin.qq.com/s", NOW, () => undefined);
    expect(page.state === "article" && page.item.platformId).toBe("ODUzMjkwMzYx_2654593305_1");
  });

  it("the expired-link page is a removal, with WeChat's notice", () => {
    const page = parseWechatArticle(readReal("newer/wechat_article_expired_2018.html"), ARTICLE_URL, NOW, () => undefined);
    expect(page).toEqual({ state: "gone", notice: "链接已过期" });
  });
});

describe("WeChat article URLs", () => {
  it("name the article by its token or by __biz, mid and idx; other WeChat pages are no article", () => {
    expect(wechatArticleOf(new URL("https://mp.weixin.qq.com/s/Xq3B0kYtT6l8gQ2mZr9wAA"))?.id).toBe("Xq3B0kYtT6l8gQ2mZr9wAA");
    expect(wechatArticleOf(new URL(ARTICLE_URL))).toEqual({
      id: "ODUzMjkwMzYx_2654593305_1",
      url: "https://mp.weixin.qq.com/s?__biz=ODUzMjkwMzYx&mid=2654593305&idx=1&sn=5c8f1b0e",
    });
    expect(wechatArticleOf(new URL("https://mp.weixin.qq.com/mp/profile_ext?action=home&__biz=ODUzMjkwMzYx"))).toBeNull();
    expect(wechat.features).toMatchObject({ replies: false, deletions: true });
  });
});
