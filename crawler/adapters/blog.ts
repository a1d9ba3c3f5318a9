/**
 * Blogs (Hexo/NexT, WordPress and look-alikes): the fallback for any other http(s) URL.
 *
 * A feed is preferred: it has full content and exact dates in one request. Discovery order:
 * the entry page's `<link rel="alternate" type="application/rss+xml|atom+xml">`, then `feed/`,
 * `atom.xml`, `rss.xml` next to the entry URL, then the same at the site root; the first that
 * parses as RSS/Atom wins. The answer is cached per adapter instance and entry URL for
 * {@link FEED_CACHE_MS} (so a regular crawl costs one request, not five), and dropped as soon as
 * the cached feed fails.
 *
 * Without a feed, listing pages are read: Hexo/NexT (`a.post-title-link`,
 * `time[itemprop~=datePublished][datetime]`), WordPress (`article`, `.entry-title a`,
 * `time.entry-date[datetime]`) and, failing both, any `<time datetime>` next to a link (custom
 * themes, like the captured author archive). Pages follow `rel=next`/"next" links or
 * `/page/N/`. Listing items carry only an excerpt: they are `incomplete`, and `complete()`
 * reads the article page (`.post-body`, `.entry-content`, `article`).
 *
 * A feed holds only the latest posts (10 on WordPress by default); if the caller wants more,
 * listing pages follow the feed. Items are identified by the path of their URL (guid only when
 * there is no link), so the same post has the same platformId whichever source it came from.
 */
import * as cheerio from "cheerio";
import type { CheerioAPI } from "cheerio";
import { tryParsePlatformDate } from "../dates";
import { NonRetryableError } from "../errors";
import type { Adapter, AdapterContext, CrawlItem, FetchResult, ListItem, ListPage } from "../types";
import { imagesIn, rebase } from "./shared";

/** How long a discovered feed URL (or "no feed") is trusted before discovering again. */
export const FEED_CACHE_MS = 24 * 3_600_000;

const FEED_TYPES = /application\/(rss|atom)\+xml|application\/rdf\+xml/i;

/** True when a body is an RSS/Atom document rather than HTML. */
export function looksLikeFeed(body: string): boolean {
  return /^\s*(?:\uFEFF)?(?:<\?xml[^>]*>\s*)?(?:<!--[\s\S]*?-->\s*|<\?xml-stylesheet[^>]*>\s*)*<(?:rss|feed|rdf:RDF)\b/i.test(body);
}

/** The path (and query) of a URL: the stable identity of a blog post across feed and listing. */
function postId(url: string): string {
  const u = new URL(url);
  return u.pathname + u.search;
}

/**
 * Items of an RSS 2.0 / RSS 1.0 / Atom feed. Exported for unit tests on the real capture.
 * @param feedUrl absolute URL the feed was read from; item links are moved onto its origin
 */
