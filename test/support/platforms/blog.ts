/**
 * Local blogs under `/blog/{slug}/`, in two themes (`LocalAccount.blogTheme`):
 * - "hexo" (default): Hexo/NexT listing and article pages (markup of the real capture
 *   hexo_next_blog_index.html), the site's name in an `h1.site-title` of the header;
 * - "wordpress": a stock WordPress theme (`article#post-N`, `.entry-title`, `time.entry-date`,
 *   `.entry-content` with a Jetpack sharing box inside it, "N 条评论" links, `h1.site-title` in the
 *   header on every page), modelled on wordpress_author_listing.html and WordPress's templates.
 * Blogs with `hasFeed` serve a feed, advertised by a `<link rel="alternate">` on every page:
 * WordPress-style RSS at `feed/` (shape of wordpress_feed_zh.xml, with `slash:comments` and
 * `wfw:commentRss`; the WordPress theme's feed also carries an SEO plugin's "最先出现在" line, as
 * Yoast adds) or, with `blogFeed: "atom"`, Hexo-style Atom at `atom.xml`.
 * Comments (replies added with `addReply`, threaded with `parentId`) are served the two ways
 * WordPress serves them: the REST API (`wp-json/wp/v2/comments?post=ID&per_page=&page=`,
 * newest first, `X-WP-Total`/`X-WP-TotalPages`) and each post's comment feed (`posts/ID/feed/`,
 * newest first, `paged=N`, "回复给…" before a threaded comment's text).
 */
import type { PageKind } from "../../../crawler/types";
import type { LocalAccount, LocalPost, LocalReply, PlatformModel } from "./model";
import { blogDateTime, blogDay, esc, isoShanghai, rfc822Utc } from "./format";
import { html, json, notFound, type PageSizes, type Rendered } from "./responses";

const excerptOf = (h: string): string => /<p>[\s\S]*?<\/p>/.exec(h)?.[0] ?? h;
const themeOf = (account: LocalAccount): "hexo" | "wordpress" => account.blogTheme ?? "hexo";
const feedPath = (account: LocalAccount): string => (account.blogFeed === "atom" ? "atom.xml" : "feed/");
const postUrl = (account: LocalAccount, post: LocalPost): string => `/blog/${account.slug}/posts/${post.id}/`;

/** `<head>` and the site header shared by both themes. */
function head(account: LocalAccount, title: string, extra: string): string {
  const type = account.blogFeed === "atom" ? "application/atom+xml" : "application/rss+xml";
  const feed = account.hasFeed ? `<link rel="alternate" href="/blog/${account.slug}/${feedPath(account)}" title="${esc(account.name)}" type="${type}">` : "";
  return `<!DOCTYPE html><html lang="zh-CN"><head><meta charset="UTF-8">
<title>${esc(title)}</title><meta name="author" content="${esc(account.name)}"><meta property="og:site_name" content="${esc(account.name)}">${extra}${feed}</head>`;
}

function hexoShell(account: LocalAccount, title: string, body: string, extraHead = ""): string {
  return `${head(account, title, `<meta name="generator" content="Hexo 6.0.0"><link rel="canonical" href="/blog/${account.slug}/">${extraHead}`)}
<body itemscope itemtype="http://schema.org/WebPage"><div class="container use-motion"><div class="headband"></div>
<header class="header" itemscope itemtype="http://schema.org/WPHeader"><div class="header-inner"><div class="site-brand-container"><div class="site-meta">
<a href="/blog/${account.slug}/" class="brand" rel="start"><span class="logo-line-before"><i></i></span><h1 class="site-title">${esc(account.name)}</h1><span class="logo-line-after"><i></i></span></a>
<p class="site-subtitle" itemprop="description">校园生活记录</p></div></div></div></header>
<main class="main"><div class="main-inner index posts-expand">
${body}
</div></main></div></body></html>`;
}

