/**
 * RSS 2.0 / RSS 1.0 / Atom feeds of blogs: posts, and (WordPress) where their comments are.
 */
import * as cheerio from "cheerio";
import type { Cheerio, CheerioAPI } from "cheerio";
import type { AnyNode } from "domhandler";
import type { ListItem } from "../../types";
import { htmlToText } from "../../text";
import { imagesIn } from "../shared";
import { collapse, countIn, postId, readDate, wpIdIn, type Warn, type WpPostInfo } from "./common";

/** True when a body is an RSS/Atom document rather than HTML. */
export function looksLikeFeed(body: string): boolean {
  return /^\s*(?:\uFEFF)?(?:<\?xml[^>]*>\s*)?(?:<!--[\s\S]*?-->\s*|<\?xml-stylesheet[^>]*>\s*)*<(?:rss|feed|rdf:RDF)\b/i.test(body);
}

/** A feed's items, and what each says about its WordPress comments (by platformId). */
export interface ReadFeed {
  items: ListItem[];
  wp: Map<string, WpPostInfo>;
}

/** Text of an Atom text construct: `type="html"` titles carry escaped markup, which is not the title. */
function atomText(el: Cheerio<AnyNode>): string {
  const type = el.attr("type") ?? "text";
  return collapse(type === "html" || type === "xhtml" ? htmlToText(type === "html" ? el.text() : (el.html() ?? "")) : el.text());
}

/**
 * Items of an RSS 2.0 / RSS 1.0 / Atom feed, newest first as the feed lists them.
 * Items are `incomplete` when the feed carries only a summary; `textIncomplete` says whether the
 * feed's html is the whole post (content:encoded, Atom content) or an excerpt.
 * An item whose date cannot be read is kept with the feed's own date (or the crawl's time) and
 * recorded through `warn`: the article page's date replaces it when the page is read.
 * @param feedUrl absolute URL the feed was read from
 * @param linkOrigin where item links are moved (the blog's origin: a feed on another host lists
 *   the blog's posts); by default the feed's own origin
 */
