/**
 * Tieba 楼中楼: the short replies under a floor, stored as replies whose parent is that floor.
 *
 * They come from three places, all read into the same items (keyed by the comment id `spid`):
 * - the thread page itself renders the first few of some floors: `li.lzl_single_post` with a
 *   single-quoted data-field `{'pid':…,'spid':…,'user_name':…,'portrait':…,'showname':…}`,
 *   the printed name in `a.j_user_card` inside `.lzl_cnt`, the text in `.lzl_content_main` and
 *   the time in `.lzl_time` ("2024-8-5&nbsp;23:48");
 * - `/p/totalComment?tid=&fid=&pn=` (JSON, one call per thread page): `data.comment_list` keyed
 *   by floor post id (an empty list `[]` when no floor has any), each `{comment_num,
 *   comment_list_num, comment_info: [{comment_id, user_id, username, show_nickname, content,
 *   now_time (unix s)}]}`, with names and portraits in `data.user_list` keyed by user id. It
 *   carries the first 10 of each floor;
 * - `/p/comment?tid=&pid=&pn=` (HTML, 10 a page, oldest first) for the rest, with the same `li`
 *   markup and a pager `li.lzl_li_pager[data-field="{total_num:123,total_page:13}"]`.
 */
import * as cheerio from "cheerio";
import { tryParsePlatformDate } from "../../dates";
import type { CrawlItem, FieldWarning } from "../../types";
import { arr, dig, imagesIn, rec, str, type Json } from "../shared";
import { collapse, printedName, shownName, stableId } from "./names";

/** A cheerio selection of elements (spelled via cheerio's API so domhandler need not be imported). */
export type Sel = ReturnType<ReturnType<cheerio.CheerioAPI["root"]>["find"]>;

/** 楼中楼 per `/p/comment` page. */
export const TIEBA_COMMENTS_PER_PAGE = 10;

/** Where a comment sits: the thread and the floor it answers. */
export interface FloorRef {
  tid: string;
  /** The floor's post id, as Tieba keys comments. */
  pid: string;
  /** The floor's platformId as stored (the thread id for floor 1, else the post id). */
  parentPlatformId: string;
  /** The floor's own date: the best value for a comment whose date cannot be read. */
  floorDate: Date;
}

/** What the comment parsers need besides the markup. */
export interface CommentParseContext {
  origin: string;
  now: Date;
  warn?: (w: FieldWarning) => void;
}

