/**
 * Baidu Tieba (tieba.baidu.com), read as the desktop HTML.
 *
 * - List: `/f?kw={bar}&ie=utf-8&pn={50·k}` (the offset of the pager's "下一页" link when
 *   present). The thread list is a "pagelet": its HTML sits inside an HTML comment within
 *   `<code id="pagelet_html_frs-list/pagelet/thread_list">` (rendered pages have it
 *   uncommented; both are handled). A page with no thread list at all is not an
 *   empty bar but something else (a block page, a changed layout): it throws instead of
 *   returning zero items, so the worker never mistakes it for "nothing new".
 * - Rows: `li.j_thread_list[data-field]`, JSON `{id, author_name, reply_num, first_post_id,
 *   is_top, is_good}`; title `a.j_th_tit`; abstract `.threadlist_abs`; times
 *   `.is_show_create_time` (coarse: "7-6", "2020-05") and `.threadlist_reply_date` (last reply).
 *   Lists are ordered by last reply, so items carry `lastActivityAt`; pinned rows come first.
 *   The order is only rough on the real site (the capture has "8-2" rows above "8-7" ones).
 * - Authors are stored as the page prints them, with the portrait id as `authorId`
 *   (./names); titles and names are whitespace-collapsed.
 * - Threads: `/p/{tid}?pn={n}` (./thread). Floor 1 is the thread's head post
 *   (platformId = thread id); other floors are replies (platformId = post id).
 * - 楼中楼 (replies to a floor) come from the page itself, `/p/totalComment` and `/p/comment`
 *   (./comments, ./lzl), stored as replies whose parent is the floor.
 * - Mobile and other-host bar URLs are mapped to the desktop list (lib/platforms/tieba-urls.ts; the registry entry is lib/platforms/tieba.ts).
 * - An account with login cookies checks each page's viewer (`is_login`, ./login): a
 *   logged-out page is an expired login (`LoginExpiredError`), never read as a visitor's.
 * - A field that cannot be read is reported with `ctx.warn` and the item kept with the best
 *   value available; the page goes on.
 */
import * as cheerio from "cheerio";
import { tryParsePlatformDate } from "../../dates";
import { NonRetryableError } from "../../errors";
import { offThread } from "../../parse/off-thread";
import type { Adapter, AdapterContext, CaptureKind, CrawlItem, FieldWarning, ListItem, ListPage, ThreadPage, ThreadReadOptions } from "../../types";
import { getThreadPage, jsonAttr, num, onOrigin, rebase, str, structureWarning, walkThreadPages } from "../shared";
import { findFirst } from "../find";
import { captureUrl, idFrom, threadPageItems } from "../captures";
import { withComments, type ReadPages } from "./lzl";
import { collapse, printedName, shownName, stableId } from "./names";
import { parseTiebaThread, type TiebaThreadOptions } from "./thread";
import { tieba } from "../../../lib/platforms/tieba";
import { tiebaBarFromUrl } from "../../../lib/platforms/tieba-urls";
import { checkTiebaLogin } from "./login";

export { parseTiebaThread } from "./thread";
export { tiebaBarFromUrl, tiebaDesktopListUrl, tiebaEntryUrl } from "../../../lib/platforms/tieba-urls";

/** Threads per list page; Tieba's `pn` is an offset in threads. */
export const TIEBA_PAGE_SIZE = 50;

function barOf(ctx: AdapterContext): string {
  const kw = tiebaBarFromUrl(new URL(ctx.account.entryUrl));
  if (!kw) throw new NonRetryableError(`no Tieba bar (kw=) in entry URL ${ctx.account.entryUrl}`, ctx.account.entryUrl);
  return kw;
}

const PAGELET_ID = "pagelet_html_frs-list/pagelet/thread_list";

