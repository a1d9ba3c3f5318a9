/**
 * Reading Discuz! pages: the thread list (forumdisplay) and thread pages (viewthread), in the
 * Discuz! X2–X3.5 template and the Discuz! 6/7 one, including custom themes that keep the
 * template's ids.
 *
 * - X list: `table#threadlisttableid > tbody[id^=normalthread_]` (pinned `stickthread_`); title
 *   `a.s.xst`; author `td.by cite a`; dates `td.by em span` (the `title` attribute holds the full
 *   date when the text is relative, "3 天前"); the second `td.by` is the last reply; `td.num` has
 *   replies (a) and views (em); `div.pg a.nxt` links the next page.
 * - 7.x list: the same `tbody` ids in `table#forum_{fid}`; title `span#thread_{tid} a` (never the page links in `span.threadpages` after it); author and date
 *   `td.author cite a` / `td.author em`; replies `td.nums strong`; last reply `td.lastpost em`;
 *   paging `div.pages a.next`.
 * - Thread (both): posts `div#postlist > div[id^=post_]`; date `em[id^=authorposton]`
 *   ("发表于 2019-1-11 22:29", a span with a title, or a custom label such as a hidden
 *   `<em>时间：</em>`); content `[id^=postmessage_]` (X `td.t_f`, 7.x `div.t_msgfont`); author
 *   `.authi a.xw1` (X) or `.postauthor .postinfo a` (7.x); title `#thread_subject` (X) or
 *   `#threadtitle h1` (7.x). 点评 (post comments, X) are `div#comment_{pid}.cm > div.pstl` items with
 *   `.psta a.xw1` (author; some themes put it first in `.psti`) and `.psti` (text, then `span.xg1`
 *   "发表于 …"). Discuz! lists them newest first and shows the newest `commentnumber` (5 by
 *   default) under the floor; a floor with more ends its block with a "下一页" link
 *   (`div.pg a.nxt`, `onclick="ajaxget('forum.php?mod=misc&action=commentmore&tid=&pid=&page=2',
 *   'comment_{pid}')"`). The commentmore pages are AJAX answers, `<root><![CDATA[…]]></root>`
 *   around the same `div.pstl` items and a pager (`div.pg`, its links `…&page=N`, the next one
 *   `a.nxt`): {@link parseDiscuzCommentMore}.
 *
 * One unreadable field never loses a page: the floor is stored with the best value there is (the
 * previous floor's date, the list's date and author) and the field is reported through `warn`.
 */
import * as cheerio from "cheerio";
import type { CheerioAPI } from "cheerio";
import { tryParsePlatformDate } from "../../dates";
import { NonRetryableError } from "../../errors";
import type { CrawlItem, FieldWarning, ListItem } from "../../types";
import { imagesIn, num, structureWarning, type ParsedThreadPage } from "../shared";
import { find, findFirst } from "../find";
import { floorUrl, threadUrl, type DiscuzBoard } from "../../../lib/platforms/discuz-urls";

/** A cheerio selection of elements (spelled via cheerio's API so domhandler need not be imported). */
type Sel = ReturnType<ReturnType<CheerioAPI["root"]>["find"]>;

/** What a page parser may be told besides the page. All optional: the parsers work without. */
export interface DiscuzParseOptions {
  /** Called for each field that could not be read (the run records it); the page goes on. */
  warn?: (warning: FieldWarning) => void;
  /** The board the page belongs to (request dialect for links); by default read from the page URL. */
  board?: DiscuzBoard;
  /** The thread as the list showed it: the best title, author and date when the page lacks them. */
  thread?: Pick<ListItem, "title" | "author" | "publishedAt"> & { authorId?: string };
}

/** Whitespace-collapsed text, as titles and names are stored. */
export function collapse(text: string | undefined): string {
  return (text ?? "").replace(/[\s\u00a0\u3000]+/g, " ").trim();
}

/**
 * A label some themes print before the name, in or beside its link ("作者：张三", "楼主: 张三",
 * "Author: x"): part of the page, not of the name.
 */
const NAME_LABEL = /^(?:作者|楼主|发帖人|发表者|发布者|author|poster)\s*[:：]\s*/i;

