/**
 * One Tieba thread page: `/p/{tid}?pn={n}`.
 *
 * Floors are `div.l_post[data-field]` (JSON `author.{user_id, user_name, user_nickname,
 * portrait}`, `content.{post_id, post_no, forum_id, comment_num, content}`); the printed name is
 * `a.p_author_name`, the text `#post_content_{pid}`, and `.tail-info` holds "N楼" and
 * "YYYY-MM-DD HH:MM". Floor 1 is the thread's head post (platformId = thread id); other floors
 * are replies (platformId = post id). `[max-page]` is the page count. Each floor says how many
 * 楼中楼 it has (`content.comment_num`, or `.j_lzl_r[data-field]`'s `total_num`), and a few are
 * rendered inline (see ./comments).
 *
 * One unreadable field never loses a floor: a floor without a readable date takes the previous
 * floor's (floors are in time order) or the list's date, one without a name the list's author
 * (head) or its login, one without a body container the JSON copy of its content; each such
 * field is reported through `warn`. Older pages (before ~2014) name the same facts
 * `content.{id, floor, date}` and `author.{id, name}`, and print the date in `ul.p_tail`: read
 * too. A page with floor containers from which no floor can be read is reported as a "structure"
 * warning (crawler/types.ts STRUCTURE_FIELD), never returned as a silently empty page.
 */
import * as cheerio from "cheerio";
import { tryParsePlatformDate } from "../../dates";
import type { CrawlItem, FieldWarning } from "../../types";
import { dig, imagesIn, jsonAttr, num, str, structureWarning, type ParsedThreadPage } from "../shared";
import { parseLzlElements, type FloorRef, type Sel } from "./comments";
import { collapse, printedName, shownName, stableId } from "./names";
import { find, findFirst } from "../find";

/** A parsed thread page with what reading its 楼中楼 needs. */
export interface TiebaThreadPage extends ParsedThreadPage {
  /** The bar's forum id (`fid`), which `/p/totalComment` wants; null when the page does not say. */
  forumId: string | null;
  /** The floors of this page by post id, for the 楼中楼 that answer them. */
  floors: Map<string, FloorRef>;
  /** Post id → the number of 楼中楼 the floor says it has (floors with none are left out). */
  commentCounts: Map<string, number>;
  /** 楼中楼 the page renders itself. */
  inlineComments: CrawlItem[];
}

/** What a thread page is read with besides its markup. */
export interface TiebaThreadOptions {
  /** Reports an unreadable field (the adapter passes `ctx.warn`). */
  warn?: (w: FieldWarning) => void;
  /** The best date for a floor whose own date cannot be read and has no earlier floor: the list's. */
  fallbackDate?: Date;
  /** The thread's author as the list showed it, for a head floor without a readable name. */
  fallbackAuthor?: string;
}

/** A floor's date text among its tail spans ("来自Android客户端", "2楼", "2024-08-05 17:07"). */
function floorDate(tails: string[], fieldDate: string | undefined, now: Date): { at: Date | null; raw: string } {
  const candidates = tails.filter((t) => !/^\d+楼$/.test(t) && !/^来自/.test(t));
  if (fieldDate) candidates.push(fieldDate);
  for (const text of candidates) {
    // Only texts with a full date: a bare "11:24" on a floor is not a date Tieba prints there.
    if (!/\d{4}|\d+\s*[-年/月]\s*\d+/.test(text) && !/前|昨天|前天|今天/.test(text)) continue;
    const at = tryParsePlatformDate(text, now, "tieba");
    if (at) return { at, raw: text };
  }
  return { at: null, raw: candidates.join(" | ") };
}

/**
 * One thread page. Exported for the unit tests on the real capture and on written pages.
 * @param pageUrl absolute URL of the page (requests and item URLs are built on its origin)
 * @param tid the thread id (floor 1's platformId)
 */
