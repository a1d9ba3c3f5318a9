/**
 * Discuz! keyword watches through the board's own search:
 * `{dir}search.php?mod=forum&srchtxt={word}&searchsubmit=yes`. Discuz! X answers with a redirect
 * to `search.php?mod=forum&searchid={n}&orderby=lastpost&ascdesc=desc&searchsubmit=yes&kw={word}`
 * (search ids expire, so every run searches again); further pages add `&page={n}`.
 *
 * - Results (Discuz! X3 `search/thread_list`): `#threadlist li.pbw[id={tid}]`, title
 *   `h3.xs3 a` (the word highlighted in `<strong><font>`), "N 个回复 - M 次查看" in `p.xg1`, an
 *   excerpt in the next `p`, and a last `p` of spans: the date, the author (`space-uid-…` /
 *   `uid=` link) and the board.
 * - Each result is the thread's own post (`t{tid}`, as the board adapter stores it), completed
 *   from the thread's first page; replies are left to an account on the board.
 * - Members-only boards need the account's login cookies; a logged-out answer is refused like on
 *   the board (../discuz/login.ts), never read as "no results".
 * - "只能进行一次搜索" (the board's search flood control) fails the run, to be tried next time.
 * - Results are read to a fixed number of pages (the order is the board's, not publication).
 */
import * as cheerio from "cheerio";
import { tryParsePlatformDate } from "../../dates";
import { NonRetryableError, RetryableError } from "../../errors";
import type { Adapter, AdapterContext, CrawlItem, FieldWarning, ListItem } from "../../types";
import { getThreadPage, imagesIn, num } from "../shared";
import { checkDiscuzLogin } from "../discuz/login";
import { parseDiscuzThread } from "../discuz/pages";
import { threadPageUrl, threadUrl, tidInLink, type DiscuzBoard } from "../../../lib/platforms/discuz-urls";
import { readResultPages, watchOf } from "./pages";
import { searchWatchOf } from "./recognise";

const NO_RESULTS = /没有找到匹配结果|没有找到相关/;
const FLOOD = /秒内只能进行一次搜索|只能进行一次搜索/;
const GONE = /抱歉，指定的主题不存在或已被删除|该帖已被删除|指定的主题不存在/;

const collapse = (s: string | undefined): string => (s ?? "").replace(/[\s\u00a0\u3000]+/g, " ").trim();

/**
 * The results of one Discuz! search page and the next page's URL (the pager's `a.nxt`), if any.
 * @throws NonRetryableError when the page is neither a result list nor a "no results" page
 */
export function parseDiscuzSearch(
  body: string,
  pageUrl: string,
  board: DiscuzBoard,
  now: Date,
  warn: (w: FieldWarning) => void = () => undefined,
): { items: ListItem[]; nextUrl: string | null } {
  const $ = cheerio.load(body);
  const rows = $("#threadlist li.pbw");
  if (rows.length === 0) {
    if (NO_RESULTS.test(body)) return { items: [], nextUrl: null };
    throw new NonRetryableError('not a Discuz! search result page: no #threadlist li.pbw and no "no results" notice', pageUrl);
  }
  const items: ListItem[] = [];
  rows.each((_i, el) => {
    const li = $(el);
    const link = li.find("h3 a").first();
    const tid = tidInLink(link.attr("href") ?? "", pageUrl) ?? (/^\d+$/.test(li.attr("id") ?? "") ? li.attr("id")! : null);
    if (!tid) return;
    const paragraphs = li.children("p");
    const meta = paragraphs.last();
    const spans = meta.children("span");
    const dateText = collapse(spans.first().text());
    let publishedAt = tryParsePlatformDate(dateText, now, "discuz");
    if (!publishedAt) {
      publishedAt = now;
      warn({
        url: pageUrl,
        field: "date",
        raw: dateText,
        reason: `thread ${tid}: used the crawl time`,
      });
    }
    const authorLink = meta.find("a[href*='uid']").first();
    const authorId = /uid[-=](\d+)/.exec(authorLink.attr("href") ?? "")?.[1];
    const excerpt = paragraphs.filter((_j, p) => !$(p).hasClass("xg1") && p !== meta.get(0)).first();
    const html = (excerpt.html() ?? "").trim();
    const replies = num(/(\d+)\s*个回复/.exec(li.find("p.xg1").first().text())?.[1]);
    const item: ListItem = {
      platformId: `t${tid}`,
      kind: "post",
      url: threadUrl(board, tid),
      title: collapse(link.text()),
      author: collapse(authorLink.text()),
      publishedAt,
      html,
      images: imagesIn(html, pageUrl),
      incomplete: true,
      source: { url: pageUrl, body },
    };
    if (authorId) item.authorId = authorId;
    if (replies !== undefined) item.replyCount = replies;
    items.push(item);
  });
  const next = $("div.pg a.nxt").first().attr("href");
  return { items, nextUrl: next ? new URL(next, pageUrl).href : null };
}

/** The board a watch searches (Discuz! X request forms; 7.x boards search differently). */
function boardOf(ctx: AdapterContext): DiscuzBoard {
  return { base: watchOf(ctx, "discuz").base!, fid: "", dialect: "x" };
}

/** Page `page` of a search already made: the pager's link, else the search URL with `&page=`. */
function pageUrlAfter(first: string, page: number): string {
  const u = new URL(first);
  u.searchParams.set("page", String(page));
  return u.href;
}

/** Discuz! search as an account. */
export const discuzSearchAdapter: Adapter = {
  platform: "discuz",

  recognise: (url) => searchWatchOf(url)?.platform === "discuz",

  list(ctx: AdapterContext) {
    const watch = watchOf(ctx, "discuz");
    const board = boardOf(ctx);
    let next: string | null = null;
    let first: string | null = null;
    return readResultPages(watch, async (page) => {
      const url =
        page === 1 ? `${watch.base}search.php?mod=forum&srchtxt=${encodeURIComponent(watch.word)}&searchsubmit=yes` : (next ?? pageUrlAfter(first!, page));
      const res = await ctx.fetch.get(url, { kind: "list" });
      if (FLOOD.test(res.body) && !/id=["']threadlist["']/.test(res.body)) {
        throw new RetryableError("the board allows one search every few seconds (只能进行一次搜索): searched again next run", res.url, res.status);
      }
      // A members-only search answers visitors with the login notice: never "no results".
      checkDiscuzLogin(ctx, res);
      first ??= res.url;
      const parsed = parseDiscuzSearch(res.body, res.url, board, ctx.now, ctx.warn);
      next = parsed.nextUrl;
      return {
        url: res.url,
        items: parsed.items,
        more: parsed.nextUrl !== null,
      };
    });
  },

  /** A result's full first post, from the thread's first page. */
  async complete(ctx: AdapterContext, item: ListItem): Promise<CrawlItem> {
    const board = boardOf(ctx);
    const tid = item.platformId.replace(/^t/, "");
    const url = threadPageUrl(board, tid, 1);
    const res = await getThreadPage(ctx, url, GONE, (body) => /id=["']postlist["']/.test(body));
    checkDiscuzLogin(ctx, res);
    const options = {
      board,
      warn: ctx.warn,
      thread: {
        title: item.title,
        author: item.author,
        publishedAt: item.publishedAt,
        ...(item.authorId ? { authorId: item.authorId } : {}),
      },
    };
    const page = parseDiscuzThread(res.body, url, tid, 1, ctx.now, options);
    if (!page.head) throw new NonRetryableError(`Discuz! thread ${tid} has no first post`, res.url);
    return page.head;
  },
};