export function parseFeed(xml: string, feedUrl: string, now: Date): ListItem[] {
  const $ = cheerio.load(xml, { xml: true });
  const origin = new URL(feedUrl).origin;
  const onOrigin = (href: string): string => {
    const u = new URL(href, feedUrl);
    return new URL(u.pathname + u.search, origin).href;
  };
  const items: ListItem[] = [];
  const source = { url: feedUrl, body: xml };
  const channelTitle = $("channel > title").first().text().trim() || $("feed > title").first().text().trim();

  $("item").each((_i, el) => {
    const it = $(el);
    const link = it.children("link").first().text().trim() || it.attr("rdf:about") || "";
    const guid = it.children("guid").first().text().trim();
    const when = it.children("pubDate").first().text().trim() || it.children("dc\\:date").first().text().trim();
    const publishedAt = tryParsePlatformDate(when, now, "blog");
    if (!publishedAt || (!link && !guid)) return;
    const content = it.children("content\\:encoded").first().text();
    const description = it.children("description").first().text();
    const url = link ? onOrigin(link) : guid;
    items.push({
      platformId: link ? postId(url) : guid,
      kind: "post",
      url,
      title: it.children("title").first().text().trim(),
      author: it.children("dc\\:creator").first().text().trim() || it.children("author").first().text().trim() || channelTitle,
      publishedAt,
      html: (content || description).trim(),
      images: imagesIn(content || description, url),
      incomplete: content.trim() === "",
      source,
    });
  });

  $("feed > entry").each((_i, el) => {
    const entry = $(el);
    const alt = entry.children('link[rel="alternate"]').first().attr("href") ?? entry.children("link:not([rel])").first().attr("href") ?? entry.children("link").first().attr("href");
    const id = entry.children("id").first().text().trim();
    const when = entry.children("published").first().text().trim() || entry.children("updated").first().text().trim();
    const publishedAt = tryParsePlatformDate(when, now, "blog");
    if (!publishedAt || (!alt && !id)) return;
    const content = entry.children("content").first().text();
    const summary = entry.children("summary").first().text();
    const url = alt ? onOrigin(alt) : id;
    items.push({
      platformId: alt ? postId(url) : id,
      kind: "post",
      url,
      title: entry.children("title").first().text().trim(),
      author: entry.find("author > name").first().text().trim() || $("feed > author > name").first().text().trim() || channelTitle,
      publishedAt,
      html: (content || summary).trim(),
      images: imagesIn(content || summary, url),
      incomplete: content.trim() === "",
      source,
    });
  });
  return items;
}

/** The blog's author as the page states it, else the site's name. */
function pageAuthor($: CheerioAPI): string {
  return (
    $('meta[name="author"]').attr("content")?.trim() ||
    $('[itemprop="author"] meta[itemprop="name"]').first().attr("content")?.trim() ||
    $(".entry-meta .author a, .byline .author").first().text().trim() ||
    $('meta[property="og:site_name"]').attr("content")?.trim() ||
    $("title").first().text().split(/\s+[|\-–]\s+/).pop()?.trim() ||
    ""
  );
}

/** Publication time elements, most specific first (an "updated" time may come before it). */
const PUBLISHED_TIME = ['time[itemprop~="datePublished"][datetime]', "time.entry-date.published[datetime]", "time.entry-date[datetime]", "time[datetime]"];

/** `datetime` of the first element matching the most specific selector that matches at all. */
function publishedIn(find: (selector: string) => ReturnType<CheerioAPI>): string | undefined {
  for (const sel of PUBLISHED_TIME) {
    const el = find(sel).first();
    if (el.length > 0) return el.attr("datetime");
  }
  return undefined;
}

