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
 * - Threads: `/p/{tid}?pn={n}`; floors `div.l_post[data-field]` (JSON `content.post_id`,
 *   `content.post_no`, `author.user_name`); text `.d_post_content`; `.tail-info` holds
 *   "N楼" and "YYYY-MM-DD HH:MM"; the page count is `[max-page]`. Floor 1 is the thread's head
 *   post (platformId = thread id); other floors are replies (platformId = post id).
 */
import * as cheerio from "cheerio";
import { parseTiebaDate, tryParsePlatformDate } from "../dates";
import { NonRetryableError } from "../errors";
import type { Adapter, AdapterContext, CrawlItem, ListItem, ListPage, ThreadPage } from "../types";
import { dig, imagesIn, jsonAttr, num, onOrigin, rebase, str, walkThreadPages, type ParsedThreadPage } from "./shared";

/** Threads per list page; Tieba's `pn` is an offset in threads. */
export const TIEBA_PAGE_SIZE = 50;

function barOf(ctx: AdapterContext): string {
  const kw = new URL(ctx.account.entryUrl).searchParams.get("kw");
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
    const comment = code.contents().toArray().find((n) => n.type === "comment");
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

/** Items of a list page and the `pn` of the next page (from the pager's "下一页" link), if any. */
function parseListPage(html: string, pageUrl: string, now: Date, source: boolean): { items: ListItem[]; hasNext: boolean; nextPn: number | null } {
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
    const link = li.find("a.j_th_tit").first();
    const title = (link.attr("title") ?? link.text()).trim();
    const created = tryParsePlatformDate(li.find(".is_show_create_time").first().text().trim(), now, "tieba");
    const replied = tryParsePlatformDate(li.find(".threadlist_reply_date").first().text().trim(), now, "tieba");
    const publishedAt = created ?? replied;
    if (!publishedAt) return; // A row without any date is an ad block in disguise.
    const replyNum = num(field?.["reply_num"]) ?? num(li.find(".threadlist_rep_num").first().text().trim()) ?? 0;
    const abstract = li.find(".threadlist_abs").first();
    const abstractHtml = (abstract.html() ?? "").trim();
    const href = link.attr("href") ?? `/p/${tid}`;
    const item: ListItem = {
      platformId: tid,
      kind: "post",
      url: new URL(new URL(href, pageUrl).pathname, origin).href,
      title,
      author: str(field?.["author_name"]) || str(field?.["author_nickname"]) || li.find(".frs-author-name").first().text().trim(),
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
    if (source) item.source = { url: pageUrl, body: html };
    items.push(item);
  });
  const next = $("a.next").first().length > 0 ? $("a.next").first() : $("a").filter((_i, a) => $(a).text().trim().startsWith("下一页")).first();
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
 * One thread page. Exported for the unit tests on the real capture.
 * @param tid the thread id (floor 1's platformId)
 */
export function parseTiebaThread(html: string, pageUrl: string, tid: string, now: Date): ParsedThreadPage {
  const $ = cheerio.load(html);
  const title = ($(".core_title_txt").first().attr("title") ?? $(".core_title_txt").first().text() ?? "").trim() || $("title").text().trim();
  const replies: CrawlItem[] = [];
  let head: CrawlItem | undefined;
  const source = { url: pageUrl, body: html };
  $("div.l_post[data-field]").each((_i, el) => {
    const post = $(el);
    const field = jsonAttr(post.attr("data-field"));
    const pid = str(dig(field, "content.post_id"));
    if (!pid) return; // ads and placeholders carry data-field="{}"
    const tails = post.find(".tail-info").map((_j, t) => $(t).text().trim()).get();
    const floor = num(dig(field, "content.post_no")) ?? num(tails.map((t) => /^(\d+)楼$/.exec(t)?.[1]).find(Boolean));
    const dateText = tails.find((t) => /^\d{4}-\d{1,2}-\d{1,2} \d{1,2}:\d{2}$/.test(t)) ?? str(dig(field, "content.date"));
    if (!dateText) return;
    const content = post.find(`#post_content_${pid}`).first();
    const body = (content.length > 0 ? content : post.find(".d_post_content").first()).html() ?? "";
    const item: CrawlItem = {
      platformId: pid,
      kind: "reply",
      parentPlatformId: tid,
      url: `${new URL(pageUrl).origin}/p/${tid}?pid=${pid}#${pid}`,
      title: "",
      author: str(dig(field, "author.user_name")) || str(dig(field, "author.user_nickname")) || post.find(".p_author_name").first().text().trim(),
      publishedAt: parseTiebaDate(dateText, now),
      html: body.trim(),
      images: imagesIn(body, pageUrl),
      source,
    };
    if (floor !== undefined) item.floor = floor;
    if (floor === 1) head = { ...item, platformId: tid, parentPlatformId: null, kind: "post", title, url: `${new URL(pageUrl).origin}/p/${tid}` };
    else replies.push(item);
  });
  const maxPage = num($("[max-page]").first().attr("max-page"));
  const fromReplyNum = num($("li.l_reply_num span.red").eq(1).text().trim());
  const page: ParsedThreadPage = { url: pageUrl, replies, pageCount: Math.max(1, maxPage ?? fromReplyNum ?? 1) };
  if (head) page.head = head;
  return page;
}

function tidOf(item: ListItem): string {
  return /\/p\/(\d+)/.exec(item.url)?.[1] ?? item.platformId;
}

/** Baidu Tieba bars. */
export const tiebaAdapter: Adapter = {
  platform: "tieba",
  repliesIncludeHead: true,

  recognise(url: URL): boolean {
    if (/(^|\.)tieba\.baidu\.com$/i.test(url.hostname)) return true;
    return url.pathname === "/f" && url.searchParams.has("kw");
  },

  async *list(ctx: AdapterContext): AsyncGenerator<ListPage> {
    const kw = encodeURIComponent(barOf(ctx));
    for (let pn = 0; ; ) {
      const res = await ctx.fetch.get(onOrigin(ctx, `/f?kw=${kw}&ie=utf-8&pn=${pn}`), { kind: "list" });
      const { items, hasNext, nextPn } = parseListPage(res.body, rebase(ctx, res.url, res.url), ctx.now, true);
      if (items.length === 0) return;
      yield { url: res.url, items, orderedByActivity: true };
      // The pager's "下一页" link says whether there is more; a short page without it is the end.
      if (!hasNext && items.filter((i) => !i.pinned).length < TIEBA_PAGE_SIZE) return;
      // Follow the pager's offset when it gives one (it is 50 per page on Tieba); never go backwards.
      pn = nextPn !== null && nextPn > pn ? nextPn : pn + TIEBA_PAGE_SIZE;
    }
  },

  async complete(ctx: AdapterContext, item: ListItem): Promise<CrawlItem> {
    const tid = tidOf(item);
    const res = await ctx.fetch.get(onOrigin(ctx, `/p/${tid}`), { kind: "item" });
    const page = parseTiebaThread(res.body, rebase(ctx, res.url, res.url), tid, ctx.now);
    if (!page.head) throw new NonRetryableError(`Tieba thread ${tid} has no first floor (deleted?)`, res.url);
    return page.head;
  },

  replies(ctx: AdapterContext, thread: ListItem, since: Date | null): AsyncIterable<ThreadPage> {
    const tid = tidOf(thread);
    return walkThreadPages(since, async (pn) => {
      const res = await ctx.fetch.get(onOrigin(ctx, `/p/${tid}?pn=${pn}`), { kind: "item" });
      return parseTiebaThread(res.body, rebase(ctx, res.url, res.url), tid, ctx.now);
    });
  },
};
