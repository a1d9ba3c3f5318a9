/**
 * The old WAP site (weibo.cn): profile pages as HTML, for accounts read without the JSON API.
 */
import * as cheerio from "cheerio";
import { parseWeiboDate } from "../dates";
import type { ListItem } from "../types";
import { collapse } from "./weibo-api";
import { htmlToText, imagesIn, titleFromText } from "./shared";

/** A page of the old WAP site, parsed. */
export interface WeiboCnProfilePage {
  items: ListItem[];
  /** Absolute URL of the next page ("下页"), when there is one. */
  nextUrl: string | null;
  /** "1/117页": the page count, when shown. */
  pageCount: number | null;
}

/**
 * Parses a weibo.cn (WAP) profile page: posts are `div.c[id^=M_]`, the text `span.ctt`, the time
 * and client in `span.ct` ("06月17日 18:12&nbsp;来自绿洲APP"), pinned posts carry `span.kt`
 * "置顶". The id after `M_` is the post's bid. Reposts keep the reposted text (it is what the
 * account chose to say) and the "转发理由" comment.
 * @param pageUrl absolute URL the page was read from (links are resolved against it)
 */
export function parseWeiboCnProfile(html: string, pageUrl: string, now: Date): WeiboCnProfilePage {
  const $ = cheerio.load(html);
  const author =
    collapse($("div.ut span.ctt").first().contents().first().text()) ||
    collapse(
      $("title")
        .text()
        .replace(/的微博\s*$/, ""),
    );
  const items: ListItem[] = [];
  $("div.c[id^=M_]").each((_i, el) => {
    const div = $(el);
    const bid = (div.attr("id") ?? "").slice(2);
    const ctRaw = div.find("span.ct").last().text();
    const body = div.clone();
    body.find("span.ct, span.kt").remove();
    // The action links ("赞[…] 转发[…] 评论[…] 收藏") are chrome, not content.
    body
      .find("a")
      .filter((_j, a) => /^(赞|转发|评论|收藏|原文转发|原文评论|原图)(\[\d+\])?$/.test($(a).text().trim()))
      .remove();
    const htmlBody = (body.find("span.ctt").length > 0 ? body.html() : div.html()) ?? "";
    const comments = Number(/评论\[(\d+)\]/.exec(div.text())?.[1] ?? "0");
    const text = htmlToText(
      div
        .find("span.ctt")
        .map((_j, s) => $(s).html() ?? "")
        .get()
        .join(" "),
    );
    items.push({
      platformId: bid,
      kind: "post",
      url: new URL(`/comment/${bid}`, pageUrl).href,
      title: titleFromText(text),
      author,
      publishedAt: parseWeiboDate(ctRaw, now),
      html: htmlBody.trim(),
      images: imagesIn(htmlBody, pageUrl),
      pinned: div.find("span.kt").text().includes("置顶"),
      incomplete: div.find("a").filter((_j, a) => $(a).text().trim() === "全文").length > 0,
      hasReplies: comments > 0,
      replyCount: comments,
    });
  });
  const next = $("#pagelist a")
    .filter((_i, a) => $(a).text().trim() === "下页")
    .attr("href");
  const count = /\d+\/(\d+)页/.exec($("#pagelist").text());
  return { items, nextUrl: next ? new URL(next, pageUrl).href : null, pageCount: count?.[1] ? Number(count[1]) : null };
}
