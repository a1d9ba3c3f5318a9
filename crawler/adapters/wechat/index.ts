/**
 * WeChat official-account articles (微信公众号文章). An account is one article URL (an account's
 * list of articles is served only to the WeChat app, with its tokens): each run reads the article
 * page again, so an edit is stored as a new version, and WeChat's removed or expired page
 * ("此内容因违规无法查看", "该内容已被发布者删除", "链接已过期") marks it deleted.
 *
 * - The page: title `#activity-name` (else `og:title`, `var msg_title`), account name `#js_name`
 *   (older pages: `#post-user`, else `var nickname`), account id `__biz` (the URL's, else the
 *   page's `var biz`), publish time `var ct = "<unix seconds>"` (else `#publish_time` or
 *   `var publish_time`, warned), text `#js_content` (stored as crawled, sanitised at display).
 * - No replies: an article's comments are only served to the WeChat app.
 * - `list()` reads the page and yields the article whole. When WeChat serves its removed page,
 *   `list()` yields the article as an incomplete entry and `complete()` throws the GoneError it
 *   saw (no second request): the worker marks the stored article deleted.
 * - WeChat's "环境异常" check (a captcha for requests it takes for a robot) is a block.
 */
import * as cheerio from "cheerio";
import { tryParsePlatformDate } from "../../dates";
import { BlockedError, GoneError, NonRetryableError } from "../../errors";
import type { Adapter, AdapterContext, CaptureKind, CrawlItem, FieldWarning, ListItem, ListPage } from "../../types";
import { wechat, wechatArticleOf } from "../../../lib/platforms/wechat";
import { captureUrl } from "../captures";
import { imagesIn, structureWarning } from "../shared";

/** WeChat's notices of an article that is gone: removed for a violation, deleted by its author, an expired link. */
const GONE_NOTICE =
  /此内容因违规无法查看|该内容已被发布者删除|内容已被删除|已删除|违规|链接已过期|此内容被投诉且经审核涉嫌侵权|该公众号已迁移|此帐号已被屏蔽|此帐号已自主注销/;

/** WeChat's check of a client it takes for a robot: a block, never an article. */
const BLOCK_NOTICE = /环境异常|完成验证后即可继续访问|请在微信客户端打开链接/;

/** Runs of whitespace (full-width included) as one space. */
function collapse(text: string | undefined): string {
  return (text ?? "").replace(/[\s\u00a0\u3000]+/g, " ").trim();
}

/** A `var name = "…"` of the page's scripts; `var biz = "" || "X"` gives X (the first non-empty string). */
function pageVar(html: string, name: string): string | undefined {
  const m = new RegExp(`var\\s+${name}\\s*=\\s*((?:(?:"[^"\\n]*"|'[^'\\n]*')\\s*\\|\\|\\s*)*(?:"[^"\\n]*"|'[^'\\n]*'))`).exec(html);
  if (!m?.[1]) return undefined;
  for (const part of m[1].matchAll(/"([^"\n]*)"|'([^'\n]*)'/g)) {
    const value = part[1] ?? part[2] ?? "";
    if (value !== "") return value;
  }
  return undefined;
}

/** What one article page is: the article, a removal notice, or neither (a page we do not know). */
export type WechatPage = { state: "article"; item: CrawlItem } | { state: "gone"; notice: string } | { state: "unknown" };

/**
 * One article page. Exported for the unit tests on the real captures and for `campuswatch parse`.
 * A field that cannot be read is warned about and replaced; only an id-less article is refused.
 * @param pageUrl the article's URL (its id, and where relative links resolve)
 * @throws BlockedError on WeChat's "环境异常" check
 */
export function parseWechatArticle(html: string, pageUrl: string, now: Date, warn: (w: FieldWarning) => void): WechatPage {
  const $ = cheerio.load(html);
  const content = $("#js_content").first();
  if (content.length === 0) {
    const said = collapse($(".weui-msg__title, .global_error_msg, .weui-msg").first().text()) || collapse($("body").text()).slice(0, 200);
    if (BLOCK_NOTICE.test(said)) throw new BlockedError(`WeChat asks for a verification: ${said.slice(0, 80)}`, pageUrl);
    if (GONE_NOTICE.test(said)) return { state: "gone", notice: said.slice(0, 120) };
    return { state: "unknown" };
  }
  const url = new URL(pageUrl);
  const article = wechatArticleOf(url);
  const biz = url.searchParams.get("__biz") ?? pageVar(html, "biz");
  const mid = pageVar(html, "mid") ?? pageVar(html, "appmsgid");
  const idx = pageVar(html, "idx") ?? "1";
  // The URL names the article; a page saved without its address names itself by its account and message.
  const id = article?.id ?? (biz && mid ? `${biz}_${mid}_${idx}` : null);
  if (!id) throw new NonRetryableError("no article id: neither the URL (/s/{token}, /s?__biz=&mid=) nor the page (var biz, var mid) names it", pageUrl);

  const title =
    collapse($("#activity-name").first().text()) || collapse($('meta[property="og:title"]').attr("content")) || collapse(pageVar(html, "msg_title"));
  if (!title) warn({ url: pageUrl, field: "title", raw: "", reason: "no #activity-name, og:title or msg_title: stored without a title" });
  const author =
    collapse($("#js_name").first().text()) ||
    collapse($("#post-user").first().text()) ||
    collapse($(".rich_media_meta_nickname").first().text()) ||
    collapse(pageVar(html, "nickname"));
  if (!author) warn({ url: pageUrl, field: "author", raw: "", reason: "no #js_name or nickname: stored without the account's name" });

  const ct = pageVar(html, "ct");
  let publishedAt = tryParsePlatformDate(ct, now, "wechat");
  if (!publishedAt) {
    const shown = collapse($("#publish_time").first().text()) || collapse($("#post-date").first().text()) || collapse(pageVar(html, "publish_time"));
    publishedAt = tryParsePlatformDate(shown, now, "wechat");
    warn({
      url: pageUrl,
      field: "date",
      raw: ct ?? shown,
      reason: publishedAt ? "no var ct: used the day the page shows" : "no var ct and no readable day: used the crawl time",
    });
    publishedAt ??= now;
  }
  const body = (content.html() ?? "").trim();
  const item: CrawlItem = {
    platformId: id,
    kind: "post",
    url: article?.url ?? (biz && mid ? `${url.origin}/s?__biz=${encodeURIComponent(biz)}&mid=${mid}&idx=${idx}` : pageUrl),
    title,
    author,
    ...(biz ? { authorId: biz } : {}),
    publishedAt,
    html: body,
    images: imagesIn(body, pageUrl),
    source: { url: pageUrl, body: html },
  };
  return { state: "article", item };
}