function hexoBlock(account: LocalAccount, post: LocalPost, full: boolean): string {
  const url = postUrl(account, post);
  return `<article itemscope itemtype="http://schema.org/Article" class="post-block" lang="zh-CN"> <link itemprop="mainEntityOfPage" href="${url}"> <span hidden itemprop="author" itemscope itemtype="http://schema.org/Person"> <meta itemprop="name" content="${esc(post.author)}"> </span> <header class="post-header"> <h${full ? 1 : 2} class="post-title" itemprop="name headline"> ${full ? esc(post.title) : `<a href="${url}" class="post-title-link" itemprop="url">${esc(post.title)}</a>`} </h${full ? 1 : 2}> <div class="post-meta">${post.pinned ? ' <span class="post-sticky-flag" title="置顶"><i class="fa fa-thumbtack"></i></span>' : ""} <span class="post-meta-item"> <span class="post-meta-item-text">发表于</span> <time title="创建时间：${blogDateTime(post.publishedAt)}" itemprop="dateCreated datePublished" datetime="${isoShanghai(post.publishedAt)}">${blogDay(post.publishedAt)}</time> </span> </div> </header> <div class="post-body" itemprop="articleBody"> ${full ? post.html : `${excerptOf(post.html)} <div class="post-button"> <a class="btn" href="${url}#more" rel="contents"> 阅读全文 &raquo; </a> </div>`}</div> <footer class="post-footer"> <div class="post-eof"></div> </footer> </article>`;
}

function wpShell(account: LocalAccount, title: string, bodyClass: string, body: string, extraHead = ""): string {
  const base = `/blog/${account.slug}/`;
  return `${head(account, title, `<meta name="generator" content="WordPress 6.4.2"><link rel="https://api.w.org/" href="${base}wp-json/">${extraHead}`)}
<body class="${bodyClass}"><div id="page" class="site"><a class="skip-link screen-reader-text" href="#content">跳至内容</a>
<header id="masthead" class="site-header"><div class="site-branding"><h1 class="site-title"><a href="${base}" rel="home">${esc(account.name)}</a></h1><p class="site-description">又一个WordPress站点</p></div></header>
<div id="content" class="site-content"><div id="primary" class="content-area"><main id="main" class="site-main">
${body}
</main></div></div><footer id="colophon" class="site-footer"><div class="site-info">自豪地采用WordPress</div></footer></div></body></html>`;
}

function wpBlock(model: PlatformModel, account: LocalAccount, post: LocalPost, full: boolean): string {
  const url = postUrl(account, post);
  const n = model.visibleReplies(post).length;
  const title = full
    ? `<h1 class="entry-title">${esc(post.title)}</h1>`
    : `<h2 class="entry-title"><a href="${url}" rel="bookmark">${esc(post.title)}</a></h2>`;
  const sharing = `<div class="sharedaddy sd-sharing-enabled"><div class="robots-nocontent sd-block sd-social"><h3 class="sd-title">分享此文：</h3><div class="sd-content"><ul><li class="share-weibo"><a href="${url}?share=weibo" target="_blank">微博</a></li><li class="share-end"></li></ul></div></div></div>`;
  const content = full ? `<div class="entry-content">\n${post.html}\n${sharing}</div>` : `<div class="entry-summary">${excerptOf(post.html)}</div>`;
  return `<article id="post-${post.id}" class="post-${post.id} post type-post status-publish format-standard hentry category-${post.topic}${post.pinned ? " sticky" : ""}">
<header class="entry-header">${title}<div class="entry-meta"><span class="byline">作者 <span class="author vcard"><a class="url fn n" href="/blog/${account.slug}/author/${encodeURIComponent(post.author)}/">${esc(post.author)}</a></span></span>
<span class="posted-on">发布于 <a href="${url}" rel="bookmark"><time class="entry-date published" datetime="${isoShanghai(post.publishedAt)}">${blogDay(post.publishedAt).replace(/^(\d+)-0?(\d+)-0?(\d+)$/, "$1年$2月$3日")}</time><time class="updated" datetime="${isoShanghai(post.editedAt ?? post.publishedAt)}"></time></a></span>
<span class="comments-link"><a href="${url}#${n ? "comments" : "respond"}">${n ? `${n} 条评论` : "发表评论"}</a></span></div></header>
${content}
<footer class="entry-footer"><span class="cat-links">分类 <a href="/blog/${account.slug}/category/${post.topic}/" rel="category tag">${esc(post.topic)}</a></span></footer></article>`;
}

/** Listing order: sticky posts first on page 1, then newest first. */
function ordered(model: PlatformModel, account: LocalAccount): { pinned: LocalPost[]; rest: LocalPost[] } {
  const posts = model.visiblePosts(account);
  return { pinned: posts.filter((p) => p.pinned), rest: posts.filter((p) => !p.pinned) };
}

