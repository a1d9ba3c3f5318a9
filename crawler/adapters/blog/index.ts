/**
 * Blogs (Hexo/NexT, WordPress and look-alikes): the fallback for any other http(s) URL.
 *
 * Discovery: the entry page's `<link rel="alternate" type="application/rss+xml|atom+xml">`, then
 * `feed/`, `atom.xml`, `rss.xml` next to the entry URL, then the same at the site root; the first
 * that parses as RSS/Atom wins. The answer is cached per adapter instance and entry URL for
 * {@link FEED_CACHE_MS} (so a regular crawl costs one request, not five), and dropped as soon as
 * the cached feed fails. Without a feed, listing pages are read (Hexo/NexT, WordPress, or any
 * `<time datetime>` beside a link), following `rel=next`/"next" links or `/page/N/`.
 *
 * One canonical source per post, so unchanged pages never look edited: a post is stored from its
 * article page (`complete()`), whether it was listed by the feed or by a listing page. The feed
 * and listing entries are only what the worker compares (Post.listSha1) to decide whether the
 * article needs reading again. A feed and its article page never give the same text (themes add
 * sharing boxes, SEO plugins add "appeared first on" lines to feeds, Hexo's page header carries
 * the site name): storing whichever came last made every crawl an edit. The feed's text is
 * stored only when there is no page to read: the account's entry URL is the feed itself, or the
 * article page answers 404 while the feed still has the full text.
 * Within a run, a listing entry of a post the feed already listed is replaced by the feed's entry,
 * so the post has one list fingerprint, not two that alternate.
 *
 * WordPress comments are read as replies (see ./comments.ts): list items say `hasReplies`
 * (and `replyCount` where the feed or listing shows it), and `replies()` reads them.
 *
 * Items are identified by the path of their URL (guid only when there is no link), so the same
 * post has the same platformId whichever source it came from.
 */
import { BlockedError, GoneError, NonRetryableError, RetryableError } from "../../errors";
import { offThread } from "../../parse/off-thread";
import type { Adapter, AdapterContext, CaptureKind, CrawlItem, FetchResult, ListItem, ListPage, ThreadPage } from "../../types";
import { captureUrl } from "../captures";
import { blog } from "../../../lib/platforms/blog";
import { originOf, rebase } from "../shared";
import { postId, type WpPostInfo } from "./common";
import { wordpressComments, type CommentMethod } from "./comments";
import { advertisedFeedsIn, looksLikeFeed, readFeed } from "./feed";
import { parseBlogListing, readBlogArticle } from "./page";

export { looksLikeFeed, parseFeed } from "./feed";
export { parseBlogArticle, parseBlogListing } from "./page";

/** How long a discovered feed URL (or "no feed") is trusted before discovering again. */
export const FEED_CACHE_MS = 24 * 3_600_000;

/** Posts whose WordPress facts are remembered per adapter (the worker asks for replies in the same run). */
const MAX_REMEMBERED_POSTS = 20_000;

/**
 * Feed candidates for an entry page, in the order to try them (deduplicated).
 *
 * An advertised feed on the blog's own host (the entry's, or the one the page names as its own
 * with `rel=canonical`/`og:url`: a local copy of a real page still names the real host) is moved
 * onto the account's origin like every link. A feed on any other host (`feed.cnblogs.com`,
 * FeedBurner, a CDN) is fetched where it is: the fetcher's address policy decides, as for every
 * URL that came from crawled content (public addresses only, unless the host is registered).
 * CSDN does not advertise its feed: it is `/<user>/rss/list` (see {@link csdnFeed}).
 */
async function feedCandidates(ctx: AdapterContext, entry: FetchResult | null): Promise<string[]> {
  const entryUrl = ctx.account.entryUrl;
  const out: string[] = [];
  if (entry) {
    const { feeds, selfUrls } = await offThread("blogFeedLinks", advertisedFeedsIn, entry.body);
    const own = new Set([new URL(entryUrl).host, new URL(entry.url).host]);
    for (const u of selfUrls) {
      try {
        own.add(new URL(u, entry.url).host);
      } catch {
        // an unparseable canonical link names no host
      }
    }
    for (const href of feeds) {
      let u: URL;
      try {
        u = new URL(href, entry.url);
      } catch {
        continue;
      }
      if (u.protocol !== "http:" && u.protocol !== "https:") continue;
      out.push(own.has(u.host) ? rebase(ctx, href, entry.url) : u.href);
    }
    const csdn = csdnFeed(entryUrl, entry.body);
    if (csdn) out.push(csdn);
  }
  const dir = new URL(".", entryUrl).href;
  const root = new URL("/", entryUrl).href;
  for (const base of [dir, root]) for (const name of ["feed/", "atom.xml", "rss.xml"]) out.push(new URL(name, base).href);
  return [...new Set(out)];
}

