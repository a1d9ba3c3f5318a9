/**
 * Weibo through the m.weibo.cn JSON API (what the mobile site itself calls).
 *
 * - Container lookup: `/api/container/getIndex?type=uid&value={uid}`; the tab whose `tab_type`
 *   is "weibo" gives the timeline's `containerid` (fallback `107603{uid}`).
 * - Timeline: `…&containerid=…`, paged with `&since_id=` from `data.cardlistInfo.since_id`
 *   (older responses, like the 2019 capture, carry `cardlistInfo.page` instead: `&page=`).
 * - Cards with `card_type` 9 carry an `mblog`; `card_type` 11 groups nest them in `card_group`.
 * - Pinned: `mblogtype == 2` (or `isTop`); a pinned post is listed first whatever its age.
 * - Long posts (`isLongText`) are cut in the list: the item is `incomplete`, and `complete()`
 *   reads `/statuses/extend?id={id}` (`data.longTextContent`), the endpoint the mobile site uses
 *   for "全文". (`/statuses/show?id={bid}` also has it, inside a much larger payload.)
 * - Comments: `/comments/hotflow?id={id}&mid={mid}&max_id_type=0`, then `&max_id=…&max_id_type=…`
 *   from the previous response; `max_id` 0 ends it. Hotflow is ordered by popularity, not
 *   time, so `since` cannot end the scan early: every page is read and the caller dedupes.
 *
 * Requests go to the entry URL's origin (a local copy is crawled exactly like the real site),
 * except that real Weibo entries (weibo.com/u/…, weibo.cn/…) are read through m.weibo.cn,
 * the only Weibo host serving this API.
 *
 * Also: {@link parseWeiboCnProfile} reads the old WAP site (weibo.cn) profile HTML.
 */
import * as cheerio from "cheerio";
import { parseWeiboDate } from "../dates";
import { NonRetryableError } from "../errors";
import type { Adapter, AdapterContext, CrawlItem, ListItem, ListPage, ThreadPage } from "../types";
import { arr, dig, getJson, htmlToText, imagesIn, onOrigin, parseCount, rec, str, titleFromText, type Json } from "./shared";

const WEIBO_HOSTS = /(^|\.)weibo\.(com|cn)$/i;

/** The uid in an entry URL: `/u/{uid}`, `/p/100505{uid}`, `/{uid}` (Weibo hosts), `?uid=` / `?value=`. */
export function weiboUidFromUrl(url: URL): string | null {
  const path = url.pathname;
  let m = /^\/u\/(\d{5,})/.exec(path) ?? /^\/p\/100505(\d{5,})/.exec(path);
  if (m?.[1]) return m[1];
  if (WEIBO_HOSTS.test(url.hostname)) {
    m = /^\/(\d{5,})(?:\/|$)/.exec(path);
    if (m?.[1]) return m[1];
    const q = url.searchParams.get("uid") ?? url.searchParams.get("value");
    if (q && /^\d{5,}$/.test(q)) return q;
  }
  return null;
}

/**
 * Where the JSON API lives. A real Weibo entry (weibo.com/u/…, weibo.cn/…) is served by
 * m.weibo.cn's API; any other host (a local copy, a proxy) is asked on its own origin.
 */
function apiUrl(ctx: AdapterContext, pathAndQuery: string): string {
  const host = new URL(ctx.account.entryUrl).hostname;
  return WEIBO_HOSTS.test(host) ? new URL(pathAndQuery, "https://m.weibo.cn/").href : onOrigin(ctx, pathAndQuery);
}

function uidOf(ctx: AdapterContext): string {
  const uid = weiboUidFromUrl(new URL(ctx.account.entryUrl));
  if (!uid) throw new NonRetryableError(`no Weibo uid in entry URL ${ctx.account.entryUrl}`, ctx.account.entryUrl);
  return uid;
}

/** The timeline container id from the lookup response's tabs. */
function containerIdFrom(data: unknown): string | undefined {
  for (const tab of arr(dig(data, "data.tabsInfo.tabs"))) {
    const t = rec(tab);
    if (t && str(t["tab_type"]) === "weibo") return str(t["containerid"]);
  }
  return undefined;
}

/** `mblog` objects of a timeline response, in page order. */
function mblogsOf(data: unknown): Json[] {
  const out: Json[] = [];
  const visit = (card: unknown): void => {
    const c = rec(card);
    if (!c) return;
    if (str(c["card_type"]) === "9") {
      const m = rec(c["mblog"]);
      if (m) out.push(m);
    }
    for (const inner of arr(c["card_group"])) visit(inner);
  };
  for (const card of arr(dig(data, "data.cards"))) visit(card);
  return out;
}

