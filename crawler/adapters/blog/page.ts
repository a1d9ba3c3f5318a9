/**
 * Blog HTML pages: listings (Hexo/NexT, cnblogs, WordPress, any `<time datetime>` beside a link,
 * else any list of repeated blocks with a title link and a date, such as CSDN's) and
 * article pages. Titles and authors are read as the page shows them, never the site's name:
 * many themes put the site name in an `<h1>` of the header (Hexo/NexT `h1.site-title`,
 * WordPress `h1.site-title` on every page of some themes), before the article's own heading.
 */
import * as cheerio from "cheerio";
import type { Cheerio, CheerioAPI } from "cheerio";
import type { AnyNode, Element } from "domhandler";
import { isTag, isText } from "domutils";
import { GoneError } from "../../errors";
import type { CrawlItem, ListItem } from "../../types";
import { imagesIn } from "../shared";
import { collapse, countIn, postId, readDate, wpIdIn, type Warn, type WpPostInfo } from "./common";

/** Options of the page parsers. */
export interface PageOptions {
  /** Records unreadable fields on the run. */
  warn?: Warn;
  /** Site names already known (the home page's header), never taken for a post title. */
  siteNames?: Iterable<string>;
}

/** Names the page gives the site: og:site_name, the header's site title, the `<title>` suffix. */
export function siteNamesOf($: CheerioAPI, known: Iterable<string> = []): Set<string> {
  const names = new Set<string>([...known].map((n) => collapse(n).toLowerCase()).filter(Boolean));
  const add = (s: string | undefined): void => {
    const n = collapse(s).toLowerCase();
    if (n) names.add(n);
  };
  add($('meta[property="og:site_name"]').attr("content"));
  add($('meta[name="application-name"]').attr("content"));
  $(".site-title, .site-name, #site-title, .site-branding h1, .brand .site-title").each((_i, el) => add($(el).text()));
  // A heading in the page header (not the article's): the site's banner.
  $("header h1, #header h1, .header h1").each((_i, el) => {
    if ($(el).closest("article, .post, .post-block, .entry, main").length === 0) add($(el).text());
  });
  const parts = collapse($("title").first().text()).split(/\s+[|\-–—_]\s+/);
  if (parts.length > 1) add(parts.at(-1));
  return names;
}

/** The blog's author as the page states it, else the site's name. */
function pageAuthor($: CheerioAPI): string {
  return (
    collapse($('meta[name="author"]').attr("content")) ||
    collapse($('[itemprop="author"] meta[itemprop="name"]').first().attr("content")) ||
    collapse($(".entry-meta .author a, .byline .author, .post-author a").first().text()) ||
    collapse($('meta[property="og:site_name"]').attr("content")) ||
    collapse(
      $("title")
        .first()
        .text()
        .split(/\s+[|\-–—_]\s+/)
        .pop(),
    ) ||
    ""
  );
}

/** Publication time elements, most specific first (an "updated" time may come before it). */
const PUBLISHED_TIME = ['time[itemprop~="datePublished"]', "time.entry-date.published", "time.entry-date", "time.published", "time[datetime]"];

/** The publication `<time>`: its `datetime`, then its text ("2024年5月9日 18:21" on custom themes). */
function publishedIn(find: (selector: string) => Cheerio<AnyNode>): string[] {
  for (const sel of PUBLISHED_TIME) {
    const el = find(sel).first();
    if (el.length > 0) return [el.attr("datetime"), el.attr("title"), el.text()].filter((x): x is string => Boolean(x));
  }
  return [];
}

/** A listing page's items and what it tells about WordPress posts. */
export interface ParsedListing {
  items: ListItem[];
  nextUrl: string | null;
  /** WordPress facts by platformId (post id, comment count known or not). */
  wp: Map<string, WpPostInfo>;
  /** The site's names on this page (its header), for reading article titles later. */
  siteNames: Set<string>;
}

/**
 * The listing's items and the next listing page. Exported for unit tests on the real captures.
 * Items carry only an excerpt (`incomplete`, `textIncomplete`): `complete()` reads the article.
 * An item whose date cannot be read keeps the date of the item above it (listings are newest
 * first, so that is an upper bound: the crawl never stops early because of it), with a warning.
 */