/** `/blog/{slug}/` and `/blog/{slug}/page/{n}/`. */
export function renderBlogListing(model: PlatformModel, account: LocalAccount, pageNo: number, sizes: PageSizes): Rendered {
  const { pinned, rest } = ordered(model, account);
  const pages = Math.max(1, Math.ceil(rest.length / sizes.blog));
  if (pageNo < 1 || pageNo > pages) return notFound();
  const shown = [...(pageNo === 1 ? pinned : []), ...rest.slice((pageNo - 1) * sizes.blog, pageNo * sizes.blog)];
  const href = (n: number): string => (n === 1 ? `/blog/${account.slug}/` : `/blog/${account.slug}/page/${n}/`);
  if (themeOf(account) === "wordpress") {
    const nav = `<nav class="navigation pagination"><div class="nav-links">${pageNo > 1 ? `<a class="prev page-numbers" href="${href(pageNo - 1)}">上一页</a>` : ""}${pageNo < pages ? `<a class="next page-numbers" href="${href(pageNo + 1)}">下一页</a>` : ""}</div></nav>`;
    return html(
      wpShell(account, `${account.name} – 又一个WordPress站点`, "home blog", `${shown.map((p) => wpBlock(model, account, p, false)).join("\n")}\n${nav}`),
    );
  }
  const nav = `<nav class="pagination">${pageNo > 1 ? `<a class="extend prev" rel="prev" href="${href(pageNo - 1)}"><i class="fa fa-angle-left" aria-label="上一页"></i></a>` : ""}${Array.from(
    { length: pages },
    (_x, k) => (k + 1 === pageNo ? `<span class="page-number current">${k + 1}</span>` : `<a class="page-number" href="${href(k + 1)}">${k + 1}</a>`),
  ).join(
    "",
  )}${pageNo < pages ? `<a class="extend next" rel="next" href="${href(pageNo + 1)}"><i class="fa fa-angle-right" aria-label="下一页"></i></a>` : ""}</nav>`;
  return html(hexoShell(account, account.name, `${shown.map((p) => hexoBlock(account, p, false)).join("\n")}\n${nav}`));
}

/** `/blog/{slug}/posts/{id}/`: the full article. */
export function renderBlogArticle(model: PlatformModel, account: LocalAccount, id: string): Rendered {
  const post = model.post(id);
  if (!post || post.accountKey !== account.key || post.publishedAt > model.clock.now()) return notFound();
  const og = `<meta property="og:type" content="article"><meta property="og:title" content="${esc(post.title)}">`;
  if (themeOf(account) === "wordpress") {
    const shortlink = `<link rel="shortlink" href="/blog/${account.slug}/?p=${post.id}">`;
    return html(
      wpShell(
        account,
        `${post.title} – ${account.name}`,
        `post-template-default single single-post postid-${post.id} single-format-standard`,
        wpBlock(model, account, post, true),
        og + shortlink,
      ),
    );
  }
  return html(hexoShell(account, `${post.title} | ${account.name}`, hexoBlock(account, post, true), og));
}

/** `/blog/{slug}/feed/`: WordPress-style RSS 2.0, latest posts with full `content:encoded`. */
export function renderBlogFeed(model: PlatformModel, account: LocalAccount, origin: string, sizes: PageSizes): Rendered {
  if (!account.hasFeed) return notFound();
  const items = model.visiblePosts(account).slice(0, sizes.feed);
  const base = `${origin}/blog/${account.slug}`;
  // An SEO plugin's line after every post (Yoast's "The post … appeared first on …").
  const footer = (p: LocalPost): string =>
    themeOf(account) === "wordpress"
      ? `<p>文章<a rel="nofollow" href="${base}/posts/${p.id}/">${esc(p.title)}</a>最先出现在<a rel="nofollow" href="${base}">${esc(account.name)}</a>。</p>`
      : "";
  const body = `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"
	xmlns:content="http://purl.org/rss/1.0/modules/content/"
	xmlns:wfw="http://wellformedweb.org/CommentAPI/"
	xmlns:dc="http://purl.org/dc/elements/1.1/"
	xmlns:atom="http://www.w3.org/2005/Atom"
	xmlns:sy="http://purl.org/rss/1.0/modules/syndication/"
	xmlns:slash="http://purl.org/rss/1.0/modules/slash/"
	>

<channel>
	<title>${esc(account.name)}</title>
	<atom:link href="${base}/feed/" rel="self" type="application/rss+xml" />
	<link>${base}</link>
	<description>${esc(account.name)}</description>
	<lastBuildDate>${rfc822Utc(items[0]?.publishedAt ?? model.clock.now())}</lastBuildDate>
	<language>zh-CN</language>
	<generator>https://wordpress.org/?v=5.2</generator>
${items
  .map(
    (p) => `	<item>
		<title>${esc(p.title)}</title>
		<link>${base}/posts/${p.id}/</link>
		<comments>${base}/posts/${p.id}/#respond</comments>
		<pubDate>${rfc822Utc(p.publishedAt)}</pubDate>
		<dc:creator><![CDATA[${p.author}]]></dc:creator>
		<category><![CDATA[${p.topic}]]></category>
		<guid isPermaLink="false">${base}/?p=${p.id}</guid>
		<description><![CDATA[${p.title}]]></description>
		<content:encoded><![CDATA[${p.html}${footer(p)}]]></content:encoded>
		<wfw:commentRss>${base}/posts/${p.id}/feed/</wfw:commentRss>
		<slash:comments>${model.visibleReplies(p).length}</slash:comments>
	</item>`,
  )
  .join("\n")}
	</channel>
</rss>`;
  return { status: 200, contentType: "application/rss+xml; charset=UTF-8", body };
}