/** True when the mblog is pinned to the top of the profile. */
function isPinned(m: Json): boolean {
  const top = m["isTop"];
  return str(m["mblogtype"]) === "2" || top === true || str(top) === "1";
}

/** The post's HTML; a repost carries the reposted text as a blockquote, since that is what was said. */
function mblogHtml(m: Json): string {
  const own = str(m["text"]) ?? "";
  const rt = rec(m["retweeted_status"]);
  if (!rt) return own;
  const who = str(dig(rt, "user.screen_name"));
  return `${own}<blockquote class="retweeted">${who ? `@${who}: ` : ""}${str(rt["text"]) ?? ""}</blockquote>`;
}

function picsOf(m: Json): string[] {
  const out: string[] = [];
  for (const p of arr(m["pics"])) {
    const url = str(dig(p, "large.url")) ?? str(rec(p)?.["url"]);
    if (url) out.push(url);
  }
  return out;
}

/**
 * One `mblog` as a list item. Exported for unit tests on the real capture.
 * @param origin where links point (`https://m.weibo.cn` or the local copy's origin)
 */
export function mblogToListItem(m: Json, origin: string, now: Date, source?: { url: string; body: string }): ListItem {
  const id = str(m["id"]) ?? str(m["mid"]);
  if (!id) throw new NonRetryableError("Weibo mblog without id");
  const mid = str(m["mid"]) ?? id;
  const created = str(m["created_at"]);
  if (!created) throw new NonRetryableError(`Weibo mblog ${id} without created_at`);
  const html = mblogHtml(m);
  const comments = parseCount(m["comments_count"]) ?? 0;
  const item: ListItem = {
    platformId: mid,
    kind: "post",
    url: `${origin}/detail/${id}`,
    title: titleFromText(htmlToText(html)),
    author: str(dig(m, "user.screen_name")) ?? "",
    publishedAt: parseWeiboDate(created, now),
    html,
    images: [...new Set([...picsOf(m), ...imagesIn(html, origin + "/")])],
    pinned: isPinned(m),
    incomplete: m["isLongText"] === true,
    hasReplies: comments > 0,
    replyCount: comments,
  };
  if (source) item.source = source;
  return item;
}