/** The thread list's HTML out of a list page, or null when the page has none. */
export function extractTiebaThreadList(html: string): string | null {
  // Fast path on the raw text: list pages are ~400 KB and the pagelet is one comment in them.
  const at = html.indexOf(`id="${PAGELET_ID}"`);
  if (at !== -1) {
    const open = html.indexOf(">", at);
    const close = html.indexOf("</code>", open);
    if (open !== -1 && close !== -1) {
      const inner = html.slice(open + 1, close);
      const start = inner.indexOf("<!--");
      const end = inner.lastIndexOf("-->");
      return start !== -1 && end > start ? inner.slice(start + 4, end) : inner;
    }
  }
  const $ = cheerio.load(html);
  const code = $(`code[id="${PAGELET_ID}"]`);
  if (code.length > 0) {
    const nodes = code.contents().toArray();
    // eslint-disable-next-line @typescript-eslint/no-unsafe-enum-comparison -- domhandler's ElementType enum is not exported by cheerio; its values are these strings
    const comment = nodes.find((n) => n.type === "comment");
    if (comment && "data" in comment && typeof comment.data === "string") return comment.data;
    return code.html() ?? "";
  }
  const ul = $("#thread_list");
  return ul.length > 0 ? $.html(ul) : null;
}

/**
 * Items of a Tieba list page. Exported for the unit tests on the real capture.
 * @param pageUrl absolute URL of the page (thread links are resolved against it, on `origin`)
 * @throws NonRetryableError when the page has no thread list container
 */
export function parseTiebaList(html: string, pageUrl: string, now: Date, source = true): ListItem[] {
  return parseListPage(html, pageUrl, now, source).items;
}

/** Items of a list page and the `pn` of the next page (from the pager's "下一页" link), if any. Exported for the parse threads (../parse/parsers.ts). */
export function parseListPage(
  html: string,
  pageUrl: string,
  now: Date,
  source: boolean,
  warn?: (w: FieldWarning) => void,
): { items: ListItem[]; hasNext: boolean; nextPn: number | null } {
  const listHtml = extractTiebaThreadList(html);
  if (listHtml === null) throw new NonRetryableError("not a Tieba list page: no thread_list container", pageUrl);
  const $ = cheerio.load(listHtml);
  const origin = new URL(pageUrl).origin;
  const items: ListItem[] = [];
  $("li.j_thread_list[data-field]").each((_i, el) => {
    const li = $(el);
    const field = jsonAttr(li.attr("data-field"));
    const tid = str(field?.["id"]) ?? li.attr("data-tid");
    if (!tid) return;
    const link = findFirst(li, "a.j_th_tit");
    const title = collapse(link.attr("title") ?? link.text());
    const created = tryParsePlatformDate(findFirst(li, ".is_show_create_time").text().trim(), now, "tieba");
    const replied = tryParsePlatformDate(findFirst(li, ".threadlist_reply_date").text().trim(), now, "tieba");
    const author = listAuthor(li, field);
    let publishedAt = created ?? replied;
    if (!publishedAt) {
      // An ad block in disguise has no date, and no thread link or no author either. A thread row
      // with both is a thread whose list shows no date (older list markup): kept, with the date of
      // the row above it (the list is newest activity first, so an upper bound that never stops
      // the walk early) and a warning; its thread page gives the real date.
      if (!/\/p\/\d+/.test(link.attr("href") ?? "") || !author) return;
      const above = items.filter((i) => !i.pinned).at(-1)?.lastActivityAt;
      publishedAt = above ?? now;
      warn?.({
        url: pageUrl,
        field: "date",
        raw: collapse(findFirst(li, ".is_show_create_time, .threadlist_reply_date").text()),
        reason: `thread ${tid}: no date in its row; used ${above ? "the date of the row above it" : "the crawl time"}`,
      });
    }
    const replyNum = num(field?.["reply_num"]) ?? num(findFirst(li, ".threadlist_rep_num").text().trim()) ?? 0;
    const abstract = findFirst(li, ".threadlist_abs");
    const abstractHtml = (abstract.html() ?? "").trim();
    const href = link.attr("href") ?? `/p/${tid}`;
    const item: ListItem = {
      platformId: tid,
      kind: "post",
      url: new URL(new URL(href, pageUrl).pathname, origin).href,
      title,
      author,
      publishedAt,
      html: abstractHtml,
      images: li
        .find("img.threadlist_pic")
        .map((_j, img) => $(img).attr("bpic") ?? $(img).attr("data-original") ?? "")
        .get()
        .filter((s) => s.length > 0),
      pinned: li.hasClass("thread_top") || truthy(field?.["is_top"]) || truthy(field?.["is_membertop"]),
      incomplete: true,
      hasReplies: replyNum > 0,
      replyCount: replyNum,
      lastActivityAt: replied ?? publishedAt,
    };
    const authorId = stableId(field?.["author_portrait"], field?.["author_id"], field?.["author_name"]);
    if (authorId) item.authorId = authorId;
    if (source) item.source = { url: pageUrl, body: html };
    items.push(item);
  });
  const next =
    $("a.next").first().length > 0
      ? $("a.next").first()
      : $("a")
          .filter((_i, a) => $(a).text().trim().startsWith("下一页"))
          .first();
  const href = next.attr("href");
  let nextPn: number | null = null;
  if (href) {
    const pn = Number(new URL(href, pageUrl).searchParams.get("pn"));
    if (Number.isInteger(pn) && pn > 0) nextPn = pn;
  }
  return { items, hasNext: next.length > 0, nextPn };
}