/**
 * A CSDN blog's feed, `/<user>/rss/list` on the blog's origin, when the entry is a CSDN blog: on
 * blog.csdn.net, or a page that loads CSDN's own assets (csdnimg.cn: a copy served elsewhere).
 */
export function csdnFeed(entryUrl: string, html: string): string | null {
  const u = new URL(entryUrl);
  if (!/(^|\.)csdn\.net$/.test(u.hostname) && !/\/\/(?:[\w-]+\.)*csdnimg\.cn\//.test(html)) return null;
  const user = /^\/([\w.-]+)(?:\/|$)/.exec(u.pathname)?.[1];
  return user ? new URL(`/${user}/rss/list`, u.origin).href : null;
}

/** Where a saved blog page stands when neither `--url` nor the page says: links resolve against it. */
const BLOG_FALLBACK_URL = "https://blog.invalid/";

/** What `campuswatch parse` reads for blogs: feeds, listing pages and article pages. */
const blogCaptureKinds: readonly CaptureKind[] = [
  {
    kind: "feed",
    summary: "an RSS 2.0 / RSS 1.0 / Atom feed",
    looksLike: looksLikeFeed,
    parse(body, options) {
      if (!looksLikeFeed(body)) throw new NonRetryableError("not an RSS or Atom feed", options.url);
      return readFeed(body, captureUrl(options, body, BLOG_FALLBACK_URL), options.now, options.warn).items;
    },
  },
  {
    kind: "listing",
    summary: "a blog's home or listing page (Hexo, WordPress and similar themes)",
    parse(body, options) {
      const url = captureUrl(options, body, BLOG_FALLBACK_URL);
      const { items } = parseBlogListing(body, url, options.now, { warn: options.warn });
      if (items.length === 0) throw new NonRetryableError("no recognisable post listing on this page", url);
      return items;
    },
  },
  {
    kind: "article",
    summary: "one article page (--url: the article's address, its identity)",
    parse(body, options) {
      const url = captureUrl(options, body, BLOG_FALLBACK_URL);
      // What the feed or listing would have said of it: nothing but its address and the clock.
      const fallback: ListItem = { platformId: postId(url), kind: "post", url, title: "", author: "", publishedAt: options.now, html: "" };
      return [readBlogArticle(body, url, options.now, fallback, { warn: options.warn }).item];
    },
  },
];

/** Blogs: feed first, listing pages as the fallback and beyond the feed's window. */
export function createBlogAdapter(): Adapter {
  const feedCache = new Map<string, { feedUrl: string | null; checkedAt: number }>();
  /** WordPress facts by absolute post URL (on the account's origin). */
  const wpPosts = new Map<string, WpPostInfo>();
  /** Site names seen on each entry's listing header, by entry URL. */
  const siteNames = new Map<string, Set<string>>();
  /** Per entry URL: whether the REST API still looks open. */
  const commentMethods = new Map<string, CommentMethod>();
  /**
   * Posts whose comments this run already read (by run context): a post listed by the feed and
   * again on a listing page is offered twice by the worker, and its comments need reading once.
   */
  const commentsRead = new WeakMap<AdapterContext, Set<string>>();

  const remember = (url: string, info: WpPostInfo): void => {
    const merged = { ...wpPosts.get(url), ...Object.fromEntries(Object.entries(info).filter(([, v]) => v !== undefined)) };
    wpPosts.delete(url);
    wpPosts.set(url, merged);
    if (wpPosts.size > MAX_REMEMBERED_POSTS) wpPosts.delete(wpPosts.keys().next().value as string);
  };

  /**
   * GET a feed candidate; null when it is missing or not a feed (soft 404 pages are HTML). A feed
   * the address policy refuses (another host on an internal address, not registered) is a
   * warning on the run, and the blog is read without it.
   */
  async function tryFeed(ctx: AdapterContext, url: string): Promise<FetchResult | null> {
    try {
      const res = await ctx.fetch.get(url, { kind: "list", conditional: true });
      return looksLikeFeed(res.body) ? res : null;
    } catch (err) {
      if (err instanceof NonRetryableError) {
        // AddressRefusedError (crawler/fetch/address-policy.ts), told by name: adapters do not import the fetcher.
        if (err.name === "AddressRefused")
          ctx.warn({ url, field: "feed", raw: err.message, reason: "the advertised feed was refused: the blog is read without it" });
        return null;
      }
      throw err;
    }
  }

  return {
    platform: blog.id,
    // The feed and listing pages list every post by publication time: one missing from the span read is probed.
    listOrder: "published",
    repliesIncludeHead: false,
    recognise: blog.recognise,
    captureKinds: blogCaptureKinds,

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
        entry = await ctx.fetch.get(entryUrl, { kind: "list", conditional: true });
        if (looksLikeFeed(entry.body)) {
          feed = entry;
        } else {
          for (const candidate of await feedCandidates(ctx, entry)) {
            feed = await tryFeed(ctx, candidate);
            if (feed) break;
          }
        }
        feedCache.set(entryUrl, { feedUrl: feed ? feed.url : null, checkedAt: ctx.now.getTime() });
      }

      // The feed's entries of this run, by platformId: a listing entry of the same post is replaced by it.
      const fromFeed = new Map<string, ListItem>();
      if (feed) {
        // The feed's items are the blog's posts, wherever the feed is served: links go to the blog.
        const read = await offThread("blogFeed", readFeed, feed.body, feed.url, ctx.now, ctx.warn, originOf(ctx));
        const onlyFeed = feed === entry; // the entry URL is the feed: there are no pages to prefer
        for (const item of read.items) {
          const info = read.wp.get(item.platformId);
          if (info) remember(item.url, info);
          // With pages to read, the article page is the post's one source (see the module comment).
          if (!onlyFeed) item.incomplete = true;
          fromFeed.set(item.platformId, item);
        }
        if (read.items.length > 0) yield { url: feed.url, items: read.items };
        if (onlyFeed) return;
      }

      // Listing pages: the whole crawl without a feed, or what lies beyond the feed's window.
      entry ??= await ctx.fetch.get(entryUrl, { kind: "list", conditional: true });
      let page: FetchResult = entry;
      const visited = new Set<string>();
      for (;;) {
        const pageUrl = rebase(ctx, page.url, page.url);
        visited.add(pageUrl);
        const parsed = await offThread("blogListing", parseBlogListing, page.body, pageUrl, ctx.now, { warn: ctx.warn, siteNames: siteNames.get(entryUrl) });
        if (page === entry) siteNames.set(entryUrl, parsed.siteNames);
        if (parsed.items.length === 0) {
          if (page === entry && !feed) throw new NonRetryableError("no feed and no recognisable post listing", entryUrl);
          return;
        }
        for (const item of parsed.items) {
          const info = parsed.wp.get(item.platformId);
          if (info) remember(item.url, info);
        }
        const items = parsed.items.map((item) => {
          const same = fromFeed.get(item.platformId);
          return same ? { ...same, pinned: item.pinned ?? false } : item;
        });
        yield { url: page.url, items };
        if (!parsed.nextUrl) return;
        const next = rebase(ctx, parsed.nextUrl, pageUrl);
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
      let res: FetchResult;
      try {
        res = await ctx.fetch.get(url, { kind: "item" });
      } catch (err) {
        if (err instanceof NonRetryableError && (err.status === 404 || err.status === 410)) {
          // The feed still carries the whole post: keep it, and say the page could not be read.
          if (item.textIncomplete === false && item.html) {
            ctx.warn({ url, field: "body", raw: `HTTP ${err.status}`, reason: "the article page is missing: the feed's text is kept" });
            const { incomplete: _i, pinned: _p, hasReplies: _h, lastActivityAt: _l, replyCount: _r, textIncomplete: _t, ...post } = item;
            return post;
          }
          throw new GoneError(`HTTP ${err.status}: the article is gone`, err.url ?? url, err.status);
        }
        // Unreadable for now (5xx, a timeout, a block): the post is kept with the feed's or list's
        // excerpt, marked incomplete and warned about, and the next crawl reads the article again
        // (the store never lets an excerpt replace a text it has whole). A refusal (a redirect
        // loop, an address the policy forbids, a page too large) stays an error on the run.
        if (!(err instanceof RetryableError || err instanceof BlockedError)) throw err;
        ctx.warn({
          url: (err as { url?: string }).url ?? url,
          field: "body",
          raw: `${err.name}: ${err.message}`,
          reason: "stored the listing's excerpt, marked incomplete: a later crawl reads the article",
        });
        const { incomplete: _i, pinned: _p, hasReplies: _h, lastActivityAt: _l, replyCount: _r, ...post } = item;
        return { ...post, textIncomplete: true };
      }
      const article = await offThread("blogArticle", readBlogArticle, res.body, url, ctx.now, item, {
        warn: ctx.warn,
        siteNames: siteNames.get(ctx.account.entryUrl),
      });
      if (article.info) remember(url, article.info);
      return article.item;
    },

    async *replies(ctx: AdapterContext, post: ListItem, since: Date | null): AsyncGenerator<ThreadPage> {
      // Only WordPress comments are read; Hexo themes load theirs from third parties (Disqus, Valine).
      if (!post.hasReplies) return;
      const url = rebase(ctx, post.url, post.url);
      const info = wpPosts.get(url);
      if (!info?.wordpress) return;
      const read = commentsRead.get(ctx) ?? new Set<string>();
      commentsRead.set(ctx, read);
      if (read.has(url)) return;
      read.add(url);
      const key = ctx.account.entryUrl;
      const method = commentMethods.get(key) ?? { rest: true };
      commentMethods.set(key, method);
      yield* wordpressComments(ctx, { ...post, url }, info, since, method);
    },
  };
}

/** The registry's blog adapter (one feed cache for the process). */
export const blogAdapter: Adapter = createBlogAdapter();