/** Weibo's mobile JSON API. */
export const weiboAdapter: Adapter = {
  platform: "weibo",

  recognise(url: URL): boolean {
    if (WEIBO_HOSTS.test(url.hostname)) return true;
    return /^\/u\/\d{5,}\/?$/.test(url.pathname) || /^\/p\/100505\d{5,}\/?$/.test(url.pathname);
  },

  async *list(ctx: AdapterContext): AsyncGenerator<ListPage> {
    const uid = uidOf(ctx);
    const base = `/api/container/getIndex?type=uid&value=${uid}`;
    let containerId: string | undefined;
    try {
      containerId = containerIdFrom((await getJson(ctx, apiUrl(ctx, base), { kind: "list" })).data);
    } catch (err) {
      // The lookup only saves guessing; the timeline request below reports a real failure.
      if (!(err instanceof NonRetryableError)) throw err;
      ctx.log(`weibo: container lookup failed (${err.message}); using 107603${uid}`);
    }
    containerId ??= `107603${uid}`;
    const timeline = `${base}&containerid=${containerId}`;

    let cursor = "";
    const seenCursors = new Set<string>();
    for (;;) {
      const url = apiUrl(ctx, timeline + cursor);
      const { res, data } = await getJson(ctx, url, { kind: "list" });
      const source = { url: res.url, body: res.body };
      const mblogs = mblogsOf(data);
      const items: ListItem[] = [];
      for (const m of mblogs) {
        try {
          items.push(mblogToListItem(m, new URL(url).origin, ctx.now, source));
        } catch (err) {
          // One odd post (a new date format, a missing id) must not hide the rest of the page;
          // a page where nothing parses is a changed API and fails loudly below.
          if (!(err instanceof NonRetryableError)) throw err;
          ctx.log(`weibo: skipped a post on ${res.url}: ${err.message}`);
        }
      }
      if (mblogs.length > 0 && items.length === 0) throw new NonRetryableError("no Weibo post on this page could be read", res.url);
      if (items.length === 0) return; // past the end (the API answers ok:0 or an empty card list)
      yield { url: res.url, items };

      const info = rec(dig(data, "data.cardlistInfo"));
      const sinceId = str(info?.["since_id"]);
      const page = str(info?.["page"]);
      const next = sinceId && sinceId !== "0" ? `&since_id=${sinceId}` : page && page !== "0" ? `&page=${page}` : "";
      // A cursor seen before means the API is looping: stop rather than crawl forever.
      if (!next || seenCursors.has(next)) return;
      seenCursors.add(next);
      cursor = next;
    }
  },

  async complete(ctx: AdapterContext, item: ListItem): Promise<CrawlItem> {
    const id = /\/detail\/(\d+)/.exec(item.url)?.[1] ?? item.platformId;
    const { res, data } = await getJson(ctx, apiUrl(ctx, `/statuses/extend?id=${id}`), { kind: "item" });
    const full = str(dig(data, "data.longTextContent"));
    if (full === undefined) throw new NonRetryableError(`no longTextContent for Weibo ${id}`, res.url);
    const { pinned: _p, incomplete: _i, hasReplies: _h, replyCount: _r, lastActivityAt: _l, ...base } = item;
    return { ...base, html: full, images: imagesIn(full, res.url), source: { url: res.url, body: res.body } };
  },

  async *replies(ctx: AdapterContext, thread: ListItem, _since: Date | null): AsyncGenerator<ThreadPage> {
    const id = /\/detail\/(\d+)/.exec(thread.url)?.[1] ?? thread.platformId;
    const mid = thread.platformId;
    let cursor = "&max_id_type=0";
    const seen = new Set<string>();
    for (;;) {
      const url = apiUrl(ctx, `/comments/hotflow?id=${id}&mid=${mid}${cursor}`);
      const { res, data } = await getJson(ctx, url, { kind: "item" });
      // ok:0 with no data is how hotflow says "no (more) comments".
      const comments = arr(dig(data, "data.data"));
      const replies: CrawlItem[] = [];
      for (const c of comments) {
        const r = rec(c);
        const cid = str(r?.["id"]) ?? str(r?.["mid"]);
        const created = str(r?.["created_at"]);
        if (!r || !cid || !created) continue;
        const html = str(r["text"]) ?? "";
        replies.push({
          platformId: cid,
          parentPlatformId: mid,
          kind: "reply",
          url: `${new URL(url).origin}/detail/${id}#comment-${cid}`,
          title: "",
          author: str(dig(r, "user.screen_name")) ?? "",
          publishedAt: parseWeiboDate(created, ctx.now),
          html,
          images: imagesIn(html, res.url),
          source: { url: res.url, body: res.body },
        });
      }
      if (replies.length === 0) return;
      yield { url: res.url, replies };
      const maxId = str(dig(data, "data.max_id"));
      const maxIdType = str(dig(data, "data.max_id_type")) ?? "0";
      if (!maxId || maxId === "0" || seen.has(maxId)) return;
      seen.add(maxId);
      cursor = `&max_id=${maxId}&max_id_type=${maxIdType}`;
    }
  },
};

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
    $("div.ut span.ctt").first().contents().first().text().replace(/\s+/g, " ").trim() ||
    $("title").text().replace(/的微博$/, "").trim();
  const items: ListItem[] = [];
  $("div.c[id^=M_]").each((_i, el) => {
    const div = $(el);
    const bid = (div.attr("id") ?? "").slice(2);
    const ctRaw = div.find("span.ct").last().text();
    const body = div.clone();
    body.find("span.ct, span.kt").remove();
    // The action links ("赞[…] 转发[…] 评论[…] 收藏") are chrome, not content.
    body.find("a").filter((_j, a) => /^(赞|转发|评论|收藏|原文转发|原文评论|原图)(\[\d+\])?$/.test($(a).text().trim())).remove();
    const htmlBody = (body.find("span.ctt").length > 0 ? body.html() : div.html()) ?? "";
    const comments = Number(/评论\[(\d+)\]/.exec(div.text())?.[1] ?? "0");
    const text = htmlToText(div.find("span.ctt").map((_j, s) => $(s).html() ?? "").get().join(" "));
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
  const next = $("#pagelist a").filter((_i, a) => $(a).text().trim() === "下页").attr("href");
  const count = /\d+\/(\d+)页/.exec($("#pagelist").text());
  return { items, nextUrl: next ? new URL(next, pageUrl).href : null, pageCount: count?.[1] ? Number(count[1]) : null };
}