/** `/blog/{slug}/atom.xml`: Hexo's hexo-generator-feed Atom, full `content` and a `summary`. */
export function renderBlogAtom(model: PlatformModel, account: LocalAccount, origin: string, sizes: PageSizes): Rendered {
  if (!account.hasFeed) return notFound();
  const items = model.visiblePosts(account).slice(0, sizes.feed);
  const base = `${origin}/blog/${account.slug}`;
  const body = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title>${esc(account.name)}</title>
  <subtitle>校园生活记录</subtitle>
  <link href="${base}/atom.xml" rel="self"/>
  <link href="${base}/"/>
  <updated>${isoShanghai(items[0]?.publishedAt ?? model.clock.now())}</updated>
  <id>${base}/</id>
  <author>
    <name>${esc(account.name)}</name>
  </author>
  <generator uri="https://hexo.io/">Hexo</generator>
${items
  .map(
    (p) => `  <entry>
    <title>${esc(p.title)}</title>
    <link href="${base}/posts/${p.id}/"/>
    <id>${base}/posts/${p.id}/</id>
    <published>${isoShanghai(p.publishedAt)}</published>
    <updated>${isoShanghai(p.editedAt ?? p.publishedAt)}</updated>
    <content type="html"><![CDATA[${p.html}<a id="more"></a>]]></content>
    <summary type="html">${esc(excerptOf(p.html))}</summary>
    <category term="${esc(p.topic)}" scheme="${base}/categories/${esc(p.topic)}/"/>
  </entry>`,
  )
  .join("\n")}
</feed>`;
  return { status: 200, contentType: "application/atom+xml; charset=utf-8", body };
}

/** A blog post of this account visible now, or undefined. */
function visiblePost(model: PlatformModel, account: LocalAccount, id: string): LocalPost | undefined {
  const post = model.post(id);
  return post && post.accountKey === account.key && post.publishedAt <= model.clock.now() ? post : undefined;
}

/** Comments of a post visible now, newest first (WordPress's order for both the API and the feed). */
function newestFirst(model: PlatformModel, post: LocalPost): LocalReply[] {
  return [...model.visibleReplies(post)].sort((a, b) => b.publishedAt.getTime() - a.publishedAt.getTime() || Number(b.id) - Number(a.id));
}

/** `/blog/{slug}/wp-json/wp/v2/comments?post=ID&per_page=N&page=P`. */
export function renderWpComments(model: PlatformModel, account: LocalAccount, url: URL, origin: string): Rendered {
  const post = visiblePost(model, account, url.searchParams.get("post") ?? "");
  const perPage = Math.min(100, Number(url.searchParams.get("per_page") ?? "10") || 10);
  const page = Number(url.searchParams.get("page") ?? "1") || 1;
  const all = post ? newestFirst(model, post) : [];
  const pages = Math.max(1, Math.ceil(all.length / perPage));
  if (page > pages) return json({ code: "rest_comment_invalid_page_number", message: "请求的页码大于总页数。", data: { status: 400 } }, 400);
  const link = (r: LocalReply): string => `${origin}/blog/${account.slug}/posts/${r.postId}/#comment-${r.id}`;
  const rows = all.slice((page - 1) * perPage, page * perPage).map((r) => ({
    id: Number(r.id),
    post: Number(r.postId),
    parent: r.parentId ? Number(r.parentId) : 0,
    author: 0,
    author_name: r.author,
    author_url: "",
    date: isoShanghai(r.publishedAt).slice(0, 19),
    date_gmt: r.publishedAt.toISOString().slice(0, 19),
    content: { rendered: `<p>${r.html}</p>\n` },
    link: link(r),
    status: "approved",
    type: "comment",
    author_avatar_urls: { "24": "https://secure.gravatar.com/avatar/0?s=24&d=mm&r=g" },
  }));
  return { ...json(rows), headers: { "x-wp-total": String(all.length), "x-wp-totalpages": String(pages) } };
}