/** An author's name as printed, whitespace-collapsed, without a theme's label before it. */
export function authorName(text: string | undefined): string {
  return collapse(collapse(text).replace(NAME_LABEL, ""));
}

/** The board of a page when the caller did not say: its directory, and 7.x for `*.php` scripts of 7.x. */
function boardOfPage(pageUrl: string): DiscuzBoard {
  const u = new URL(pageUrl);
  const dialect = /\/(?:forumdisplay|viewthread)\.php$/.test(u.pathname) ? "7" : "x";
  return { base: pageUrl.replace(/[?#].*$/, "").replace(/[^/]*$/, ""), fid: u.searchParams.get("fid") ?? "", dialect };
}

/** The uid in a profile link (`home.php?mod=space&uid=5`, `space-uid-5.html`, 7.x `space.php?uid=5`). */
function uidOf(href: string | undefined): string | undefined {
  if (!href) return undefined;
  return /[?&]uid=(\d+)/.exec(href)?.[1] ?? /space-uid-(\d+)\.html/.exec(href)?.[1];
}

/**
 * A date cell: the `title` attribute (full date) wins over the shown text ("3 天前"), except
 * when the title is a bare day and the text has the time ("昨天 09:32" titled "2019-3-4").
 * The text is searched for a date, so labels and noise around it do not matter.
 */
function dateOf(cell: Sel, now: Date): Date | null {
  if (cell.length === 0) return null;
  const titled = findFirst(cell, "span[title]");
  const title = titled.attr("title")?.trim();
  const text = collapse(titled.length > 0 ? titled.text() : cell.text());
  const fromTitle = title ? tryParsePlatformDate(title, now, "discuz") : null;
  const fromText = text ? tryParsePlatformDate(text, now, "discuz") : null;
  if (fromTitle && title && !title.includes(":") && text.includes(":") && fromText) return fromText;
  return fromTitle ?? fromText ?? (titled.length > 0 ? tryParsePlatformDate(collapse(cell.text()), now, "discuz") : null);
}

/** Where 6/7 (`span.threadpages`) and X (`span.tps`) put a multi-page thread's page links, after its title. */
const PAGE_LINKS = ".threadpages, .tps, .pages, .pg";

/**
 * A 6/7 row's subject link. The template wraps it in `span#thread_{tid}`; a multi-page thread's
 * `th` also holds links to its pages ("1 2 3 … 12") after the title, which must never be taken for
 * it. Themes that drop the span: the thread links of the `th` outside the page-link span and not
 * naming a page.
 */
function subjectLink($: CheerioAPI, tbody: Sel, tid: string): Sel {
  const own = findFirst(tbody, `span#thread_${tid} a`);
  if (own.length > 0) return own;
  return find(tbody, "th a[href*='viewthread'], th a[href*='thread-']")
    .filter((_i, a) => {
      const el = $(a);
      const href = el.attr("href") ?? "";
      return el.closest(PAGE_LINKS).length === 0 && !/[?&]page=\d+/.test(href) && !/thread-\d+-(?:[2-9]|\d{2,})-\d+\.html/.test(href);
    })
    .last();
}

/** The items of a forumdisplay page (X or 7.x). Exported for unit tests. */
export function parseDiscuzList(html: string, pageUrl: string, now: Date, options: DiscuzParseOptions = {}): { items: ListItem[]; nextUrl: string | null } {
  const $ = cheerio.load(html);
  const board = options.board ?? boardOfPage(pageUrl);
  const rowSelector = "tbody[id^=normalthread_], tbody[id^=stickthread_]";
  const table = $("table#threadlisttableid");
  const rows = table.length > 0 ? table.find(rowSelector) : $(rowSelector);
  if (table.length === 0 && rows.length === 0 && $("table[id^=forum_]").length === 0) {
    throw new NonRetryableError("not a Discuz! thread list: no table#threadlisttableid (X) or table#forum_{fid} (7.x)", pageUrl);
  }
  const warn = options.warn ?? (() => undefined);
  const items: ListItem[] = [];
  const source = { url: pageUrl, body: html };
  rows.each((_i, el) => {
    const tbody = $(el);
    const id = tbody.attr("id") ?? "";
    const tid = /_(\d+)$/.exec(id)?.[1];
    if (!tid) return;
    const link = findFirst(tbody, "a.s.xst, a.xst");
    const titleLink = link.length > 0 ? link : subjectLink($, tbody, tid);
    // X: two td.by (author, last reply); 7.x: td.author and td.lastpost.
    const by = find(tbody, "td.by");
    const authorCell = by.length > 0 ? by.eq(0) : findFirst(tbody, "td.author");
    const lastCell = by.length > 0 ? by.eq(1) : findFirst(tbody, "td.lastpost");
    const authorLink = findFirst(authorCell, "cite a");
    const author = authorName(authorLink.text()) || authorName(find(authorCell, "cite").text());
    const lastActivity = lastCell.length > 0 ? dateOf(findFirst(lastCell, "em"), now) : null;
    let publishedAt = dateOf(findFirst(authorCell, "em"), now);
    if (!publishedAt) {
      // The last reply is never before the thread began: the closest bound the row has.
      publishedAt = lastActivity ?? now;
      warn({
        url: pageUrl,
        field: "date",
        raw: collapse(findFirst(authorCell, "em").text()) || collapse(authorCell.text()),
        reason: lastActivity ? `thread ${tid}: used the row's last-reply date` : `thread ${tid}: used the crawl time`,
      });
    }
    const title = collapse(titleLink.text());
    if (!title) warn({ url: pageUrl, field: "title", raw: collapse(findFirst(tbody, "th").text()), reason: `thread ${tid}: the thread page's title is used` });
    const numCell = findFirst(tbody, "td.num");
    const replies = (numCell.length > 0 ? num(collapse(findFirst(numCell, "a").text())) : num(collapse(findFirst(tbody, "td.nums strong").text()))) ?? 0;
    const item: ListItem = {
      platformId: `t${tid}`,
      kind: "post",
      url: threadUrl(board, tid),
      title,
      author,
      publishedAt,
      html: "",
      pinned: id.startsWith("stickthread_"),
      incomplete: true,
      hasReplies: replies > 0,
      replyCount: replies,
      lastActivityAt: lastActivity ?? publishedAt,
      source,
    };
    const authorId = uidOf(authorLink.attr("href"));
    if (authorId) item.authorId = authorId;
    items.push(item);
  });
  const next = $("div.pg a.nxt, div.pages a.next").first().attr("href");
  return { items, nextUrl: next ? new URL(next, pageUrl).href : null };
}

const NAMED_FLOORS: Record<string, number> = { 楼主: 1, 沙发: 2, 板凳: 3, 地板: 4 };

/** The thread's title as the page shows it; never the site name of a header `<h1>`. */
function titleOf($: CheerioAPI, options: DiscuzParseOptions): string {
  const own =
    collapse($("#thread_subject").first().text()) || collapse($("#threadtitle h1").first().text()) || collapse($('meta[property="og:title"]').attr("content"));
  if (own) return own;
  if (options.thread?.title) return collapse(options.thread.title);
  // "主题 - 版块 - 站点 - Powered by Discuz!": the first part is the thread's.
  return collapse(
    $("title")
      .first()
      .text()
      .split(/\s+-\s+/)[0],
  );
}

/**
 * A floor whose 点评 go on past the ones its thread page shows: what reading its commentmore
 * pages needs. Plain data, so it crosses the parse threads (../parse/off-thread.ts).
 */
export interface DiscuzCommentFloor {
  tid: string;
  /** The floor's post id. */
  pid: string;
  /** The floor's platformId as stored: `t{tid}` for the head floor, else `p{pid}`. */
  parentPlatformId: string;
  /** The floor's permanent link, which is every one of its 点评's URL (they have none of their own). */
  url: string;
  /** The floor's date: the best value for a 点评 whose own cannot be read. */
  floorDate: Date;
  /** The commentmore page the floor links next (2: the thread page shows the first). */
  nextPage: number;
  /** The 点评 read so far, by key (see {@link numberComments}): their texts in page order. */
  seen: Record<string, string[]>;
}

/** A parsed viewthread page with the floors whose 点评 continue on commentmore pages. */
export interface DiscuzThreadPage extends ParsedThreadPage {
  commentFloors: DiscuzCommentFloor[];
}

/** One viewthread page (X or 7.x). Exported for unit tests. */
export function parseDiscuzThread(html: string, pageUrl: string, tid: string, page: number, now: Date, options: DiscuzParseOptions = {}): DiscuzThreadPage {
  const $ = cheerio.load(html);
  const board = options.board ?? boardOfPage(pageUrl);
  const warn = options.warn ?? (() => undefined);
  let posts = $("div#postlist > div[id^=post_]").filter((_i, el) => /^post_\d+$/.test($(el).attr("id") ?? ""));
  // Custom themes wrap the posts in more containers; the ids stay.
  if (posts.length === 0) posts = $("div[id^=post_]").filter((_i, el) => /^post_\d+$/.test($(el).attr("id") ?? ""));
  if (posts.length === 0 && $("div#postlist").length === 0) {
    throw new NonRetryableError("not a Discuz! thread page: no div#postlist", pageUrl);
  }
  if (posts.length === 0) warn(structureWarning(pageUrl, "posts (div[id^=post_] in div#postlist)", html));
  const title = titleOf($, options);
  const source = { url: pageUrl, body: html };
  const replies: CrawlItem[] = [];
  const commentFloors: DiscuzCommentFloor[] = [];
  let head: CrawlItem | undefined;
  // The best date for a floor whose own is unreadable: the floor before it (floors are in time order).
  let previous: Date | null = page === 1 ? null : (options.thread?.publishedAt ?? null);
  posts.each((index, el) => {
    const div = $(el);
    const pid = (div.attr("id") ?? "").slice("post_".length);
    const isHead = page === 1 && index === 0;
    const posted = findFirst(div, "em[id^=authorposton]");
    let publishedAt = dateOf(posted, now);
    if (!publishedAt) {
      const best = isHead ? (options.thread?.publishedAt ?? null) : (previous ?? options.thread?.publishedAt ?? null);
      publishedAt = best ?? now;
      const reason = isHead ? "the list's date" : previous ? "the previous floor's date" : best ? "the thread's date" : "the crawl time";
      warn({
        url: pageUrl,
        field: "date",
        raw: collapse(posted.text()) || collapse(find(div, ".authi").text()).slice(0, 200),
        reason: `floor ${pid}: used ${reason}`,
      });
    }
    previous = publishedAt;

    const nameLink = findFirst(div, ".authi a.xw1, .postauthor .postinfo a[href*='uid'], .authi a[href*='uid']");
    let author = authorName(nameLink.text()) || authorName(findFirst(div, ".authi").text());
    if (!author) {
      author = isHead ? collapse(options.thread?.author) : "";
      warn({
        url: pageUrl,
        field: "author",
        raw: collapse(findFirst(div, ".pls, .postauthor").text()).slice(0, 200),
        reason: `floor ${pid}: ${author ? "used the list's author" : "stored without a name"}`,
      });
    }
    const authorId = uidOf(nameLink.attr("href")) ?? (isHead ? options.thread?.authorId : undefined);

    let body = findFirst(div, "[id^=postmessage_]").html();
    if (body === null) {
      // A banned author's floor shows a notice instead of the message: keep what the page shows.
      const notice = findFirst(div, ".locked, .pcb");
      body = notice.html() ?? "";
      warn({
        url: pageUrl,
        field: "body",
        raw: collapse(notice.text() || div.text()).slice(0, 200),
        reason: `floor ${pid}: no [id^=postmessage_]; stored ${body ? "the notice shown" : "an empty body"}`,
      });
    }
    const postnum = findFirst(div, "a[id^=postnum]");
    const floorText = collapse(findFirst(postnum, "em").text()) || collapse(postnum.text()).replace(/#$/, "");
    const floor = num(floorText) ?? NAMED_FLOORS[floorText] ?? num(/^(\d+)/.exec(floorText)?.[1]);
    const item: CrawlItem = {
      platformId: `p${pid}`,
      parentPlatformId: `t${tid}`,
      kind: "reply",
      url: floorUrl(board, tid, pid),
      title: "",
      author,
      publishedAt,
      html: body.trim(),
      images: imagesIn(body, pageUrl),
      source,
    };
    if (authorId) item.authorId = authorId;
    if (floor !== undefined) item.floor = floor;
    if (isHead) {
      head = { ...item, platformId: `t${tid}`, parentPlatformId: null, kind: "post", title, url: threadUrl(board, tid), floor: 1 };
    } else {
      replies.push(item);
    }
    // The floor's 点评 follow it, so the floor is stored before what answers it.
    const floorRef = { tid, pid, parentPlatformId: isHead ? `t${tid}` : `p${pid}`, url: floorUrl(board, tid, pid), floorDate: publishedAt };
    const seen: Record<string, string[]> = {};
    const block = find(div, "div[id^=comment_], div.cm");
    replies.push(...numberComments(commentRows($, find(block, ".pstl"), floorRef, pageUrl, now, warn, source), seen));
    const nextPage = commentMorePage($, find(block, "a"), 1);
    if (nextPage !== null) commentFloors.push({ ...floorRef, nextPage, seen });
  });
  const pg = $("div.pg, div.pages").first();
  const total =
    num(/(\d+)/.exec(findFirst(pg, "span[title]").attr("title") ?? "")?.[1]) ??
    Math.max(
      page,
      ...pg
        .find("a")
        .map(
          (_i, a) =>
            num(
              $(a)
                .text()
                .replace(/^\.\.\.\s*/, "")
                .trim(),
            ) ?? 0,
        )
        .get(),
    );
  const result: DiscuzThreadPage = { url: pageUrl, replies, pageCount: Math.max(1, total), commentFloors };
  if (head) result.head = head;
  return result;
}

/** The floor a 点评 answers, as its items need it. */
type CommentFloorRef = Pick<DiscuzCommentFloor, "pid" | "parentPlatformId" | "url" | "floorDate">;

/** A 点评 as read, before it has its id: the key it is numbered by, and the item. */
interface CommentRow {
  key: string;
  item: CrawlItem;
}

/**
 * 点评 items (`div.pstl`) as replies to their floor; rows without `.psti` (the "N 条点评" or
 * standpoint total line) are not comments. A comment whose date cannot be read takes the floor's,
 * with a warning. The page shows no comment id, so a comment is keyed by what identifies it: the
 * floor, the author's uid (or name) and the minute it was posted ({@link numberComments}).
 */
function commentRows(
  $: CheerioAPI,
  rows: Sel,
  floor: CommentFloorRef,
  pageUrl: string,
  now: Date,
  warn: (w: FieldWarning) => void,
  source: { url: string; body: string },
): CommentRow[] {
  const out: CommentRow[] = [];
  rows.each((_i, el) => {
    const row = $(el);
    const text = findFirst(row, ".psti");
    if (text.length === 0) return;
    // The name is a bold link in `.psta` (stock templates) or first in `.psti` (some themes).
    const nameLink = find(row, ".psta a.xw1, .psta a.xi2, .psti a.xw1").last();
    const author = authorName(nameLink.text()) || authorName(find(row, ".psta").text());
    const authorId = uidOf(nameLink.attr("href"));
    const xg1 = find(text, "span.xg1").last();
    const stamp = xg1.length > 0 ? xg1 : text.children("span").last();
    let publishedAt = dateOf(stamp, now);
    if (!publishedAt) {
      publishedAt = floor.floorDate;
      warn({
        url: pageUrl,
        field: "date",
        raw: collapse(stamp.text() || text.text()).slice(0, 200),
        reason: `comment on ${floor.parentPlatformId}: used the floor's date`,
      });
    }
    const body = text.clone();
    // Not the comment: the date, the name (in `.psti` themes) and the 详情/回复 links.
    find(body, "span.xg1, a.xi2, a.xw1").remove();
    body.children("span").remove();
    const html = (body.html() ?? "")
      .replace(/^(?:&nbsp;|\u00a0|\s)+/, "")
      .replace(/(?:&nbsp;|\u00a0|\s)+$/, "")
      .trim();
    const key = `c${floor.pid}-${authorId ?? author}-${Math.floor(publishedAt.getTime() / 60_000)}`;
    const item: CrawlItem = {
      platformId: key,
      parentPlatformId: floor.parentPlatformId,
      kind: "reply",
      url: floor.url,
      title: "",
      author,
      publishedAt,
      html,
      source,
    };
    if (authorId) item.authorId = authorId;
    out.push({ key, item });
  });
  return out;
}

/**
 * Give one page's 点评 their ids and return the new ones. A key's first comment is the key, the
 * next ones `key-2`, `key-3` (two comments by one author in one minute), counted over the floor's
 * pages in the order Discuz! lists them (`seen`, updated). A comment whose key and text an earlier
 * page gave already is that comment again — a new comment pushed the list down by one between two
 * requests — and is dropped, so each is stored once.
 */
export function numberComments(rows: CommentRow[], seen: Record<string, string[]>): CrawlItem[] {
  const earlier = new Map(Object.entries(seen).map(([k, v]) => [k, [...v]]));
  const out: CrawlItem[] = [];
  for (const { key, item } of rows) {
    const before = earlier.get(key);
    const again = before?.indexOf(item.html) ?? -1;
    if (before && again >= 0) {
      before.splice(again, 1, "\u0000"); // matched once
      continue;
    }
    const texts = (seen[key] ??= []);
    texts.push(item.html);
    out.push({ ...item, platformId: texts.length === 1 ? key : `${key}-${texts.length}` });
  }
  return out;
}

/** The commentmore page numbers in a link's href or onclick, or null when it is not a commentmore link. */
function commentMoreLinkPages(link: string): number[] | null {
  if (!/action=commentmore/.test(link)) return null;
  return [...link.matchAll(/action=commentmore[^'"\s]*?[?&](?:amp;)?page=(\d+)/g)].map((m) => Number(m[1]));
}

/**
 * The next commentmore page the links point to after page `current`: the lowest page number above
 * it; a commentmore link that names no page ("查看全部点评" in some themes) means the next one.
 * Null when no link leads further.
 */
function commentMorePage($: CheerioAPI, links: Sel, current: number): number | null {
  let next: number | null = null;
  links.each((_i, el) => {
    const a = $(el);
    for (const attr of [a.attr("href"), a.attr("onclick")]) {
      const pages = attr ? commentMoreLinkPages(attr) : null;
      if (!pages) continue;
      const later = pages.length > 0 ? pages.filter((p) => p > current) : [current + 1];
      for (const p of later) next = next === null ? p : Math.min(next, p);
    }
  });
  return next;
}

/** One commentmore page: its new 点评, the floor's keys after it, the next page (null at the end) and how many rows it had. */
export interface DiscuzCommentMorePage {
  comments: CrawlItem[];
  seen: Record<string, string[]>;
  nextPage: number | null;
  rows: number;
}

/**
 * A commentmore answer (page `page` of a floor's 点评): Discuz!'s AJAX envelope
 * `<?xml …?><root><![CDATA[ … ]]></root>` around `h3.psth`, the `div.pstl` items and the pager
 * (a theme may answer the fragment bare). Comments already read from the floor's earlier pages
 * (`floor.seen`) are not returned again. An answer with neither the heading nor an item is not a
 * 点评 page (a notice: "本站点评功能已关闭", a login prompt) and throws, naming what it says.
 * Exported for the parse threads and unit tests.
 */
export function parseDiscuzCommentMore(
  body: string,
  pageUrl: string,
  floor: DiscuzCommentFloor,
  page: number,
  now: Date,
  options: Pick<DiscuzParseOptions, "warn"> = {},
): DiscuzCommentMorePage {
  const fragment = /<!\[CDATA\[([\s\S]*)\]\]>/.exec(body)?.[1] ?? body;
  const $ = cheerio.load(fragment);
  const items = $(".pstl");
  if (items.length === 0 && $(".psth").length === 0) {
    const said = collapse($.root().text()).slice(0, 120);
    throw new NonRetryableError(`not a Discuz! 点评 page (no div.pstl or h3.psth)${said ? `: "${said}"` : ""}`, pageUrl);
  }
  const seen = Object.fromEntries(Object.entries(floor.seen).map(([k, v]) => [k, [...v]]));
  const rows = commentRows($, items, floor, pageUrl, now, options.warn ?? (() => undefined), { url: pageUrl, body });
  const comments = numberComments(rows, seen);
  return { comments, seen, nextPage: commentMorePage($, $("a"), page), rows: rows.length };
}
