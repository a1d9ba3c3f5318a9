/**
 * Blog feeds on another host, and blogs the engines table did not know (issue 30 item 4), through
 * the real worker, fetcher (with the account's address policy) and SQLite:
 * - a cnblogs-style blog on 127.0.0.9 whose page advertises its feed on another host
 *   (127.0.0.10, standing for feed.cnblogs.com): with that host registered the feed is read and
 *   the posts' links go to the blog; unregistered, the feed host (a loopback address) is refused
 *   by the address policy like any crawled URL — no request reaches it, the run says so — and the
 *   blog is read from its `article.post-item` listing instead;
 * - a CSDN-style blog (CSDN's assets, no advertised feed): its `/<user>/rss/list` feed is found;
 * - a blog with neither feed nor known markup (CSDN's classic article list): read by the generic
 *   article-list reader (repeated blocks with a title link and a date) instead of failing.
 * Markup written here after the structure of those sites' pages, not copied from any page.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServices } from "../../../crawler/runtime";
import { crawlAccount } from "../../../crawler/worker";
import { createAccount } from "../../../server/accounts";
import { createTestDb, type TestDb } from "../../support/db";
import { CLI_ACTOR } from "../../../lib/audit";

interface Served {
  origin: string;
  host: string;
  hits: string[];
  close(): Promise<void>;
}

async function serve(address: string, route: (path: string, origin: string) => { type: string; body: string } | null): Promise<Served> {
  const hits: string[] = [];
  let origin = "";
  const server = http.createServer((req, res) => {
    const path = req.url ?? "/";
    hits.push(path);
    if (path === "/robots.txt") return void res.writeHead(200, { "content-type": "text/plain" }).end("User-agent: *\nAllow: /\n");
    const r = route(path, origin);
    if (!r) return void res.writeHead(404, { "content-type": "text/html" }).end("<p>404</p>");
    res.writeHead(200, { "content-type": r.type }).end(r.body);
  });
  await new Promise<void>((r) => server.listen(0, address, r));
  origin = `http://${address}:${(server.address() as AddressInfo).port}`;
  return { origin, host: new URL(origin).host, hits, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const HTML = "text/html; charset=utf-8";
const POSTS = [
  { id: 1001, title: "校园网认证的坑", date: "2024-05-08 09:30", body: "认证页面总是超时" },
  { id: 1002, title: "食堂排队算法", date: "2024-05-09 12:10", body: "用排队论估计午饭时间" },
];

/** The feed host (feed.cnblogs.com's stand-in) serves the blog's RSS; its links name the blog's real host. */
function rss(user: string): string {
  const items = POSTS.map(
    (
      p,
    ) => `<item><title>${p.title}</title><link>https://www.cnblogs.com/${user}/p/${p.id}.html</link><guid>https://www.cnblogs.com/${user}/p/${p.id}.html</guid>
<pubDate>${new Date(`${p.date.replace(" ", "T")}:00+08:00`).toUTCString()}</pubDate><description>${p.body.slice(0, 4)}…</description></item>`,
  ).join("\n");
  return `<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel><title>${user} - 博客园</title><link>https://www.cnblogs.com/${user}/</link>${items}</channel></rss>`;
}

/** A cnblogs-style list page advertising its feed at `feedUrl`. */
function cnblogsList(user: string, feedUrl: string): string {
  const items = POSTS.map(
    (p) => `<article class="post-item" data-post-id="${p.id}"><section class="post-item-body"><div class="post-item-text">
<a class="post-item-title" href="https://www.cnblogs.com/${user}/p/${p.id}.html" target="_blank">${p.title}</a>
<p class="post-item-summary">${p.body.slice(0, 4)}…</p></div>
<footer class="post-item-foot"><a href="https://www.cnblogs.com/${user}/" class="post-item-author"><span>${user}</span></a>
<span class="post-meta-item"><span>${p.date}</span></span><a class="post-meta-item btn" href="#"><span>3</span></a></footer></section></article>`,
  ).join("\n");
  return `<!DOCTYPE html><html><head><title>${user} - 博客园</title><link rel="canonical" href="https://www.cnblogs.com/${user}/">
<link type="application/rss+xml" rel="alternate" href="${feedUrl}"></head><body><div id="post_list">${items}</div></body></html>`;
}