/** The article of an account: its entry URL (normalised, tracking parameters dropped) and id. */
function articleOf(ctx: AdapterContext): { id: string; url: string } {
  const article = wechatArticleOf(new URL(ctx.account.entryUrl));
  if (!article)
    throw new NonRetryableError(`not a WeChat article URL: ${ctx.account.entryUrl} (expected ${wechat.entryUrlForms.join(" or ")})`, ctx.account.entryUrl);
  return article;
}

/** The removals `list()` saw in a run, by article id, for `complete()` to report (keyed by the run's context). */
const goneInRun = new WeakMap<AdapterContext, Map<string, GoneError>>();

/** What `campuswatch parse` reads for WeChat: the article page. */
const wechatCaptureKinds: readonly CaptureKind[] = [
  {
    kind: "article",
    summary: "an article page (mp.weixin.qq.com/s/…); a removed or expired page is an error naming WeChat's notice",
    looksLike: (body) => body.includes('id="js_content"') || body.includes("weui-msg"),
    parse(body, options) {
      const url = captureUrl(options, body, "https://mp.weixin.qq.com/s");
      const page = parseWechatArticle(body, url, options.now, options.warn);
      if (page.state === "gone") throw new GoneError(`WeChat says the article is gone: ${page.notice}`, url);
      if (page.state === "unknown") throw new NonRetryableError("not a WeChat article page: no #js_content and no removal notice", url);
      return [page.item];
    },
  },
];

/** WeChat official-account articles, one per account. */
export const wechatAdapter: Adapter = {
  platform: wechat.id,
  recognise: wechat.recognise,
  repliesIncludeHead: false,
  captureKinds: wechatCaptureKinds,

  async *list(ctx: AdapterContext): AsyncGenerator<ListPage> {
    const article = articleOf(ctx);
    // The entry URL as registered is on the account's origin already (a local copy is read like the real site).
    const res = await ctx.fetch.get(article.url, { kind: "list" });
    const page = parseWechatArticle(res.body, res.url === article.url ? article.url : res.url, ctx.now, ctx.warn);
    if (page.state === "article") {
      // The stored identity is the entry's, wherever WeChat redirected.
      yield { url: res.url, items: [{ ...page.item, platformId: article.id, url: article.url }] };
      return;
    }
    if (page.state === "unknown") {
      ctx.warn(structureWarning(res.url, "an article (#js_content) or WeChat's removal notice (.weui-msg__title)", res.body));
      return;
    }
    const gone = new GoneError(`WeChat says the article is gone: ${page.notice}`, res.url);
    const seen = goneInRun.get(ctx) ?? new Map<string, GoneError>();
    seen.set(article.id, gone);
    goneInRun.set(ctx, seen);
    // The worker completes an incomplete entry; complete() answers with the removal (./index.ts header).
    yield {
      url: res.url,
      items: [{ platformId: article.id, kind: "post", url: article.url, title: "", author: "", publishedAt: ctx.now, html: "", incomplete: true }],
    };
  },

  /**
   * Only an article `list()` found removed is incomplete: its removal, as seen. Anything else is
   * read from its page.
   * @throws GoneError when WeChat serves its removed or expired page
   */
  async complete(ctx: AdapterContext, item: ListItem): Promise<CrawlItem> {
    const seen = goneInRun.get(ctx)?.get(item.platformId);
    if (seen) throw seen;
    const res = await ctx.fetch.get(item.url, { kind: "item" });
    const page = parseWechatArticle(res.body, item.url, ctx.now, ctx.warn);
    if (page.state === "gone") throw new GoneError(`WeChat says the article is gone: ${page.notice}`, res.url);
    if (page.state === "unknown") throw new NonRetryableError("not a WeChat article page: no #js_content and no removal notice", res.url);
    return { ...page.item, platformId: item.platformId, url: item.url };
  },
};