/** Tieba's single-quoted `data-field` of a 楼中楼 (`{'spid':'1','user_name':'x'}`), or real JSON. */
export function lzlField(text: string | undefined): Json | undefined {
  if (!text) return undefined;
  try {
    return rec(JSON.parse(text));
  } catch {
    // Not JSON: read the 'key':'value' and 'key':123 pairs one by one (names may hold quotes).
  }
  const out: Json = {};
  for (const m of text.matchAll(/'(\w+)'\s*:\s*(?:'((?:[^'\\]|\\.)*)'|(-?\d+|null|true|false))/g)) {
    const key = m[1]!;
    out[key] = m[2] !== undefined ? m[2].replace(/\\(.)/g, "$1") : m[3] === "null" ? null : m[3] === "true" ? true : m[3] === "false" ? false : Number(m[3]);
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The pager of a 楼中楼 list: `{total_num:123,total_page:13}` (JavaScript, not JSON). */
export function lzlPager(text: string | undefined): { total: number; pages: number } | null {
  if (!text) return null;
  const total = /total_num['"]?\s*:\s*['"]?(\d+)/.exec(text)?.[1];
  const pages = /total_page['"]?\s*:\s*['"]?(\d+)/.exec(text)?.[1];
  return total !== undefined && pages !== undefined ? { total: Number(total), pages: Number(pages) } : null;
}

function commentUrl(origin: string, ref: FloorRef, spid: string): string {
  return `${origin}/p/${ref.tid}?pid=${ref.pid}&cid=${spid}#${spid}`;
}

/** A 楼中楼 as a stored reply under its floor, read from `source` (a comment page or totalComment JSON). */
function lzlItem(
  origin: string,
  ref: FloorRef,
  spid: string,
  fields: { author: string; authorId: string | undefined; publishedAt: Date; html: string },
  source: { url: string; body: string },
): CrawlItem {
  const item: CrawlItem = {
    platformId: spid,
    parentPlatformId: ref.parentPlatformId,
    kind: "reply",
    url: commentUrl(origin, ref, spid),
    title: "",
    author: fields.author,
    publishedAt: fields.publishedAt,
    html: fields.html,
    images: imagesIn(fields.html, source.url),
    source,
  };
  if (fields.authorId) item.authorId = fields.authorId;
  return item;
}

/**
 * 楼中楼 items of `li.lzl_single_post` elements (a thread page's inline ones or a `/p/comment`
 * page). A comment whose date or author cannot be read is kept with the floor's date or its
 * login, and a warning.
 * @param floorOf the floor a comment's `pid` belongs to (null: not a floor of this thread)
 */
export function parseLzlElements(
  $: cheerio.CheerioAPI,
  elements: Sel,
  floorOf: (pid: string | undefined) => FloorRef | null,
  pageUrl: string,
  body: string,
  c: CommentParseContext,
): CrawlItem[] {
  const items: CrawlItem[] = [];
  elements.each((_i, el) => {
    const li = $(el);
    const field = lzlField(li.attr("data-field"));
    const spid = str(field?.["spid"]);
    const ref = floorOf(str(field?.["pid"]));
    if (!spid || !ref) return; // the pager and the editor share the list's markup
    const card = li.find(".lzl_cnt a.j_user_card").first();
    const login = str(field?.["user_name"]) ?? card.attr("username");
    const author = shownName(printedName(card), false, [str(field?.["showname"]), str(field?.["show_nickname"]), str(field?.["user_nickname"]), login]);
    const timeText = collapse(li.find(".lzl_time").first().text());
    const content = li.find(".lzl_content_main").first();
    const html = (content.html() ?? "").trim();
    const where = `${pageUrl} (楼中楼 ${spid})`;
    let publishedAt = tryParsePlatformDate(timeText, c.now, "tieba");
    if (!publishedAt) {
      c.warn?.({ url: where, field: "date", raw: timeText || li.find(".lzl_content_reply").text(), reason: "the floor's date" });
      publishedAt = ref.floorDate;
    }
    if (author === "") c.warn?.({ url: where, field: "author", raw: collapse(li.find(".lzl_cnt").first().text()).slice(0, 200), reason: "no name" });
    if (content.length === 0) c.warn?.({ url: where, field: "body", raw: collapse(li.text()).slice(0, 200), reason: "stored empty" });
    items.push(
      lzlItem(c.origin, ref, spid, { author, authorId: stableId(field?.["portrait"], field?.["user_id"], login), publishedAt, html }, { url: pageUrl, body }),
    );
  });
  return items;
}

/** One floor's share of a `/p/totalComment` answer. */
export interface TotalCommentFloor {
  /** The floor's post id. */
  pid: string;
  /** How many comments the floor has in all. */
  total: number;
  comments: CrawlItem[];
}

/**
 * A `/p/totalComment` answer. Comments of floors `floorOf` does not know are skipped; a comment
 * with an unreadable time keeps the floor's date, with a warning.
 */
export function parseTotalComment(
  data: unknown,
  floorOf: (pid: string) => FloorRef | null,
  apiUrl: string,
  body: string,
  c: CommentParseContext,
): TotalCommentFloor[] {
  const users = rec(dig(data, "data.user_list")) ?? {};
  const list = rec(dig(data, "data.comment_list")) ?? {}; // `[]` when the page has none
  const out: TotalCommentFloor[] = [];
  for (const [pid, value] of Object.entries(list)) {
    const ref = floorOf(pid);
    if (!ref) continue;
    const floor = rec(value);
    const comments: CrawlItem[] = [];
    for (const raw of arr(floor?.["comment_info"])) {
      const info = rec(raw);
      const spid = str(info?.["comment_id"]);
      if (!info || !spid) continue;
      const userId = str(info["user_id"]);
      const user = userId ? rec(users[userId]) : undefined;
      const login = str(info["username"]) ?? str(user?.["user_name"]);
      const author = shownName("", false, [
        str(info["show_nickname"]),
        str(user?.["show_nickname"]),
        str(user?.["user_nickname"]),
        str(user?.["nickname"]),
        login,
      ]);
      const where = `${apiUrl} (楼中楼 ${spid})`;
      const seconds = Number(info["now_time"]);
      let publishedAt: Date;
      if (Number.isFinite(seconds) && seconds > 0) publishedAt = new Date(seconds * 1000);
      else {
        c.warn?.({ url: where, field: "date", raw: str(info["now_time"]) ?? "", reason: "the floor's date" });
        publishedAt = ref.floorDate;
      }
      if (author === "") c.warn?.({ url: where, field: "author", raw: JSON.stringify({ user_id: info["user_id"] ?? null }), reason: "no name" });
      const html = str(info["content"]) ?? "";
      if (typeof info["content"] !== "string") c.warn?.({ url: where, field: "body", raw: JSON.stringify(info["content"] ?? null), reason: "stored empty" });
      comments.push(
        lzlItem(c.origin, ref, spid, { author, authorId: stableId(user?.["portrait"], info["user_id"], login), publishedAt, html }, { url: apiUrl, body }),
      );
    }
    const total = Number(floor?.["comment_num"]);
    out.push({ pid, total: Number.isFinite(total) ? Math.max(total, comments.length) : comments.length, comments });
  }
  return out;
}

/** A `/p/comment` page: its comments and the pager's page count (null when it shows none). */
export function parseCommentPage(html: string, ref: FloorRef, pageUrl: string, c: CommentParseContext): { comments: CrawlItem[]; pages: number | null } {
  const $ = cheerio.load(html);
  const comments = parseLzlElements($, $("li.lzl_single_post"), (pid) => (pid === undefined || pid === ref.pid ? ref : null), pageUrl, html, c);
  const pager = lzlPager($("li.lzl_li_pager").first().attr("data-field"));
  return { comments, pages: pager?.pages ?? null };
}
