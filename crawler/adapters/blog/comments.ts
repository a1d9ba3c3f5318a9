/**
 * WordPress comments, stored as replies: a comment's parent is the post, or the comment it
 * answers (threaded comments).
 *
 * The REST API is tried first: `{root}wp/v2/comments?post=ID&per_page=100&page=N` (JSON array of
 * `id, post, parent, author, author_name, date_gmt, content.rendered, link`; `X-WP-TotalPages`).
 * Sites that close it to visitors answer 401/403 (or 404 when it is removed); then the post's own
 * comment feed is read (`wfw:commentRss`, else the permalink + `feed/`): one RSS item per
 * comment, newest first, with "In reply to …" (zh-CN "回复给…") before the text of a threaded one.
 */
import * as cheerio from "cheerio";
import type { Cheerio } from "cheerio";
import type { Element } from "domhandler";
import { NonRetryableError } from "../../errors";
import type { AdapterContext, CrawlItem, ListItem, ThreadPage } from "../../types";
import { getJson, imagesIn, num, rebase, rec, str } from "../shared";
import { collapse, readDate, type WpPostInfo } from "./common";
import { looksLikeFeed } from "./feed";

/** REST pages read per post and run at most (100 comments each). */
const MAX_REST_PAGES = 20;
/** Comment feed pages read per post and run at most (10 comments each by default). */
const MAX_FEED_PAGES = 30;

/** Statuses of a REST API closed to visitors or missing: read the comment feed instead. */
const REST_CLOSED = new Set([401, 403, 404, 410]);

/** How one site's comments are read; `rest: false` once the REST API answered "closed". */
export interface CommentMethod {
  rest: boolean;
}

/** Oldest first; a reply is never older than what it answers, ties go to the smaller id. */
function byTime(a: CrawlItem, b: CrawlItem): number {
  return a.publishedAt.getTime() - b.publishedAt.getTime() || Number(a.platformId) - Number(b.platformId);
}

/**
 * The comments of one post as one thread page, oldest first (a parent before its replies, so the
 * store links them). Comments at or before `since` may be included: the store skips them.
 */
export async function* wordpressComments(
  ctx: AdapterContext,
  post: ListItem,
  info: WpPostInfo,
  since: Date | null,
  method: CommentMethod,
): AsyncGenerator<ThreadPage> {
  if (method.rest && info.wpId) {
    const root = info.restRoot ?? new URL("/wp-json/", ctx.account.entryUrl).href;
    const read = await viaRest(ctx, post, rebase(ctx, root, root), info.wpId);
    if (read) {
      yield read;
      return;
    }
    method.rest = false;
  }
  const feed = info.commentFeed ?? (post.url.endsWith("/") ? `${post.url}feed/` : null);
  if (!feed) return;
  const read = await viaFeed(ctx, post, rebase(ctx, feed, feed), since);
  if (read) yield read;
}

/** Every comment through the REST API (all pages: a late-approved old comment is still found); null when the API is closed. */
async function viaRest(ctx: AdapterContext, post: ListItem, root: string, wpId: string): Promise<ThreadPage | null> {
  const replies: CrawlItem[] = [];
  let firstUrl = "";
  for (let page = 1, pages = 1; page <= pages && page <= MAX_REST_PAGES; page++) {
    const url = new URL(`wp/v2/comments?post=${encodeURIComponent(wpId)}&per_page=100&page=${page}`, root).href;
    firstUrl ||= url;
    let data: unknown;
    let headers: Record<string, string>;
    try {
      const got = await getJson(ctx, url, { kind: "item" });
      data = got.data;
      headers = got.res.headers;
    } catch (e) {
      if (page === 1 && e instanceof NonRetryableError && (e.status === undefined || e.status < 400 || REST_CLOSED.has(e.status))) {
        ctx.log(`comments of ${post.url}: the REST API answered ${e.status ?? e.message}; reading the comment feed`);
        return null;
      }
      throw e;
    }
    if (!Array.isArray(data)) {
      if (page === 1) return null; // an HTML page or an error object: not WordPress's API
      break;
    }
    pages = Math.max(1, num(headers["x-wp-totalpages"]) ?? (data.length >= 100 ? page + 1 : page));
    for (const raw of data) {
      const c = rec(raw);
      const id = str(c?.["id"]);
      if (!c || !id) continue;
      const parent = str(c["parent"]);
      const html = str(rec(c["content"])?.["rendered"]) ?? "";
      const gmt = str(c["date_gmt"]);
      const authorId = str(c["author"]);
      const link = str(c["link"]);
      replies.push({
        platformId: id,
        parentPlatformId: parent && parent !== "0" ? parent : post.platformId,
        kind: "reply",
        url: link ? rebase(ctx, link, post.url) : `${post.url}#comment-${id}`,
        title: "",
        author: collapse(str(c["author_name"])),
        ...(authorId && authorId !== "0" ? { authorId } : {}),
        // date_gmt has no offset and is UTC; `date` is the site's local time (UTC+8 assumed).
        publishedAt: readDate(
          [gmt ? `${gmt}Z` : undefined, str(c["date"])],
          ctx.now,
          { at: post.publishedAt, reason: "the post's date" },
          { url, warn: ctx.warn },
        ),
        html: html.trim(),
        images: imagesIn(html, post.url),
        source: { url, body: JSON.stringify(c) },
      });
    }
    if (data.length === 0) break;
  }
  return { url: firstUrl, replies: replies.sort(byTime) };
}