function cnblogsArticle(p: (typeof POSTS)[number]): string {
  return `<!DOCTYPE html><html><head><title>${p.title} - alice - 博客园</title></head><body><div class="post"><h1 class="postTitle"><a id="cb_post_title_url" class="postTitle2"><span>${p.title}</span></a></h1>
<div class="clear"></div><div class="postBody"><div id="cnblogs_post_body" class="blogpost-body"><p>${p.body}</p></div></div>
<div class="postDesc">posted @ <span id="post-date">${p.date}</span> alice</div></div></body></html>`;
}

/** CSDN's classic article list: no feed link, no <time>. */
function csdnList(user: string, withAssets: boolean): string {
  const items = POSTS.map(
    (p) => `<div class="article-item-box csdn-tracking-statistics" data-articleid="${p.id}">
<h4 class=""><a href="https://blog.csdn.net/${user}/article/details/${p.id}" target="_blank"><span class="article-type type-1 float-none">原创</span>${p.title}</a></h4>
<p class="content"><a href="https://blog.csdn.net/${user}/article/details/${p.id}" target="_blank">${p.body.slice(0, 4)}…</a></p>
<div class="info-box d-flex align-content-center"><p><span class="date">${p.date}:00</span><span class="read-num">阅读数 <span class="num">12</span></span></p></div></div>`,
  ).join("\n");
  return `<!DOCTYPE html><html><head><title>${user}的博客_CSDN博客</title>${withAssets ? `<link rel="stylesheet" href="https://csdnimg.cn/release/phoenix/template/css/main.css">` : ""}</head>
<body><aside class="sidebar"><p>访问量 <span>2024-01-01</span> <a href="/${user}/">主页</a></p></aside><div class="article-list">${items}</div></body></html>`;
}

function csdnArticle(p: (typeof POSTS)[number]): string {
  return `<!DOCTYPE html><html><head><title>${p.title}_CSDN博客</title></head><body><h1 class="title-article" id="articleContentId">${p.title}</h1>
<span class="time">${p.date}:00</span><article class="baidu_pl"><div id="content_views" class="markdown_views"><p>${p.body}</p></div></article></body></html>`;
}

let t: TestDb;
let blog: Served;
let feeds: Served;

beforeAll(async () => {
  feeds = await serve("127.0.0.10", (path) => {
    const m = /^\/blog\/u\/(\w+)\/rss\/$/.exec(path);
    return m ? { type: "application/rss+xml", body: rss(m[1]!) } : null;
  });
  blog = await serve("127.0.0.9", (path) => {
    const list = /^\/(alice|bob)\/$/.exec(path);
    if (list) return { type: HTML, body: cnblogsList(list[1]!, `${feeds.origin}/blog/u/${list[1]}/rss/`) };
    const article = /^\/(?:alice|bob)\/p\/(\d+)\.html$/.exec(path);
    const cn = article && POSTS.find((p) => p.id === Number(article[1]));
    if (cn) return { type: HTML, body: cnblogsArticle(cn) };
    const csdn = /^\/(carol|dave)\/?$/.exec(path);
    if (csdn) return { type: HTML, body: csdnList(csdn[1]!, csdn[1] === "carol") };
    if (path === "/carol/rss/list")
      return {
        type: "text/xml",
        body: rss("carol").replace(/https:\/\/www\.cnblogs\.com\/carol\/p\/(\d+)\.html/g, "https://blog.csdn.net/carol/article/details/$1"),
      };
    const detail = /^\/(?:carol|dave)\/article\/details\/(\d+)$/.exec(path);
    const cs = detail && POSTS.find((p) => p.id === Number(detail[1]));
    if (cs) return { type: HTML, body: csdnArticle(cs) };
    return null;
  });
  t = await createTestDb();
});
afterAll(async () => {
  await blog?.close();
  await feeds?.close();
  await t?.cleanup();
});