/** `/blog/{slug}/posts/{id}/feed/[?paged=N]`: the post's comment feed, newest first. */
export function renderCommentFeed(model: PlatformModel, account: LocalAccount, id: string, url: URL, origin: string, sizes: PageSizes): Rendered {
  const post = visiblePost(model, account, id);
  if (!post) return notFound();
  const page = Number(url.searchParams.get("paged") ?? "1") || 1;
  const all = newestFirst(model, post);
  if (page > 1 && (page - 1) * sizes.feed >= all.length) return notFound();
  const base = `${origin}/blog/${account.slug}`;
  const items = all.slice((page - 1) * sizes.feed, page * sizes.feed).map((r) => {
    const parent = r.parentId ? model.reply(r.parentId) : undefined;
    const replyTo = parent ? `<p>回复给<a href="${base}/posts/${post.id}/#comment-${parent.id}">${esc(parent.author)}</a>。</p>\n` : "";
    return `	<item>
		<title>由：${esc(r.author)}</title>
		<link>${base}/posts/${post.id}/#comment-${r.id}</link>
		<dc:creator><![CDATA[${r.author}]]></dc:creator>
		<pubDate>${rfc822Utc(r.publishedAt)}</pubDate>
		<guid isPermaLink="false">${base}/?p=${post.id}#comment-${r.id}</guid>
		<description><![CDATA[${r.html.replace(/<[^>]+>/g, "")}]]></description>
		<content:encoded><![CDATA[${replyTo}<p>${r.html}</p>
]]></content:encoded>
	</item>`;
  });
  const body = `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"
	xmlns:content="http://purl.org/rss/1.0/modules/content/"
	xmlns:dc="http://purl.org/dc/elements/1.1/"
	xmlns:atom="http://www.w3.org/2005/Atom"
	xmlns:sy="http://purl.org/rss/1.0/modules/syndication/"
	>
<channel>
	<title>《${esc(post.title)}》的评论</title>
	<atom:link href="${base}/posts/${post.id}/feed/" rel="self" type="application/rss+xml" />
	<link>${base}/posts/${post.id}/</link>
	<description>${esc(account.name)}</description>
	<lastBuildDate>${rfc822Utc(all[0]?.publishedAt ?? post.publishedAt)}</lastBuildDate>
	<sy:updatePeriod>hourly</sy:updatePeriod>
	<sy:updateFrequency>1</sy:updateFrequency>
	<generator>https://wordpress.org/?v=6.4.2</generator>
${items.join("\n")}
</channel>
</rss>`;
  return { status: 200, contentType: "application/rss+xml; charset=UTF-8", body };
}

/** Answer a path under `/blog/{slug}/` (`rest` is what follows it). */
export function routeBlog(
  model: PlatformModel,
  account: LocalAccount,
  rest: string,
  url: URL,
  origin: string,
  sizes: PageSizes,
): { rendered: Rendered; kind: PageKind } {
  const list = (rendered: Rendered) => ({ rendered, kind: "list" as const });
  const item = (rendered: Rendered) => ({ rendered, kind: "item" as const });
  if (rest === "" || rest === "index.html") return list(renderBlogListing(model, account, 1, sizes));
  const pg = /^page\/(\d+)\/?$/.exec(rest);
  if (pg?.[1]) return list(renderBlogListing(model, account, Number(pg[1]), sizes));
  if (/^feed\/?$/.test(rest)) return list(account.blogFeed === "atom" ? notFound() : renderBlogFeed(model, account, origin, sizes));
  if (rest === "atom.xml") return list(account.blogFeed === "atom" ? renderBlogAtom(model, account, origin, sizes) : notFound());
  if (rest === "rss.xml") return list(notFound());
  const art = /^posts\/(\d+)\/?$/.exec(rest);
  if (art?.[1]) return item(renderBlogArticle(model, account, art[1]));
  const comments = /^posts\/(\d+)\/feed\/?$/.exec(rest);
  if (comments?.[1]) return item(renderCommentFeed(model, account, comments[1], url, origin, sizes));
  if (rest === "wp-json/wp/v2/comments") return item(renderWpComments(model, account, url, origin));
  return { rendered: notFound(), kind: "other" };
}