/** The listing's items and the next listing page. Exported for unit tests on the real captures. */
export function parseBlogListing(html: string, pageUrl: string, now: Date): { items: ListItem[]; nextUrl: string | null } {
  const $ = cheerio.load(html);
  const origin = new URL(pageUrl).origin;
  const onOrigin = (href: string): string => {
    const u = new URL(href, pageUrl);
    return new URL(u.pathname + u.search, origin).href;
  };
  const author = pageAuthor($);
  const source = { url: pageUrl, body: html };
  const items: ListItem[] = [];
  const seen = new Set<string>();
  const add = (href: string | undefined, title: string, datetime: string | undefined, excerpt: string, pinned = false): void => {
    if (!href || !datetime) return;
    const publishedAt = tryParsePlatformDate(datetime.trim(), now, "blog");
    if (!publishedAt) return;
    const url = onOrigin(href);
    const id = postId(url);
    if (seen.has(id)) return;
    seen.add(id);
    items.push({
      platformId: id,
      kind: "post",
      url,
      title: title.replace(/\s+/g, " ").trim(),
      author,
      publishedAt,
      html: excerpt.trim(),
      images: imagesIn(excerpt, url),
      pinned,
      incomplete: true,
      source,
    });
  };
  // Hexo/NexT marks sticky posts with a thumbtack flag, WordPress with article.sticky.
  const sticky = (box: ReturnType<CheerioAPI>): boolean => box.find(".post-sticky-flag").length > 0 || box.hasClass("sticky");

  // Hexo/NexT
  $("a.post-title-link").each((_i, el) => {
    const a = $(el);
    const box = a.closest("article, .post-block, .post");
    add(a.attr("href"), a.text(), publishedIn((sel) => box.find(sel)), box.find(".post-body").first().html() ?? "", sticky(box));
  });
  // WordPress themes that keep the stock markup
  if (items.length === 0) {
    $("article").each((_i, el) => {
      const box = $(el);
      const a = box.find(".entry-title a, h2 a, h1 a").first();
      add(a.attr("href"), a.text(), publishedIn((sel) => box.find(sel)), box.find(".entry-summary, .entry-content").first().html() ?? "", sticky(box));
    });
  }
  // Anything else: a <time datetime> and the nearest link beside it.
  if (items.length === 0) {
    $("time[datetime]").each((_i, el) => {
      const time = $(el);
      const box = time.closest("li, tr, .post, article, div");
      const a = box
        .find("a[href]")
        .filter((_j, x) => $(x).text().trim().length > 0 && $(x).find("time").length === 0)
        .first();
      add(a.attr("href"), a.attr("title") ?? a.text(), time.attr("datetime"), "");
    });
  }

  return { items, nextUrl: nextListingUrl($, pageUrl) };
}

function nextListingUrl($: CheerioAPI, pageUrl: string): string | null {
  const explicit = $('a[rel~="next"], a.extend.next, a.next.page-numbers, .nav-previous a, .pagination a.next').first().attr("href");
  if (explicit) return new URL(explicit, pageUrl).href;
  const current = Number(/\/page\/(\d+)\/?$/.exec(new URL(pageUrl).pathname)?.[1] ?? "1");
  const want = new RegExp(`/page/${current + 1}/?$`);
  const guess = $("a[href]")
    .map((_i, a) => $(a).attr("href") ?? "")
    .get()
    .find((href) => {
      try {
        return want.test(new URL(href, pageUrl).pathname);
      } catch {
        return false;
      }
    });
  return guess ? new URL(guess, pageUrl).href : null;
}

const ARTICLE_BODY = [".post-body", ".entry-content", "[itemprop='articleBody']", "article .content", "article", "main"];

/** The full article from its own page. Exported for unit tests. */
export function parseBlogArticle(html: string, pageUrl: string, now: Date, fallback: ListItem): CrawlItem {
  const $ = cheerio.load(html);
  // In order of specificity: a comma selector would return the first match in document order,
  // which is the outer <main>/<article> around the body.
  const body = ARTICLE_BODY.map((sel) => $(sel).first()).find((el) => el.length > 0);
  if (!body) throw new NonRetryableError("blog article: no post body found", pageUrl);
  const content = body.html() ?? "";
  const datetime = publishedIn((sel) => $(sel));
  const title = $("h1.post-title, h1.entry-title, article h1, h1").first().text().replace(/\s+/g, " ").trim();
  return {
    platformId: fallback.platformId,
    kind: "post",
    url: fallback.url,
    title: title || fallback.title,
    author: fallback.author || pageAuthor($),
    publishedAt: (datetime ? tryParsePlatformDate(datetime, now, "blog") : null) ?? fallback.publishedAt,
    html: content.trim(),
    images: imagesIn(content, pageUrl),
    source: { url: pageUrl, body: html },
  };
}

/** Feed candidates for an entry page, in the order to try them (deduplicated). */
function feedCandidates(ctx: AdapterContext, entry: FetchResult | null): string[] {
  const entryUrl = ctx.account.entryUrl;
  const out: string[] = [];
  if (entry) {
    const $ = cheerio.load(entry.body);
    $('link[rel~="alternate"][href]').each((_i, el) => {
      if (FEED_TYPES.test($(el).attr("type") ?? "")) out.push(rebase(ctx, $(el).attr("href") ?? "", entry.url));
    });
  }
  const dir = new URL(".", entryUrl).href;
  const root = new URL("/", entryUrl).href;
  for (const base of [dir, root]) for (const name of ["feed/", "atom.xml", "rss.xml"]) out.push(new URL(name, base).href);
  return [...new Set(out)];
}