const servicesWith = (trustedHosts: string[]) => ({
  ...createServices({ db: t.db, hostDelayMs: 0, classify: false, archive: false, trustedHosts }),
  notify: undefined,
});

async function stored(accountId: number) {
  const rows = await t.db.post.findMany({ where: { accountId, kind: "post" }, orderBy: { publishedAt: "asc" } });
  return rows.map((r) => ({ title: r.title, url: r.url, text: r.text, at: r.publishedAt.toISOString() }));
}

const expectedPosts = (url: (id: number) => string) =>
  POSTS.map((p) => ({ title: p.title, url: url(p.id), text: p.body, at: new Date(`${p.date.replace(" ", "T")}:00+08:00`).toISOString() }));

describe("a blog whose feed is on another host", () => {
  it("registered feed host: the feed is read there, the posts' links and articles are the blog's", async () => {
    const account = await createAccount(t.db, { url: `${blog.origin}/alice/`, name: "alice", fetchMode: "http" }, CLI_ACTOR);
    feeds.hits.length = 0;
    const run = await crawlAccount(servicesWith([feeds.host]), account.id, "cli");
    expect(run.errors).toEqual([]);
    expect(run.warnings.filter((w) => w.field === "feed")).toEqual([]);
    expect(feeds.hits).toContain("/blog/u/alice/rss/");
    expect(await stored(account.id)).toEqual(expectedPosts((id) => `${blog.origin}/alice/p/${id}.html`));
  });

  it("unregistered feed host on an internal address: refused before any request, said on the run, the listing read instead", async () => {
    const account = await createAccount(t.db, { url: `${blog.origin}/bob/`, name: "bob", fetchMode: "http" }, CLI_ACTOR);
    feeds.hits.length = 0;
    const run = await crawlAccount(servicesWith([]), account.id, "cli");
    expect(feeds.hits).toEqual([]);
    const feedUrl = `${feeds.origin}/blog/u/bob/rss/`;
    expect(run.warnings.filter((w) => w.field === "feed")).toEqual([
      {
        at: expect.any(String),
        url: feedUrl,
        field: "feed",
        raw: `refused ${feedUrl}: 127.0.0.10 is a loopback address (not a registered host)`,
        reason: "the advertised feed was refused: the blog is read without it",
      },
    ]);
    expect(run.errors).toEqual([]);
    // Read from the cnblogs listing (article.post-item, a.post-item-title) and the article pages.
    expect(await stored(account.id)).toEqual(expectedPosts((id) => `${blog.origin}/bob/p/${id}.html`));
  });
});

describe("blogs on engines without an advertised feed", () => {
  it("CSDN: the /<user>/rss/list feed is found and read", async () => {
    const account = await createAccount(t.db, { url: `${blog.origin}/carol`, name: "carol", fetchMode: "http" }, CLI_ACTOR);
    const before = blog.hits.length;
    const run = await crawlAccount(servicesWith([]), account.id, "cli");
    expect(run.errors).toEqual([]);
    expect(blog.hits.slice(before)).toContain("/carol/rss/list");
    expect(await stored(account.id)).toEqual(expectedPosts((id) => `${blog.origin}/carol/article/details/${id}`));
  });

  it("no feed and no known markup: the generic article-list reader reads the repeated dated blocks", async () => {
    const account = await createAccount(t.db, { url: `${blog.origin}/dave`, name: "dave", fetchMode: "http" }, CLI_ACTOR);
    const run = await crawlAccount(servicesWith([]), account.id, "cli");
    expect(run.errors).toEqual([]);
    // The sidebar's lone date is not a post; the "原创" badge is not part of a title.
    expect(await stored(account.id)).toEqual(expectedPosts((id) => `${blog.origin}/dave/article/details/${id}`));
  });
});
