/**
 * Tieba keyword watches through the in-bar search:
 * `/f/search/res?ie=utf-8&kw={bar}&qw={word}&rn=10&pn={page}` (pn is the page number here).
 *
 * - Results are `div.s_post`: `span.p_title a` links `/p/{tid}?pid={pid}&cid={cid}#…` with the
 *   title (a reply's title is "回复:" + the thread's), `.p_content` an excerpt, `a.p_forum` the
 *   bar, the author after "作者：", `.p_date` "YYYY-MM-DD HH:MM".
 * - Ids are the Tieba adapter's: a thread's own post is the thread id (and its full text is read
 *   from the thread's first page, like a bar's list entry), a floor is its post id (parent: the
 *   thread), a 楼中楼 (`cid` not 0) its own id (parent: the floor). Floors and 楼中楼 keep the
 *   excerpt, marked incomplete: a bar crawl that reads them whole wins over it.
 * - The author id is left out: the page shows only the login, while the Tieba adapter keys
 *   authors by portrait.
 * - Tieba orders these results its own way: a fixed number of pages is read, dedupe does the rest.
 * - A page without a result list that does not say "no results" is not taken for "nothing
 *   found": it throws, naming the page.
 */
import * as cheerio from "cheerio";
import { tryParsePlatformDate } from "../../dates";
import { NonRetryableError } from "../../errors";
import type { Adapter, AdapterContext, CrawlItem, FieldWarning, ListItem } from "../../types";
import { imagesIn, onOrigin } from "../shared";
import { tiebaAdapter } from "../tieba";
import { collapse } from "../tieba/names";
import { checkTiebaLogin } from "../tieba/login";
import { readResultPages, watchOf } from "./pages";
import { searchWatchOf } from "./recognise";

/** Results per page the watch asks for (Tieba's own default). */
export const TIEBA_SEARCH_PAGE_SIZE = 10;

const NO_RESULTS = /没有找到|抱歉，没有|未找到相关/;
const REPLY_TITLE = /^回复\s*[:：]\s*/;

/**
 * Result items of a Tieba search page, and whether a next page is linked.
 * @throws NonRetryableError when the page is neither a result list nor a "no results" page
 */
export function parseTiebaSearch(
  body: string,
  pageUrl: string,
  now: Date,
  warn: (w: FieldWarning) => void = () => undefined,
): { items: ListItem[]; more: boolean } {
  const $ = cheerio.load(body);
  const posts = $("div.s_post");
  if (posts.length === 0) {
    if ($(".s_post_list").length > 0 || NO_RESULTS.test($("body").text())) return { items: [], more: false };
    throw new NonRetryableError('not a Tieba search page: no s_post results and no "no results" notice', pageUrl);
  }
  const origin = new URL(pageUrl).origin;
  const items: ListItem[] = [];
  let previous: Date | null = null;
  posts.each((_i, el) => {
    const post = $(el);
    const link = post.find("span.p_title a").first();
    const href = link.attr("href") ?? "";
    let target: URL;
    try {
      target = new URL(href, pageUrl);
    } catch {
      return;
    }
    const tid = link.attr("data-tid") ?? /^\/p\/(\d+)/.exec(target.pathname)?.[1];
    if (!tid) return; // a result without a thread link (an ad, a bar card)
    const pid = target.searchParams.get("pid") ?? "";
    const cid = target.searchParams.get("cid") ?? "";
    const shownTitle = collapse(link.text());
    const isReply = REPLY_TITLE.test(shownTitle);
    const title = shownTitle.replace(REPLY_TITLE, "");
    const html = (post.find(".p_content").first().html() ?? "").trim();
    const dateText = collapse(post.find(".p_date").first().text());
    let publishedAt = tryParsePlatformDate(dateText, now, "tieba");
    if (!publishedAt) {
      publishedAt = previous ?? now;
      warn({
        url: pageUrl,
        field: "date",
        raw: dateText,
        reason: previous ? "used the previous result's date" : "used the crawl time",
      });
    }
    previous = publishedAt;
    const author = collapse(post.find("a[href*='/home/main']").first().text());
    const base = {
      author,
      publishedAt,
      html,
      images: imagesIn(html, pageUrl),
      source: { url: pageUrl, body },
    };
    if (/^\d+$/.test(cid) && cid !== "0") {
      // A 楼中楼: stored under its floor, like the Tieba adapter stores it.
      items.push({
        ...base,
        platformId: cid,
        parentPlatformId: pid || tid,
        kind: "reply",
        url: `${origin}/p/${tid}?pid=${pid}&cid=${cid}#${cid}`,
        title: "",
        textIncomplete: true,
      });
    } else if (isReply && /^\d+$/.test(pid)) {
      items.push({
        ...base,
        platformId: pid,
        parentPlatformId: tid,
        kind: "reply",
        url: `${origin}/p/${tid}?pid=${pid}#${pid}`,
        title: "",
        textIncomplete: true,
      });
    } else {
      // The thread's own post: the excerpt stands in until its first page is read (complete()).
      items.push({
        ...base,
        platformId: tid,
        kind: "post",
        url: `${origin}/p/${tid}`,
        title,
        incomplete: true,
      });
    }
  });
  const more = $("a.next").length > 0 || $("a").filter((_i, a) => $(a).text().trim().startsWith("下一页")).length > 0;
  return { items, more };
}

/** The request for result page `page` (the watch's own parameters dropped). */
export function tiebaSearchPath(word: string, bar: string, page: number): string {
  return `/f/search/res?ie=utf-8&kw=${encodeURIComponent(bar)}&qw=${encodeURIComponent(word)}&rn=${TIEBA_SEARCH_PAGE_SIZE}&pn=${page}`;
}

/** Tieba in-bar search as an account. */
export const tiebaSearchAdapter: Adapter = {
  platform: "tieba",

  recognise: (url) => searchWatchOf(url)?.platform === "tieba",

  list(ctx: AdapterContext) {
    const watch = watchOf(ctx, "tieba");
    return readResultPages(watch, async (page) => {
      const res = await ctx.fetch.get(onOrigin(ctx, tiebaSearchPath(watch.word, watch.bar ?? "", page)), { kind: "list" });
      checkTiebaLogin(ctx, res);
      const { items, more } = parseTiebaSearch(res.body, res.url, ctx.now, ctx.warn);
      return { url: res.url, items, more };
    });
  },

  /** A thread hit's full first post, read like a bar list entry's. */
  complete(ctx: AdapterContext, item: ListItem): Promise<CrawlItem> {
    return tiebaAdapter.complete!(ctx, item);
  },
};