export function readFeed(xml: string, feedUrl: string, now: Date, warn?: Warn, linkOrigin?: string): ReadFeed {
  const $ = cheerio.load(xml, { xml: true });
  const origin = linkOrigin ?? new URL(feedUrl).origin;
  const onOrigin = (href: string): string => {
    const u = new URL(href, feedUrl);
    return new URL(u.pathname + u.search, origin).href;
  };
  const items: ListItem[] = [];
  const wp = new Map<string, WpPostInfo>();
  const source = { url: feedUrl, body: xml };
  const channelTitle = collapse($("channel > title").first().text()) || atomText($("feed > title").first());
  const generator = $("channel > generator, feed > generator").first().text() + ($("feed > generator").attr("uri") ?? "");
  const wordpress = /wordpress/i.test(generator);
  // The feed's own date is the best stand-in for an item date that cannot be read: no item is newer.
  const feedDate = (): Date =>
    readDate(
      [$("channel > lastBuildDate").first().text(), $("channel > pubDate").first().text(), $("feed > updated").first().text()],
      now,
      { at: now, reason: "" },
      { url: feedUrl },
    );

  $("item").each((_i, el) => {
    const it = $(el);
    const link = it.children("link").first().text().trim() || it.attr("rdf:about") || "";
    const guid = it.children("guid").first().text().trim();
    if (!link && !guid) return;
    const url = link ? onOrigin(link) : guid;
    const when = [it.children("pubDate").first().text(), it.children("dc\\:date").first().text()];
    const publishedAt = readDate(when, now, { at: feedDate(), reason: "the feed's date" }, { url: feedUrl, warn });
    const content = it.children("content\\:encoded").first().text();
    const description = it.children("description").first().text();
    const platformId = link ? postId(url) : guid;
    const commentFeed = it.children("wfw\\:commentRss").first().text().trim();
    const countEl = it.children("slash\\:comments").first();
    const replyCount = countEl.length > 0 ? countIn(countEl.text()) : undefined;
    const isWp = wordpress || commentFeed !== "" || countEl.length > 0;
    if (isWp) wp.set(platformId, { wpId: wpIdIn(guid), commentFeed: commentFeed ? onOrigin(commentFeed) : undefined, wordpress: true });
    items.push({
      platformId,
      kind: "post",
      url,
      title: collapse(it.children("title").first().text()),
      author: collapse(it.children("dc\\:creator").first().text()) || collapse(it.children("author").first().text()) || channelTitle,
      publishedAt,
      html: (content || description).trim(),
      images: imagesIn(content || description, url),
      incomplete: content.trim() === "",
      textIncomplete: content.trim() === "",
      ...(replyCount !== undefined ? { replyCount, hasReplies: replyCount > 0 } : isWp ? { hasReplies: true } : {}),
      source,
    });
  });

  $("feed > entry").each((_i, el) => {
    const entry = $(el);
    const alt =
      entry.children('link[rel="alternate"]').first().attr("href") ??
      entry.children("link:not([rel])").first().attr("href") ??
      entry.children("link").first().attr("href");
    const id = entry.children("id").first().text().trim();
    if (!alt && !id) return;
    const url = alt ? onOrigin(alt) : id;
    const when = [entry.children("published").first().text(), entry.children("updated").first().text()];
    const publishedAt = readDate(when, now, { at: feedDate(), reason: "the feed's date" }, { url: feedUrl, warn });
    const content = entry.children("content").first().text();
    const summary = entry.children("summary").first().text();
    // RFC 4685 threading: <link rel="replies" thr:count="3">.
    const replies = entry.children('link[rel="replies"]').first();
    const count = replies.attr("thr:count");
    items.push({
      platformId: alt ? postId(url) : id,
      kind: "post",
      url,
      title: atomText(entry.children("title").first()),
      author: collapse(entry.find("author > name").first().text()) || collapse($("feed > author > name").first().text()) || channelTitle,
      publishedAt,
      html: (content || summary).trim(),
      images: imagesIn(content || summary, url),
      incomplete: content.trim() === "",
      textIncomplete: content.trim() === "",
      ...(count !== undefined ? { replyCount: countIn(count), hasReplies: countIn(count) > 0 } : {}),
      source,
    });
  });
  return { items, wp };
}

/**
 * Items of an RSS 2.0 / RSS 1.0 / Atom feed. Exported for unit tests on the real capture.
 * @param feedUrl absolute URL the feed was read from; item links are moved onto its origin
 */
export function parseFeed(xml: string, feedUrl: string, now: Date, warn?: Warn): ListItem[] {
  return readFeed(xml, feedUrl, now, warn).items;
}

/**
 * {@link advertisedFeeds} of a page's HTML (run on a parse thread by the adapter), with the URLs
 * the page gives for itself (`<link rel="canonical">`, `og:url`): a feed on the host the page
 * calls its own belongs to the blog, one on any other host (feed.cnblogs.com, FeedBurner, a CDN)
 * is another site's.
 */
export function advertisedFeedsIn(html: string): { feeds: string[]; selfUrls: string[] } {
  const $ = cheerio.load(html);
  const selfUrls = [$('link[rel~="canonical"]').attr("href"), $('meta[property="og:url"]').attr("content")].filter((u): u is string => Boolean(u?.trim()));
  return { feeds: advertisedFeeds($), selfUrls };
}

/** `<link rel="alternate">` feeds advertised by a page, in page order. */
export function advertisedFeeds($: CheerioAPI): string[] {
  const out: string[] = [];
  $('link[rel~="alternate"][href]').each((_i, el) => {
    const type = $(el).attr("type") ?? "";
    const href = $(el).attr("href") ?? "";
    // WordPress also advertises the comments feed ("… » 评论 Feed", /comments/feed/): not posts.
    if (/application\/(rss|atom|rdf)\+xml/i.test(type) && !/\/comments\/feed\/?$/.test(href)) out.push(href);
  });
  return out;
}
