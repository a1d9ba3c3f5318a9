/**
 * Local blogs under `/blog/{slug}/`: Hexo/NexT listing pages (markup of the real capture
 * hexo_next_blog_index.html), article pages, and for blogs with `hasFeed` a WordPress-style
 * RSS feed at `/blog/{slug}/feed/` (shape of wordpress_feed_zh.xml), advertised by a
 * `<link rel="alternate">` on every page.
 */
import type { LocalAccount, LocalPost, PlatformModel } from "./model";
import { blogDateTime, blogDay, esc, isoShanghai, rfc822Utc } from "./format";
import { html, notFound, type PageSizes, type Rendered } from "./responses";

const excerptOf = (h: string): string => {
  const first = /<p>[\s\S]*?<\/p>/.exec(h)?.[0] ?? h;
  return first;
};

function shell(account: LocalAccount, title: string, body: string): string {
  const feed = account.hasFeed ? `<link rel="alternate" href="/blog/${account.slug}/feed/" title="${esc(account.name)}" type="application/rss+xml">` : "";
  return `<!DOCTYPE html><html lang="zh-CN"><head><meta charset="UTF-8"><meta name="generator" content="Hexo 6.0.0">
<title>${esc(title)}</title><meta name="author" content="${esc(account.name)}"><link rel="canonical" href="/blog/${account.slug}/">${feed}</head>
<body itemscope itemtype="http://schema.org/WebPage"><div class="container use-motion"><main class="main"><div class="main-inner index posts-expand">
${body}
</div></main></div></body></html>`;
}

function postUrl(account: LocalAccount, post: LocalPost): string {
  return `/blog/${account.slug}/posts/${post.id}/`;
}

function block(account: LocalAccount, post: LocalPost, full: boolean): string {
  const url = postUrl(account, post);
  return `<article itemscope itemtype="http://schema.org/Article" class="post-block" lang="zh-CN"> <link itemprop="mainEntityOfPage" href="${url}"> <span hidden itemprop="author" itemscope itemtype="http://schema.org/Person"> <meta itemprop="name" content="${esc(post.author)}"> </span> <header class="post-header"> <h${full ? 1 : 2} class="post-title" itemprop="name headline"> ${full ? esc(post.title) : `<a href="${url}" class="post-title-link" itemprop="url">${esc(post.title)}</a>`} </h${full ? 1 : 2}> <div class="post-meta">${post.pinned ? ' <span class="post-sticky-flag" title="置顶"><i class="fa fa-thumbtack"></i></span>' : ""} <span class="post-meta-item"> <span class="post-meta-item-text">发表于</span> <time title="创建时间：${blogDateTime(post.publishedAt)}" itemprop="dateCreated datePublished" datetime="${isoShanghai(post.publishedAt)}">${blogDay(post.publishedAt)}</time> </span> </div> </header> <div class="post-body" itemprop="articleBody"> ${full ? post.html : `${excerptOf(post.html)} <div class="post-button"> <a class="btn" href="${url}#more" rel="contents"> 阅读全文 &raquo; </a> </div>`}</div> <footer class="post-footer"> <div class="post-eof"></div> </footer> </article>`;
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
  const nav = `<nav class="pagination">${pageNo > 1 ? `<a class="extend prev" rel="prev" href="${href(pageNo - 1)}"><i class="fa fa-angle-left" aria-label="上一页"></i></a>` : ""}${Array.from(
    { length: pages },
    (_x, k) => (k + 1 === pageNo ? `<span class="page-number current">${k + 1}</span>` : `<a class="page-number" href="${href(k + 1)}">${k + 1}</a>`),
  ).join("")}${pageNo < pages ? `<a class="extend next" rel="next" href="${href(pageNo + 1)}"><i class="fa fa-angle-right" aria-label="下一页"></i></a>` : ""}</nav>`;
  return html(shell(account, account.name, `${shown.map((p) => block(account, p, false)).join("\n")}\n${nav}`));
}

/** `/blog/{slug}/posts/{id}/`: the full article. */
export function renderBlogArticle(model: PlatformModel, account: LocalAccount, id: string): Rendered {
  const post = model.post(id);
  if (!post || post.accountKey !== account.key || post.publishedAt > model.clock.now()) return notFound();
  return html(shell(account, `${post.title} | ${account.name}`, block(account, post, true)));
}

/** `/blog/{slug}/feed/`: WordPress-style RSS 2.0, latest posts with full `content:encoded`. */
export function renderBlogFeed(model: PlatformModel, account: LocalAccount, origin: string, sizes: PageSizes): Rendered {
  if (!account.hasFeed) return notFound();
  const items = model.visiblePosts(account).slice(0, sizes.feed);
  const base = `${origin}/blog/${account.slug}`;
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
		<pubDate>${rfc822Utc(p.publishedAt)}</pubDate>
		<dc:creator><![CDATA[${p.author}]]></dc:creator>
		<category><![CDATA[${p.topic}]]></category>
		<guid isPermaLink="false">${base}/?p=${p.id}</guid>
		<description><![CDATA[${p.title}]]></description>
		<content:encoded><![CDATA[${p.html}]]></content:encoded>
	</item>`,
  )
  .join("\n")}
	</channel>
</rss>`;
  return { status: 200, contentType: "application/rss+xml; charset=UTF-8", body };
}