export function parseBlogListing(html: string, pageUrl: string, now: Date, options: PageOptions = {}): ParsedListing {
  const $ = cheerio.load(html);
  const origin = new URL(pageUrl).origin;
  const onOrigin = (href: string): string => {
    const u = new URL(href, pageUrl);
    return new URL(u.pathname + u.search, origin).href;
  };
  const author = pageAuthor($);
  const siteNames = siteNamesOf($, options.siteNames);
  const restRoot = $('link[rel="https://api.w.org/"]').attr("href");
  const wordpress = restRoot !== undefined || /wordpress/i.test($('meta[name="generator"]').attr("content") ?? "");
  const source = { url: pageUrl, body: html };
  const items: ListItem[] = [];
  const wp = new Map<string, WpPostInfo>();
  const seen = new Set<string>();
  const add = (box: Cheerio<AnyNode> | null, href: string | undefined, title: string, dates: string[], excerpt: string, pinned = false): void => {
    const shownTitle = collapse(title);
    // The generic reader takes any link beside a <time>: the site's home link is not a post.
    if (!box && (!shownTitle || siteNames.has(shownTitle.toLowerCase()))) return;
    if (!href) return;
    let url: string;
    try {
      url = onOrigin(href);
    } catch {
      return;
    }
    const id = postId(url);
    if (seen.has(id)) return;
    seen.add(id);
    const above = items.at(-1)?.publishedAt ?? now;
    const publishedAt = readDate(
      dates,
      now,
      { at: above, reason: items.length ? "the date of the post listed above it" : "the crawl's time" },
      { url: pageUrl, warn: options.warn },
    );
    let counts: Partial<ListItem> = {};
    if (box && wordpress) {
      const link = box.find('.comments-link a, a[href$="#comments"], a[href$="#respond"]').first();
      wp.set(id, { wpId: wpIdIn(box.attr("id")) ?? wpIdIn(box.attr("class")), wordpress: true, ...(restRoot ? { restRoot: onOrigin(restRoot) } : {}) });
      counts = link.length > 0 ? { replyCount: countIn(link.text()), hasReplies: countIn(link.text()) > 0 } : { hasReplies: true };
    }
    items.push({
      platformId: id,
      kind: "post",
      url,
      title: shownTitle,
      author,
      publishedAt,
      html: excerpt.trim(),
      images: imagesIn(excerpt, url),
      pinned,
      incomplete: true,
      textIncomplete: true,
      ...counts,
      source,
    });
  };
  // Hexo/NexT marks sticky posts with a thumbtack flag, WordPress with article.sticky.
  const sticky = (box: Cheerio<AnyNode>): boolean => box.find(".post-sticky-flag").length > 0 || box.hasClass("sticky");

  // Hexo/NexT
  $("a.post-title-link").each((_i, el) => {
    const a = $(el);
    const box = a.closest("article, .post-block, .post");
    add(
      box,
      a.attr("href"),
      a.text(),
      publishedIn((sel) => box.find(sel)),
      box.find(".post-body").first().html() ?? "",
      sticky(box),
    );
  });
  // cnblogs (博客园): `article.post-item`, title `a.post-item-title`, the date in the footer's
  // `span.post-meta-item`, the author `a.post-item-author`.
  if (items.length === 0) {
    $("article.post-item").each((_i, el) => {
      const box = $(el);
      const a = box.find("a.post-item-title").first();
      const meta = box
        .find(".post-item-foot .post-meta-item, .post-meta-item")
        .map((_j, m) => $(m).text())
        .get();
      const before = items.length;
      add(box, a.attr("href"), a.text(), meta, box.find(".post-item-summary").first().html() ?? "", sticky(box));
      const who = collapse(box.find("a.post-item-author").first().text());
      if (who && items.length > before) items.at(-1)!.author = who;
    });
  }
  // WordPress themes that keep the stock markup
  if (items.length === 0) {
    $("article").each((_i, el) => {
      const box = $(el);
      const a = box.find(".entry-title a, .post-title a, h2 a, h1 a").first();
      add(
        box,
        a.attr("href"),
        a.text(),
        publishedIn((sel) => box.find(sel)),
        box.find(".entry-summary, .entry-content").first().html() ?? "",
        sticky(box),
      );
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
      add(null, a.attr("href"), a.attr("title") ?? a.text(), [time.attr("datetime") ?? "", time.text()], "");
    });
  }

  // No engine we know and no <time>: repeated blocks with a title link and a date (CSDN's
  // article list, school news lists, custom themes).
  if (items.length === 0) {
    for (const block of repeatedDatedBlocks($)) add(block.box, block.href, block.title, [block.date], block.excerpt);
  }

  return { items, nextUrl: nextListingUrl($, pageUrl), wp, siteNames };
}

/** A date as listings print it: 2024-05-09, 2024/5/9, 2024.05.09, 2024年5月9日 (a time may follow). */
const DATE_TEXT = /(?:19|20)\d{2}\s*(?:[-/.]|年)\s*\d{1,2}\s*(?:[-/.]|月)\s*\d{1,2}日?(?:\s*\d{1,2}:\d{2}(?::\d{2})?)?/;