/** "In reply to <a href="…#comment-44">阿青</a>." before a threaded comment's text in a comment feed. */
const IN_REPLY_TO = /^\s*(?:In reply to|回复给|回复)\s*/i;

/** One comment feed item as a reply; null when it is not a comment (no `#comment-N`). */
function feedComment(ctx: AdapterContext, post: ListItem, it: Cheerio<Element>, feedUrl: string): CrawlItem | null {
  const link = it.children("link").first().text().trim();
  const guid = it.children("guid").first().text().trim();
  const id = /#comment-(\d+)/.exec(link)?.[1] ?? /#comment-(\d+)/.exec(guid)?.[1];
  if (!id) return null;
  const $c = cheerio.load(`<div id="c">${it.children("content\\:encoded").first().text() || it.children("description").first().text()}</div>`);
  let parent = post.platformId;
  const first = $c("#c > p").first();
  const parentLink = first.find('a[href*="#comment-"]').first();
  if (first.length > 0 && parentLink.length > 0 && IN_REPLY_TO.test(first.text())) {
    parent = /#comment-(\d+)/.exec(parentLink.attr("href") ?? "")?.[1] ?? parent;
    first.remove();
  }
  const html = ($c("#c").html() ?? "").trim();
  return {
    platformId: id,
    parentPlatformId: parent,
    kind: "reply",
    url: link ? rebase(ctx, link, post.url) : `${post.url}#comment-${id}`,
    title: "",
    author: collapse(it.children("dc\\:creator").first().text()),
    publishedAt: readDate(
      [it.children("pubDate").first().text()],
      ctx.now,
      { at: post.publishedAt, reason: "the post's date" },
      { url: feedUrl, warn: ctx.warn },
    ),
    html,
    images: imagesIn(html, post.url),
  };
}

/**
 * Comments through the post's comment feed, newest first, page by page (`?paged=N`) until a
 * page reaches `since` or ends; null when the post has no comment feed (404).
 */
async function viaFeed(ctx: AdapterContext, post: ListItem, feedUrl: string, since: Date | null): Promise<ThreadPage | null> {
  const replies: CrawlItem[] = [];
  let fullPage = 0;
  for (let page = 1; page <= MAX_FEED_PAGES; page++) {
    const url = page === 1 ? feedUrl : `${feedUrl}${feedUrl.includes("?") ? "&" : "?"}paged=${page}`;
    let body: string;
    try {
      body = (await ctx.fetch.get(url, { kind: "item" })).body;
    } catch (e) {
      // No comment feed (page 1), or past its last page (WordPress answers 404).
      if (e instanceof NonRetryableError && (e.status === 404 || e.status === 410)) {
        if (page === 1) return null;
        break;
      }
      throw e;
    }
    if (!looksLikeFeed(body)) {
      if (page === 1) return null; // a soft "not found" page
      break;
    }
    const $ = cheerio.load(body, { xml: true });
    const items = $("item")
      .toArray()
      .map((el) => feedComment(ctx, post, $(el), url))
      .filter((c): c is CrawlItem => c !== null);
    replies.push(...items);
    fullPage ||= items.length;
    if (items.length === 0 || items.length < fullPage) break;
    if (since && items.some((c) => c.publishedAt <= since)) break;
  }
  const unique = new Map(replies.map((r) => [r.platformId, r]));
  return { url: feedUrl, replies: [...unique.values()].sort(byTime) };
}