function truthy(v: unknown): boolean {
  return v === true || (num(v) ?? 0) > 0;
}

/**
 * The thread author a list row shows: the link's text, or (cut "白茗咸鱼..." or drawn with
 * nickname emoji anywhere in it, "<img>5x70<img>") the full name from the row's JSON or the
 * "主题作者: …" tooltip that reads as the link does — with the emoji, as thread pages give it.
 */
function listAuthor(li: ReturnType<cheerio.CheerioAPI>, field: Record<string, unknown> | undefined): string {
  const link = findFirst(li, ".tb_icon_author .frs-author-name, .frs-author-name");
  const tooltip = /^主题作者[:：]\s*(.*)$/.exec(collapse(findFirst(li, ".tb_icon_author").attr("title")))?.[1];
  return shownName(printedName(link), false, [str(field?.["author_nickname"]), str(field?.["show_nickname"]), tooltip, str(field?.["author_name"])]);
}

/** How a thread's pages are read for this list item: warnings to the run, the list's values as fallbacks. */
function threadOptions(ctx: AdapterContext, item: ListItem): TiebaThreadOptions {
  return { warn: ctx.warn, fallbackDate: item.publishedAt, fallbackAuthor: item.author };
}

/** Tieba's notices for a deleted thread (served with 200 or 404), shown instead of the floors. */
const TIEBA_GONE = /该贴已被删除|该帖已被删除|贴子不存在|帖子不存在/;

/**
 * A thread page; a deleted thread throws GoneError (its notice page has no `l_post` floor), a
 * logged-out one (for an account with login cookies) LoginExpiredError.
 */