/** Blogs: feed first, listing pages as the fallback and beyond the feed's window. */
export function createBlogAdapter(): Adapter {
  const feedCache = new Map<string, { feedUrl: string | null; checkedAt: number }>();

  /** GET a feed candidate; null when it is missing or not a feed (soft 404 pages are HTML). */
  async function tryFeed(ctx: AdapterContext, url: string): Promise<FetchResult | null> {
    try {
      const res = await ctx.fetch.get(url, { kind: "list" });
      return looksLikeFeed(res.body) ? res : null;
    } catch (err) {
      if (err instanceof NonRetryableError) return null;
      throw err;
    }
  }

  return {
    platform: "blog",

    recognise(url: URL): boolean {
      return url.protocol === "http:" || url.protocol === "https:";
    },

    async *list(ctx: AdapterContext): AsyncGenerator<ListPage> {
      const entryUrl = ctx.account.entryUrl;
      let entry: FetchResult | null = null;
      let feed: FetchResult | null = null;

      const cached = feedCache.get(entryUrl);
      const fresh = cached && ctx.now.getTime() - cached.checkedAt < FEED_CACHE_MS;
      if (fresh && cached.feedUrl) {
        feed = await tryFeed(ctx, cached.feedUrl);
        if (!feed) feedCache.delete(entryUrl);
      }
      if (!feed && !(fresh && cached.feedUrl === null)) {
        entry = await ctx.fetch.get(entryUrl, { kind: "list" });
        if (looksLikeFeed(entry.body)) {
          feed = entry;
        } else {
          for (const candidate of feedCandidates(ctx, entry)) {
            feed = await tryFeed(ctx, candidate);
            if (feed) break;
          }
        }
        feedCache.set(entryUrl, { feedUrl: feed ? feed.url : null, checkedAt: ctx.now.getTime() });
      }

      if (feed) {
        const items = parseFeed(feed.body, rebase(ctx, feed.url, feed.url), ctx.now);
        if (items.length > 0) yield { url: feed.url, items };
        if (feed === entry) return; // the entry URL is the feed: there is no listing to continue on
      }

      // Listing pages: the whole crawl without a feed, or what lies beyond the feed's window.
      entry ??= await ctx.fetch.get(entryUrl, { kind: "list" });
      let page: FetchResult = entry;
      const visited = new Set<string>();
      for (;;) {
        const pageUrl = rebase(ctx, page.url, page.url);
        visited.add(pageUrl);
        const { items, nextUrl } = parseBlogListing(page.body, pageUrl, ctx.now);
        if (items.length === 0) {
          if (page === entry && !feed) throw new NonRetryableError("no feed and no recognisable post listing", entryUrl);
          return;
        }
        yield { url: page.url, items };
        if (!nextUrl) return;
        const next = rebase(ctx, nextUrl, pageUrl);
        if (visited.has(next)) return;
        try {
          page = await ctx.fetch.get(next, { kind: "list" });
        } catch (err) {
          // A guessed /page/N/ past the end answers 404: that is the end of the listing.
          if (err instanceof NonRetryableError && err.status === 404) return;
          throw err;
        }
      }
    },

    async complete(ctx: AdapterContext, item: ListItem): Promise<CrawlItem> {
      const url = rebase(ctx, item.url, item.url);
      const res = await ctx.fetch.get(url, { kind: "item" });
      return parseBlogArticle(res.body, url, ctx.now, item);
    },
  };
}

/** The registry's blog adapter (one feed cache for the process). */
export const blogAdapter: Adapter = createBlogAdapter();
