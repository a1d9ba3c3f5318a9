/**
 * Weibo keyword watches through m.weibo.cn's own search:
 * `/search?containerid=100103type%3D{t}%26q%3D{word}` is read as
 * `/api/container/getIndex?containerid=100103type%3D{t}%26q%3D{word}&page_type=searchall&page={n}`.
 *
 * - Results are cards: `card_type` 9 carries an `mblog`, `card_type` 11 groups cards in
 *   `card_group` (hot posts, "相关用户" rows without an mblog are skipped).
 * - Each mblog becomes the same item as on the author's timeline (platformId = mid), so a post
 *   found by a watch and by its author's account is one post for the dedupe.
 * - `data.cardlistInfo.page` is the next page number (null at the end).
 * - Type 61 (实时) is newest first: the walk stops at the history mark. Other types (1, 综合)
 *   mix hot and recent posts: a fixed number of pages is read.
 * - Comments are not read for search hits (a popular word would read thousands); the post's
 *   long text is completed like on a timeline.
 */
import { NonRetryableError } from "../../errors";
import type { Adapter, AdapterContext, CrawlItem, ListItem } from "../../types";
import { arr, dig, getJson, rec, str, type Json } from "../shared";
import { mblogToListItem, weiboAdapter } from "../weibo";
import { apiUrl, checkWeiboLogin, timeFromWeiboId } from "../weibo/api";
import { readResultPages, watchOf } from "./pages";
import { searchWatchOf } from "./recognise";

/** The `mblog`s of a search answer, in page order: type 9 cards and those nested in type 11 groups. */
export function searchMblogs(data: unknown): Json[] {
  const out: Json[] = [];
  const visit = (card: unknown): void => {
    const c = rec(card);
    if (!c) return;
    const m = rec(c["mblog"]);
    if (m && str(c["card_type"]) === "9") out.push(m);
    for (const inner of arr(c["card_group"])) visit(inner);
  };
  for (const card of arr(dig(data, "data.cards"))) visit(card);
  return out;
}

/** The getIndex request for result page `page` of a watch. */
export function weiboSearchApiPath(type: string, word: string, page: number): string {
  return `/api/container/getIndex?containerid=${encodeURIComponent(`100103type=${type}&q=${word}`)}&page_type=searchall&page=${page}`;
}

/** Search hits as list items (never pinned; comments left to the author's account). */
function hitsOf(ctx: AdapterContext, mblogs: Json[], pageUrl: string, body: string): ListItem[] {
  const origin = new URL(pageUrl).origin;
  const items: ListItem[] = [];
  for (const m of mblogs) {
    try {
      const item = mblogToListItem(m, origin, ctx.now, { url: pageUrl, body }, (raw, mid) => {
        const fromId = timeFromWeiboId(mid, ctx.now);
        ctx.warn({
          url: pageUrl,
          field: "date",
          raw,
          reason: fromId ? "used the time in the post's id" : "used the crawl time",
        });
        return fromId ?? ctx.now;
      });
      items.push({ ...item, pinned: false, hasReplies: false });
    } catch (err) {
      if (!(err instanceof NonRetryableError)) throw err;
      ctx.warn({
        url: pageUrl,
        field: "id",
        raw: JSON.stringify(m).slice(0, 200),
        reason: `skipped: ${err.message}`,
      });
    }
  }
  return items;
}

/** Weibo search as an account: the results of a word, page by page. */
export const weiboSearchAdapter: Adapter = {
  platform: "weibo",

  recognise: (url) => searchWatchOf(url)?.platform === "weibo",

  list(ctx: AdapterContext) {
    const watch = watchOf(ctx, "weibo");
    return readResultPages(watch, async (page) => {
      // A watch with login cookies must not read a visitor's search as "no results".
      if (page === 1) await checkWeiboLogin(ctx);
      const url = apiUrl(ctx, weiboSearchApiPath(watch.weiboType ?? "1", watch.word, page));
      const { res, data } = await getJson(ctx, url, { kind: "list" });
      const mblogs = searchMblogs(data);
      const items = hitsOf(ctx, mblogs, res.url, res.body);
      if (mblogs.length > 0 && items.length === 0) throw new NonRetryableError("no Weibo post on this search page could be read", res.url);
      const next = str(dig(data, "data.cardlistInfo.page"));
      return {
        url: res.url,
        items,
        more: Boolean(next && next !== "0" && Number(next) > page),
      };
    });
  },

  /** The long text of a hit, exactly as for a timeline post. */
  complete(ctx: AdapterContext, item: ListItem): Promise<CrawlItem> {
    return weiboAdapter.complete!(ctx, item);
  },
};