export function parseTiebaThread(html: string, pageUrl: string, tid: string, now: Date, options: TiebaThreadOptions = {}): TiebaThreadPage {
  const $ = cheerio.load(html);
  const origin = new URL(pageUrl).origin;
  const heading = $(".core_title_txt").first();
  const title =
    collapse(heading.attr("title") ?? heading.text()) ||
    collapse($("h1.core_title_txt, .core_title h1").first().text()) ||
    collapse($("title").text()).replace(/_[^_]*吧_百度贴吧$/, "");
  const replies: CrawlItem[] = [];
  const floors = new Map<string, FloorRef>();
  const commentCounts = new Map<string, number>();
  const lzlElements: Sel[] = [];
  let head: CrawlItem | undefined;
  let forumId: string | null = null;
  let previous: Date | null = null;
  const source = { url: pageUrl, body: html };
  const warn = options.warn ?? (() => undefined);

  $("div.l_post[data-field]").each((_i, el) => {
    const post = $(el);
    const field = jsonAttr(post.attr("data-field"));
    // Older pages (before ~2014) say `content.id`, `content.floor` and `author.{id, name}`.
    const pid =
      str(dig(field, "content.post_id")) ??
      str(dig(field, "content.id")) ??
      post.attr("data-pid") ??
      /^post_content_(\d+)$/.exec(findFirst(post, "[id^=post_content_]").attr("id") ?? "")?.[1];
    if (!pid) return; // ads and placeholders carry data-field="{}"
    forumId ??= str(dig(field, "content.forum_id")) ?? null;
    const tails = post
      .find(".tail-info")
      .map((_j, t) => collapse($(t).text()))
      .get();
    const floor = num(dig(field, "content.post_no")) ?? num(dig(field, "content.floor")) ?? num(tails.map((t) => /^(\d+)楼$/.exec(t)?.[1]).find(Boolean));
    const isHead = floor === 1;
    const where = `${pageUrl} (floor ${floor ?? "?"}, post ${pid})`;

    const date = floorDate(tails, str(dig(field, "content.date")), now);
    let publishedAt = date.at;
    if (!publishedAt) {
      publishedAt = previous ?? options.fallbackDate ?? now;
      warn({
        url: where,
        field: "date",
        raw: date.raw,
        reason: previous ? "the previous floor's date" : options.fallbackDate ? "the list's date" : "the crawl time",
      });
    }
    previous = publishedAt;

    const card = findFirst(post, "a.p_author_name");
    const login = str(dig(field, "author.user_name")) ?? str(dig(field, "author.name")) ?? jsonAttr(card.attr("data-field"))?.["un"];
    let author = shownName(printedName(card), false, [
      str(dig(field, "author.show_nickname")),
      str(dig(field, "author.user_nickname")),
      typeof login === "string" ? login : undefined,
    ]);
    if (author === "") {
      author = (isHead ? collapse(options.fallbackAuthor) : "") || "";
      warn({
        url: where,
        field: "author",
        raw: collapse(findFirst(post, ".d_author").text()).slice(0, 200),
        reason: author ? "the list's author" : "no name",
      });
    }

    const content = post.find(`#post_content_${pid}`).first();
    const container = content.length > 0 ? content : findFirst(post, ".d_post_content");
    let body = container.length > 0 ? (container.html() ?? "").trim() : null;
    if (body === null) {
      const copy = str(dig(field, "content.content"));
      body = copy?.trim() ?? "";
      warn({
        url: where,
        field: "body",
        raw: collapse(findFirst(post, ".d_post_content_main").text()).slice(0, 200) || "(no post content)",
        reason: copy ? "the floor's JSON copy" : "stored empty",
      });
    }

    const item: CrawlItem = {
      platformId: pid,
      kind: "reply",
      parentPlatformId: tid,
      url: `${origin}/p/${tid}?pid=${pid}#${pid}`,
      title: "",
      author,
      publishedAt,
      html: body,
      images: imagesIn(body, pageUrl),
      source,
    };
    const authorId = stableId(dig(field, "author.portrait"), dig(field, "author.user_id") ?? dig(field, "author.id"), login);
    if (authorId) item.authorId = authorId;
    if (floor !== undefined) item.floor = floor;
    if (isHead) head = { ...item, platformId: tid, parentPlatformId: null, kind: "post", title, url: `${origin}/p/${tid}` };
    else replies.push(item);

    floors.set(pid, { tid, pid, parentPlatformId: isHead ? tid : pid, floorDate: publishedAt });
    const lzlTotal = num(jsonAttr(findFirst(post, ".j_lzl_r[data-field]").attr("data-field"))?.["total_num"]);
    const count = Math.max(num(dig(field, "content.comment_num")) ?? 0, lzlTotal ?? 0);
    if (count > 0) commentCounts.set(pid, count);
    lzlElements.push(find(post, "li.lzl_single_post"));
  });

  // A thread page (floor containers are there) from which no floor could be read: say so.
  if (head === undefined && replies.length === 0 && $(".l_post, #j_p_postlist").length > 0) {
    warn(structureWarning(pageUrl, "floors (div.l_post[data-field] with content.post_id or content.id, and #post_content_{pid})", html));
  }
  forumId ??= /"forum_id"\s*:\s*(\d+)/.exec(html)?.[1] ?? /\bfid\s*:\s*'(\d+)'/.exec(html)?.[1] ?? null;
  const floorOf = (pid: string | undefined) => (pid ? (floors.get(pid) ?? null) : null);
  const inlineComments = lzlElements.flatMap((els) =>
    parseLzlElements($, els, floorOf, pageUrl, html, { origin, now, ...(options.warn ? { warn: options.warn } : {}) }),
  );

  const maxPage = num($("[max-page]").first().attr("max-page"));
  const fromReplyNum = num($("li.l_reply_num span.red").eq(1).text().trim());
  const page: TiebaThreadPage = { url: pageUrl, replies, pageCount: Math.max(1, maxPage ?? fromReplyNum ?? 1), forumId, floors, commentCounts, inlineComments };
  if (head) page.head = head;
  return page;
}
