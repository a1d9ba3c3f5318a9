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
 * - If the full text cannot be read (an error, a block, `ok: 0`, no `longTextContent`), the list's
 *   cut text is returned marked `textIncomplete` and the failure is warned about with the
 *   extend URL: the post is stored, and a later crawl completes it. A deletion notice there
 *   (`ok: 0` "微博不存在或暂无查看权限", `deleted: "1"`) is thrown as `GoneError`: the worker
 *   marks the post deleted.
 * - Comments and their child comments: see ./weibo-comments.ts.
 * - An account with login cookies first asks `/api/config`: `data.login: false` is an expired
 *   login (`LoginExpiredError`), never a timeline read as a visitor.
 * - Authors are the screen name as shown (whitespace-collapsed); `user.id` is the author id.
 *
 * Requests go to the entry URL's origin (a local copy is crawled exactly like the real site),
 * except that real Weibo entries (weibo.com/u/…, weibo.cn/…) are read through m.weibo.cn,
 * the only Weibo host serving this API. Every error thrown here carries the URL requested.
 */
import { parseWeiboDate } from "../../dates";
import { BlockedError, FatalError, GoneError, NonRetryableError, RetryableError } from "../../errors";
import type { Adapter, AdapterContext, CaptureKind, CrawlItem, ListItem, ListPage, ThreadPage } from "../../types";
import { captureJson, captureUrl, type CaptureOptions } from "../captures";
import { weibo, weiboUidFromUrl } from "../../../lib/platforms/weibo";
import { apiUrl, checkWeiboLogin, timeFromWeiboId, userOf, weiboGone, weiboGoneNotice } from "./api";
import { childReplies, hotflowReplies, weiboComments, type PostRef } from "./comments";
import { htmlToText } from "../../text";
import { arr, dig, getJson, imagesIn, parseCount, rec, str, titleFromText, type Json } from "../shared";