async function getTiebaThreadPage(ctx: AdapterContext, url: string) {
  const res = await getThreadPage(ctx, url, TIEBA_GONE, (body) => /class=["'][^"']*\bl_post\b/.test(body));
  checkTiebaLogin(ctx, res);
  return res;
}

function tidOf(item: ListItem): string {
  return /\/p\/(\d+)/.exec(item.url)?.[1] ?? item.platformId;
}

/** What `campuswatch parse` reads for Tieba: the desktop pages the crawl reads. */
const tiebaCaptureKinds: readonly CaptureKind[] = [
  {
    kind: "list",
    summary: "a bar's thread list: the /f?kw= page",
    looksLike: (body) => body.includes(PAGELET_ID) || (body.includes('id="thread_list"') && body.includes("j_thread_list")),
    parse(body, options) {
      const url = captureUrl(options, body, "https://tieba.baidu.com/f");
      const { items } = parseListPage(body, url, options.now, false, options.warn);
      if (items.length === 0) options.warn(structureWarning(url, "thread rows (li.j_thread_list[data-field] with a.j_th_tit) in the thread list", body));
      return items;
    },
  },
  {
    kind: "thread",
    summary: "one page of a thread: the /p/<tid> page (floors, with the 楼中楼 it shows)",
    looksLike: (body) => /class=["'][^"']*\bl_post\b/.test(body),
    parse(body, options) {
      const tid = idFrom([/\/p\/(\d+)/, /thread_id(?:["']|&quot;)?\s*:\s*["']?(\d+)/], options.url, body);
      const url = captureUrl(options, body, `https://tieba.baidu.com/p/${tid ?? ""}`);
      if (!tid) throw new NonRetryableError("no thread id in the URL or the page: give --url https://tieba.baidu.com/p/<tid>", url);
      const items = threadPageItems(parseTiebaThread(body, url, tid, options.now, { warn: options.warn }));
      if (items.length === 0) options.warn(structureWarning(url, "floors (div.l_post[data-field])", body));
      return items;
    },
  },
];

/** Baidu Tieba bars. */
export const tiebaAdapter: Adapter = {
  platform: tieba.id,
  // The bar's list is ordered by last reply: a thread missing from where its activity places it is probed.
  listOrder: "activity",
  repliesIncludeHead: true,
  recognise: tieba.recognise,
  captureKinds: tiebaCaptureKinds,

  async *list(ctx: AdapterContext): AsyncGenerator<ListPage> {
    const kw = encodeURIComponent(barOf(ctx));
    for (let pn = 0; ;) {
      // The first page is the bar's head: any new thread or reply moves a thread onto it.
      const res = await ctx.fetch.get(onOrigin(ctx, `/f?kw=${kw}&ie=utf-8&pn=${pn}`), { kind: "list", conditional: pn === 0 });
      checkTiebaLogin(ctx, res);
      const { items, hasNext, nextPn } = await offThread("tiebaList", parseListPage, res.body, rebase(ctx, res.url, res.url), ctx.now, true, ctx.warn);
      if (items.length === 0) {
        // A bar's first page always lists threads: nothing read from it is markup we do not know.
        if (pn === 0) ctx.warn(structureWarning(res.url, "thread rows (li.j_thread_list[data-field] with a.j_th_tit) in the thread list", res.body));
        return;
      }
      yield { url: res.url, items, orderedByActivity: true };
      // The pager's "下一页" link says whether there is more; a short page without it is the end.
      if (!hasNext && items.filter((i) => !i.pinned).length < TIEBA_PAGE_SIZE) return;
      // Follow the pager's offset when it gives one (it is 50 per page on Tieba); never go backwards.
      pn = nextPn !== null && nextPn > pn ? nextPn : pn + TIEBA_PAGE_SIZE;
    }
  },

  async complete(ctx: AdapterContext, item: ListItem): Promise<CrawlItem> {
    const tid = tidOf(item);
    const res = await getTiebaThreadPage(ctx, onOrigin(ctx, `/p/${tid}`));
    const page = await offThread("tiebaThread", parseTiebaThread, res.body, rebase(ctx, res.url, res.url), tid, ctx.now, threadOptions(ctx, item));
    if (!page.head) throw new NonRetryableError(`Tieba thread ${tid} has no first floor (deleted?)`, res.url);
    return page.head;
  },

  replies(ctx: AdapterContext, thread: ListItem, since: Date | null, options?: ThreadReadOptions): AsyncIterable<ThreadPage> {
    const tid = tidOf(thread);
    const read: ReadPages = new Map();
    const pages = walkThreadPages(
      since,
      async (pn) => {
        const res = await getTiebaThreadPage(ctx, onOrigin(ctx, `/p/${tid}?pn=${pn}`));
        const page = await offThread("tiebaThread", parseTiebaThread, res.body, rebase(ctx, res.url, res.url), tid, ctx.now, threadOptions(ctx, thread));
        read.set(page.url, { pn, page });
        return page;
      },
      options,
    );
    // 楼中楼 are read for the pages the walk yields (see ./lzl).
    return withComments(ctx, pages, read, since);
  },
};