/** Link texts that are never a post's title. */
const NOT_A_TITLE = /^(?:阅读全文|阅读更多|查看全文|更多|继续阅读|read more|more|continue reading|»|›|\d+)$/i;

interface DatedBlock {
  box: Cheerio<AnyNode>;
  href: string;
  title: string;
  date: string;
  excerpt: string;
}

/** Subtrees that never hold a listing's items (or whose dates are not items' dates). */
const NOT_IN_LISTING = new Set(["script", "style", "noscript", "a", "time", "nav", "header", "footer", "aside", "select", "textarea"]);

/**
 * The generic article-list reader: elements that print a date (in their own text), each grown to
 * the largest ancestor that holds no other date — one list item — when that holds a link with a
 * title's text; the blocks are kept when at least two share one shape (tag and classes): a list
 * repeats its item, a sidebar's lone date does not. The shape with the most blocks wins; a block's
 * title is its heading's link, else its first link that is not a date, a number or "阅读全文".
 * One walk over the tree and one walk up per date: a 500 KB page costs tens of milliseconds.
 */
function repeatedDatedBlocks($: CheerioAPI): DatedBlock[] {
  const root = $("body").get(0);
  if (!root) return [];
  const dated: { el: Element; date: string }[] = [];
  const visit = (parent: Element): void => {
    for (const child of parent.children) {
      if (!isTag(child) || NOT_IN_LISTING.has(child.name) || /sidebar/i.test(`${child.attribs.id ?? ""} ${child.attribs.class ?? ""}`)) continue;
      const own = child.children.map((c) => (isText(c) ? c.data : "")).join("");
      const date = own ? DATE_TEXT.exec(own)?.[0] : undefined;
      if (date) dated.push({ el: child, date });
      visit(child);
    }
  };
  visit(root);
  // How many dates each element holds.
  const dates = new Map<Element, number>();
  for (const { el } of dated) for (let p = el.parent; p && p !== root && isTag(p); p = p.parent) dates.set(p, (dates.get(p) ?? 0) + 1);
  const byShape = new Map<string, DatedBlock[]>();
  const seen = new Set<Element>();
  for (const { el, date } of dated) {
    let item: Element | null = null;
    for (let p = el.parent; p && p !== root && isTag(p) && dates.get(p) === 1; p = p.parent) item = p;
    if (!item || seen.has(item)) continue;
    seen.add(item);
    const box = $(item);
    const links = box.find("a[href]").filter((_j, a) => {
      const text = collapse($(a).text());
      return text.length >= 2 && !NOT_A_TITLE.test(text) && !DATE_TEXT.test(text);
    });
    if (links.length === 0) continue;
    const heading = box.find("h1 a[href], h2 a[href], h3 a[href], h4 a[href], h5 a[href]").first();
    const a = heading.length > 0 ? heading : links.first();
    const title = a.clone();
    // CSDN puts a "原创"/"转载" badge inside the title link.
    title.find(".article-type, span.tag").remove();
    const shape = `${item.name}.${(item.attribs.class ?? "").trim().split(/\s+/).sort().join(".")}`;
    const paragraphs = box.find("p").filter((_j, p) => $(p).find("a[href]").length === 0 || $(p).text().trim() === $(p).find("a").text().trim());
    const list = byShape.get(shape) ?? [];
    list.push({ box, href: a.attr("href") ?? "", title: title.text(), date, excerpt: paragraphs.first().html() ?? "" });
    byShape.set(shape, list);
  }
  const best = [...byShape.values()].filter((l) => l.length >= 2).sort((x, y) => y.length - x.length)[0];
  return best ?? [];
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

const ARTICLE_BODY = [
  ".post-body",
  "#cnblogs_post_body",
  "#content_views",
  ".entry-content",
  "[itemprop='articleBody']",
  "article .content",
  "article",
  "main",
];

/**
 * Parts of an article body that belong to the theme or its plugins, not to the post: sharing
 * buttons, related posts, reward and copyright boxes. They differ between the page and the feed
 * (and change on their own), so they are never part of the stored text.
 */
const THEME_WIDGETS =
  "script, style, noscript, .sharedaddy, .jp-relatedposts, .wp-block-buttons.share, .post-copyright, .reward-container, .post-button, .post-tags, .post-nav";

/** Article title candidates, most specific first: the post's own heading, then the page's metadata. */
const TITLE_SELECTORS = [".post-title", ".entry-title", "[itemprop~='headline']", "h1", "h2"];

/**
 * The article's own title: its heading inside the article, og:title, the feed's or list's title,
 * the `<title>` without the site suffix; never one of the site's names.
 */
export function articleTitle($: CheerioAPI, fallbackTitle: string, siteNames: Set<string>): string {
  const ok = (t: string | undefined): string | null => {
    const c = collapse(t);
    return c && !siteNames.has(c.toLowerCase()) ? c : null;
  };
  const article = $("article").first();
  const scopes = article.length > 0 ? [article, $("main").first()] : [$("main").first()];
  for (const scope of scopes) {
    if (scope.length === 0) continue;
    for (const sel of TITLE_SELECTORS) {
      const hit = ok(scope.find(sel).first().text());
      if (hit) return hit;
    }
  }
  for (const sel of [".post-title", ".entry-title"]) {
    const hit = ok($(sel).first().text());
    if (hit) return hit;
  }
  const meta = ok($('meta[property="og:title"]').attr("content")) ?? ok($('meta[name="twitter:title"]').attr("content"));
  if (meta) return meta;
  const given = ok(fallbackTitle);
  if (given) return given;
  const parts = collapse($("title").first().text()).split(/\s+[|\-–—_]\s+/);
  return ok(parts.length > 1 ? parts.slice(0, -1).join(" - ") : parts[0]) ?? collapse(fallbackTitle);
}

/** What an article page tells about its WordPress post (id, REST root, comment feed). */
export function articleWpInfo(html: string, pageUrl: string): WpPostInfo | null {
  return wpInfoOf(cheerio.load(html), pageUrl);
}

function wpInfoOf($: CheerioAPI, pageUrl: string): WpPostInfo | null {
  const restRoot = $('link[rel="https://api.w.org/"]').attr("href");
  const id =
    wpIdIn($("link[rel='shortlink']").attr("href")) ??
    wpIdIn($("body").attr("class")) ??
    wpIdIn($("article").first().attr("id")) ??
    $("input[name='comment_post_ID']").attr("value");
  if (!restRoot && !id) return null;
  return { wpId: id, wordpress: true, ...(restRoot ? { restRoot: new URL(restRoot, pageUrl).href } : {}) };
}

/**
 * The full article from its own page. Exported for unit tests.
 * An unreadable date keeps the feed's or list's date; a page without a recognisable body keeps
 * the feed's or list's content (marked incomplete when that is an excerpt); both with a warning.
 * @throws GoneError when the page is a "not found" page rather than an article
 */
export function parseBlogArticle(html: string, pageUrl: string, now: Date, fallback: ListItem, options: PageOptions = {}): CrawlItem {
  return articleOf(cheerio.load(html), html, pageUrl, now, fallback, options);
}

/**
 * {@link articleWpInfo} and {@link parseBlogArticle} of one article page, parsed once (the adapter
 * wants both; parsing the page twice was a third of the blog adapter's CPU).
 * @throws GoneError as parseBlogArticle
 */
export function readBlogArticle(
  html: string,
  pageUrl: string,
  now: Date,
  fallback: ListItem,
  options: PageOptions = {},
): { info: WpPostInfo | null; item: CrawlItem } {
  const $ = cheerio.load(html);
  // First: the article's parse removes theme widgets from the tree.
  const info = wpInfoOf($, pageUrl);
  return { info, item: articleOf($, html, pageUrl, now, fallback, options) };
}

function articleOf($: CheerioAPI, html: string, pageUrl: string, now: Date, fallback: ListItem, options: PageOptions): CrawlItem {
  const siteNames = siteNamesOf($, options.siteNames);
  // In order of specificity: a comma selector would return the first match in document order,
  // which is the outer <main>/<article> around the body.
  const body = ARTICLE_BODY.map((sel) => $(sel).first()).find((el) => el.length > 0);
  let content: string;
  let partial: boolean;
  if (body) {
    body.find(THEME_WIDGETS).remove();
    content = (body.html() ?? "").trim();
    partial = false;
  } else {
    if ($("body").hasClass("error404")) throw new GoneError("the article page says it is not found", pageUrl, 404);
    options.warn?.({
      url: pageUrl,
      field: "body",
      raw: collapse($("body").text()).slice(0, 200),
      reason: "no post body found: the feed's or list's text is kept",
    });
    content = fallback.html;
    partial = fallback.textIncomplete !== false;
  }
  const dates = publishedIn((sel) => $(sel));
  const publishedAt =
    dates.length > 0
      ? readDate(dates, now, { at: fallback.publishedAt, reason: "the feed's or list's date" }, { url: pageUrl, warn: options.warn })
      : fallback.publishedAt;
  return {
    platformId: fallback.platformId,
    kind: "post",
    url: fallback.url,
    title: articleTitle($, fallback.title, siteNames),
    author: collapse(fallback.author) || pageAuthor($),
    publishedAt,
    html: content,
    images: imagesIn(content, pageUrl),
    ...(partial ? { textIncomplete: true } : {}),
    source: { url: pageUrl, body: html },
  };
}