export { weiboGoneNotice, timeFromWeiboId } from "./api";
export { weiboUidFromUrl } from "../../../lib/platforms/weibo";

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
 * @param onBadDate called with the raw text when `created_at` is missing or unreadable; returns
 *   the date to use instead, or null to leave it to the caller (the item's date is then invalid).
 *   Without it, an unreadable date throws.
 */
export function mblogToListItem(
  m: Json,
  origin: string,
  now: Date,
  source?: { url: string; body: string },
  onBadDate?: (raw: string, id: string) => Date | null,
): ListItem {
  const id = str(m["idstr"]) ?? str(m["id"]) ?? str(m["mid"]);
  if (!id) throw new NonRetryableError("Weibo mblog without id", source?.url);
  const mid = str(m["mid"]) ?? id;
  const created = str(m["created_at"]);
  let publishedAt: Date;
  try {
    if (created === undefined) throw new NonRetryableError(`Weibo mblog ${id} without created_at`, source?.url);
    publishedAt = parseWeiboDate(created, now);
  } catch (err) {
    if (!onBadDate || !(err instanceof NonRetryableError)) throw err;
    publishedAt = onBadDate(created ?? "", mid) ?? new Date(Number.NaN);
  }
  const html = mblogHtml(m);
  const comments = parseCount(m["comments_count"]) ?? 0;
  const item: ListItem = {
    platformId: mid,
    kind: "post",
    url: `${origin}/detail/${id}`,
    title: titleFromText(htmlToText(html)),
    ...userOf(m),
    publishedAt,
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

/**
 * The items of one timeline page. A post whose date cannot be read is kept (warned about with
 * the page URL and the raw text) and dated by the time in its id, else by the post listed just
 * before it (newer, so the history mark never moves past unseen posts), else the one after it.
 */
function pageItems(ctx: Pick<AdapterContext, "now" | "warn">, mblogs: Json[], pageUrl: string, source: { url: string; body: string }): ListItem[] {
  const origin = new URL(pageUrl).origin;
  const items: ListItem[] = [];
  for (const m of mblogs) {
    try {
      items.push(
        mblogToListItem(m, origin, ctx.now, source, (raw, mid) => {
          const fromId = timeFromWeiboId(mid, ctx.now);
          ctx.warn({ url: source.url, field: "date", raw, reason: fromId ? "used the time in the post's id" : "used the date of a neighbouring post" });
          return fromId;
        }),
      );
    } catch (err) {
      // A post without an id cannot be stored; the rest of the page goes on.
      if (!(err instanceof NonRetryableError)) throw err;
      ctx.warn({ url: source.url, field: "id", raw: JSON.stringify(m).slice(0, 200), reason: `skipped: ${err.message}` });
    }
  }
  const dated = (i: number) => !Number.isNaN(items[i]?.publishedAt.getTime());
  for (let i = 0; i < items.length; i++) {
    const it = items[i]!;
    if (dated(i)) continue;
    let j = i - 1;
    while (j >= 0 && (!dated(j) || items[j]!.pinned)) j--;
    let k = i + 1;
    while (k < items.length && (!dated(k) || items[k]!.pinned)) k++;
    const near = j >= 0 ? items[j] : k < items.length ? items[k] : undefined;
    it.publishedAt = near ? new Date(near.publishedAt) : new Date(ctx.now);
  }
  return items;
}

/** The list item without its list-only fields, as `complete()` returns it. */
function asCrawlItem(item: ListItem): CrawlItem {
  const { pinned: _p, incomplete: _i, hasReplies: _h, replyCount: _r, lastActivityAt: _l, ...base } = item;
  return base;
}

/**
 * The post a saved comments answer belongs to: `id` and `mid` of the answer's URL (`--url`), else
 * the `status` a comment may carry; without either the comments are read with no parent, warned.
 */
function commentedPost(data: unknown, options: CaptureOptions, url: string): PostRef {
  const u = new URL(url);
  const first = rec(arr(dig(data, "data.data"))[0]) ?? rec(arr(rec(data)?.["data"])[0]);
  const mid = u.searchParams.get("mid") ?? u.searchParams.get("id") ?? str(dig(first, "status.mid")) ?? "";
  if (!mid) options.warn({ url, field: "parent", raw: "", reason: "no post id in the URL (?id=&mid=): the comments are read without their post" });
  // A comment whose own date cannot be read gets the crawl's clock: the post's date is not in the answer.
  return { id: u.searchParams.get("id") ?? mid, mid, origin: u.origin, publishedAt: options.now };
}

/** What `campuswatch parse` reads for Weibo: the m.weibo.cn API answers the crawl reads. */
const weiboCaptureKinds: readonly CaptureKind[] = [
  {
    kind: "timeline",
    summary: "a profile's timeline: api/container/getIndex JSON (data.cards with mblog)",
    looksLike: (body) => body.trimStart().startsWith("{") && body.includes('"cards"') && body.includes('"mblog"'),
    parse(body, options) {
      const url = captureUrl(options, body, "https://m.weibo.cn/api/container/getIndex");
      const data = captureJson(body, url);
      if (!Array.isArray(dig(data, "data.cards"))) throw new NonRetryableError("not a Weibo timeline answer: no data.cards", url);
      return pageItems(options, mblogsOf(data), url, { url, body });
    },
  },
  {
    kind: "comments",
    summary: "a post's comments: comments/hotflow JSON (--url with ?id=&mid= names the post)",
    looksLike: (body) => body.trimStart().startsWith("{") && body.includes('"max_id"') && !body.includes('"rootComment"'),
    parse(body, options) {
      const url = captureUrl(options, body, "https://m.weibo.cn/comments/hotflow");
      const data = captureJson(body, url);
      const gone = weiboGoneNotice(data);
      if (gone) throw weiboGone(gone, url);
      const { replies, needs } = hotflowReplies(options, data, commentedPost(data, options, url), { url, body });
      // What the crawl keeps of a cut preview when hotFlowChild cannot be read: here, all there is.
      return [...replies, ...needs.flatMap((n) => n.preview)];
    },
  },
  {
    kind: "child-comments",
    summary: "a comment's replies: comments/hotFlowChild JSON (--url with ?cid= names the comment)",
    looksLike: (body) => body.trimStart().startsWith("{") && body.includes('"rootComment"'),
    parse(body, options) {
      const url = captureUrl(options, body, "https://m.weibo.cn/comments/hotFlowChild");
      const data = captureJson(body, url);
      // hotFlowChild repeats the comment it answers in `rootComment` (an array, or one object).
      const root = rec(arr(rec(data)?.["rootComment"])[0]) ?? rec(rec(data)?.["rootComment"]);
      const cid = new URL(url).searchParams.get("cid") ?? str(root?.["idstr"]) ?? str(root?.["id"]) ?? "";
      const post = commentedPost({ data: [root ?? {}] }, options, url);
      return childReplies(options, data, post, { platformId: cid, publishedAt: options.now }, { url, body });
    },
  },
];

/** Weibo's mobile JSON API. */
export const weiboAdapter: Adapter = {
  platform: weibo.id,
  // The timeline lists every post by publication time: a post missing from the span read is probed.
  listOrder: "published",
  recognise: weibo.recognise,
  captureKinds: weiboCaptureKinds,

  async *list(ctx: AdapterContext): AsyncGenerator<ListPage> {
    const uid = uidOf(ctx);
    // A logged-out session must not be read as the timeline (an account with cookies only).
    await checkWeiboLogin(ctx);
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
      // The timeline's first page is its head (the container lookup above changes with nothing).
      const { res, data } = await getJson(ctx, url, { kind: "list", conditional: cursor === "" });
      const mblogs = mblogsOf(data);
      const items = pageItems(ctx, mblogs, url, { url: res.url, body: res.body });
      // A page where nothing could be read is a changed API: fail loudly, naming the page.
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

  /**
   * The full text of a long post. Never loses the post: when the full text cannot be read, the
   * list's cut text comes back marked `textIncomplete` (stored so, and completed by a later
   * crawl), and the failure is warned about with the extend URL that failed.
   * @throws GoneError when Weibo answers that the post was deleted
   * @throws FatalError as is (the run cannot go on)
   */
  async complete(ctx: AdapterContext, item: ListItem): Promise<CrawlItem> {
    const id = /\/detail\/(\d+)/.exec(item.url)?.[1] ?? item.platformId;
    const url = apiUrl(ctx, `/statuses/extend?id=${id}`);
    const partial = (raw: string): CrawlItem => {
      ctx.warn({ url, field: "body", raw, reason: "stored the list's cut text, marked incomplete: a later crawl reads the full text" });
      return { ...asCrawlItem(item), textIncomplete: true };
    };
    let got: Awaited<ReturnType<typeof getJson>>;
    try {
      got = await getJson(ctx, url, { kind: "item" });
    } catch (err) {
      if (err instanceof FatalError || err instanceof GoneError || !(err instanceof Error)) throw err;
      const kind = err instanceof BlockedError ? "blocked" : err instanceof RetryableError ? "failed" : "unreadable";
      return partial(`${kind}: ${err.name}: ${err.message}`);
    }
    const { res, data } = got;
    const gone = weiboGoneNotice(data);
    if (gone) throw weiboGone(gone, res.url);
    const full = str(dig(data, "data.longTextContent"));
    if (full === undefined || full.trim() === "") {
      const msg = str(rec(data)?.["msg"]);
      return partial(msg ? `ok: ${str(rec(data)?.["ok"]) ?? "?"}, msg: ${msg}` : `no longTextContent: ${res.body.slice(0, 160)}`);
    }
    return { ...asCrawlItem(item), html: full, images: imagesIn(full, res.url), source: { url: res.url, body: res.body } };
  },

  /** Comments, then child comments, as replies (see ./weibo-comments.ts). `since` cannot help: hotflow is ordered by popularity. */
  replies(ctx: AdapterContext, thread: ListItem, _since: Date | null): AsyncIterable<ThreadPage> {
    return weiboComments(ctx, thread);
  },
};
