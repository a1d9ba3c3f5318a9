/**
 * The URL shapes of the local platforms, both ways: which page a request on the main server asks
 * for (by path shape, one function per platform, tried in a fixed order), and which entry URL and
 * platformId an account or item has. Rendering is the platform files' job; this only dispatches.
 */
import type { PageKind, Platform } from "../../../crawler/types";
import { routeBlog } from "./blog";
import { renderDiscuzCommentMore, renderDiscuzList, renderDiscuzMobileList, renderDiscuzThread } from "./discuz";
import type { LocalAccount, LocalPost, LocalReply } from "./entities";
import type { PlatformModel } from "./model";
import { notFound, type PageSizes, type Rendered } from "./responses";
import { routeDiscuzSearch } from "./search-discuz";
import { routeTiebaSearch } from "./search-tieba";
import { routeWeiboSearch } from "./search-weibo";
import { renderTiebaList, renderTiebaThread, tiebaFloorsOnPage } from "./tieba";
import { renderCommentPage, renderTotalComment } from "./tieba-lzl";
import { renderWechatArticle } from "./wechat";
import {
  renderWeiboExtend,
  renderWeiboHotflow,
  renderWeiboHotFlowChild,
  renderWeiboLookup,
  renderWeiboProfileShell,
  renderWeiboTimeline,
  type WeiboDateStyle,
} from "./weibo";

/** A routed request: the page, and what the request log records about it. */
export interface Routed {
  rendered: Rendered;
  platform: Platform | null;
  accountKey: string | null;
  kind: PageKind;
}

/** What the router needs besides the URL. */
export interface RouterOptions {
  model: PlatformModel;
  sizes: PageSizes;
  weiboDates: WeiboDateStyle;
  /** Served at /robots.txt. */
  robotsTxt: string;
  /** The main server's origin (known once it listens; blog feeds print absolute links). */
  origin: () => string;
}

type PlatformRoute = (o: RouterOptions, url: URL) => Routed | null;

const DISCUZ_DIR = "/bbs/";

const none = (kind: PageKind, platform: Platform | null, rendered: Rendered = notFound()): Routed => ({ rendered, platform, accountKey: null, kind });

/** The account's page, or a 404 when the path names no account. */
const on = (account: LocalAccount | undefined, kind: PageKind, render: (a: LocalAccount) => Rendered): Routed =>
  account ? { rendered: render(account), platform: account.platform, accountKey: account.key, kind } : none(kind, null);

/** The account a post id belongs to (Weibo's item APIs name only the status). */
const accountOfPost = (model: PlatformModel, id: string | null): LocalAccount | undefined => {
  const post = id ? model.post(id) : undefined;
  return post ? model.account(post.accountKey) : undefined;
};

/** Weibo: the profile shell, the m.weibo.cn container API (lookup, timeline, search), long text and comments. */
const routeWeibo: PlatformRoute = ({ model, sizes, weiboDates }, url) => {
  const p = url.pathname;
  const m = /^\/u\/(\d+)\/?$/.exec(p) ?? /^\/p\/100505(\d+)\/?$/.exec(p);
  if (m?.[1]) {
    const account = model.findAccount("weibo", m[1]);
    return { rendered: renderWeiboProfileShell(account), platform: "weibo", accountKey: account?.key ?? null, kind: "other" };
  }
  if (p === "/api/container/getIndex" && url.searchParams.get("page_type") === "searchall") return routeWeiboSearch(model, url, sizes);
  if (p === "/api/container/getIndex") {
    const account = model.findAccount("weibo", url.searchParams.get("value") ?? "");
    return on(account, "list", (a) => (url.searchParams.has("containerid") ? renderWeiboTimeline(model, a, url, sizes, weiboDates) : renderWeiboLookup(a)));
  }
  if (p === "/statuses/extend") {
    const a = accountOfPost(model, url.searchParams.get("id"));
    return { rendered: renderWeiboExtend(model, url), platform: "weibo", accountKey: a?.key ?? null, kind: "item" };
  }
  if (p === "/comments/hotflow") {
    const a = accountOfPost(model, url.searchParams.get("id"));
    return { rendered: renderWeiboHotflow(model, url, sizes), platform: "weibo", accountKey: a?.key ?? null, kind: "item" };
  }
  if (p === "/comments/hotFlowChild") {
    const a = accountOfPost(model, model.reply(url.searchParams.get("cid") ?? "")?.postId ?? null);
    return { rendered: renderWeiboHotFlowChild(model, url, sizes), platform: "weibo", accountKey: a?.key ?? null, kind: "item" };
  }
  return null;
};

/** Tieba: search, the bar's list, 楼中楼 JSON and threads. */
const routeTieba: PlatformRoute = ({ model, sizes }, url) => {
  const p = url.pathname;
  if (p === "/f/search/res") return routeTiebaSearch(model, url);
  if (p === "/f") return on(model.findAccount("tieba", url.searchParams.get("kw") ?? ""), "list", (a) => renderTiebaList(model, a, url, sizes));
  // Tieba 楼中楼: the JSON of a thread page's floors, and one floor's further pages.
  if (p === "/p/totalComment" || p === "/p/comment") {
    const post = model.post(url.searchParams.get("tid") ?? "");
    const rendered =
      p === "/p/comment"
        ? renderCommentPage(model, post, url)
        : renderTotalComment(model, post, url, (x, pn) => tiebaFloorsOnPage(model, x, pn, sizes.tiebaFloors));
    return { rendered, platform: "tieba", accountKey: post?.accountKey ?? null, kind: "item" };
  }
  const m = /^\/p\/(\d+)\/?$/.exec(p);
  if (m?.[1]) {
    const post = model.post(m[1]);
    return { rendered: renderTiebaThread(model, post, url, sizes), platform: "tieba", accountKey: post?.accountKey ?? null, kind: "item" };
  }
  return null;
};

/** Discuz!: search, forum.php (board, thread and a floor's 点评 pages), rewritten board pages and the mobile API. */
const routeDiscuz: PlatformRoute = ({ model, sizes }, url) => {
  const p = url.pathname;
  if (p.endsWith("/search.php")) return routeDiscuzSearch(model, url);
  if (p.endsWith("/forum.php")) {
    const mod = url.searchParams.get("mod");
    const pageNo = Number(url.searchParams.get("page") ?? "1") || 1;
    if (mod === "forumdisplay")
      return on(model.findAccount("discuz", url.searchParams.get("fid") ?? ""), "list", (a) => renderDiscuzList(model, a, pageNo, sizes));
    if (mod === "viewthread") {
      const post = model.post(url.searchParams.get("tid") ?? "");
      return { rendered: renderDiscuzThread(model, post, pageNo, sizes), platform: "discuz", accountKey: post?.accountKey ?? null, kind: "item" };
    }
    if (mod === "misc" && url.searchParams.get("action") === "commentmore") {
      const post = model.post(url.searchParams.get("tid") ?? "");
      return {
        rendered: renderDiscuzCommentMore(model, post, url, sizes.discuzComments),
        platform: "discuz",
        accountKey: post?.accountKey ?? null,
        kind: "item",
      };
    }
    return none("other", "discuz");
  }
  const m = /\/forum-(\d+)-(\d+)\.html$/.exec(p);
  if (m?.[1] && m[2]) {
    const pageNo = Number(m[2]);
    return on(model.findAccount("discuz", m[1]), "list", (a) => renderDiscuzList(model, a, pageNo, sizes));
  }
  if (p.endsWith("/api/mobile/index.php") && url.searchParams.get("module") === "forumdisplay") {
    const account = model.findAccount("discuz", url.searchParams.get("fid") ?? "");
    return {
      rendered: renderDiscuzMobileList(model, account, Number(url.searchParams.get("page") ?? "1") || 1, sizes),
      platform: "discuz",
      accountKey: account?.key ?? null,
      kind: "list",
    };
  }
  return null;
};

/** Blogs: everything under /blog/{slug}/ (pages, feeds and comments of the themes: see blog.ts). */
const routeBlogs: PlatformRoute = ({ model, sizes, origin }, url) => {
  const m = /^\/blog\/([^/]+)\/(.*)$/.exec(url.pathname);
  if (m?.[1] === undefined) return null;
  const account = model.findAccount("blog", decodeURIComponent(m[1]));
  const rest = m[2] ?? "";
  if (!account) return none(/^(|index\.html|page\/\d+\/?|feed\/?|atom\.xml|rss\.xml)$/.test(rest) ? "list" : /^posts\//.test(rest) ? "item" : "other", null);
  const routed = routeBlog(model, account, rest, url, origin(), sizes);
  return { rendered: routed.rendered, platform: "blog", accountKey: account.key, kind: routed.kind };
};

/** WeChat: `/s/{token}`, one article per account. */
const routeWechat: PlatformRoute = ({ model }, url) => {
  const m = /^\/s\/([A-Za-z0-9_-]+)$/.exec(url.pathname);
  if (m?.[1] === undefined) return null;
  return on(model.findAccount("wechat", m[1]), "list", (a) => renderWechatArticle(model, a));
};

/** Weibo's /p/100505{uid} is tried before Tieba's /p/{tid}: the order is part of the routing. */
const PLATFORM_ROUTES: readonly PlatformRoute[] = [routeWeibo, routeTieba, routeDiscuz, routeWechat, routeBlogs];

/** The main server's router: robots.txt, then each platform's paths; anything else is a 404. */
export function createRouter(options: RouterOptions): (url: URL) => Routed {
  return (url) => {
    if (url.pathname === "/robots.txt") return none("other", null, { status: 200, contentType: "text/plain; charset=utf-8", body: options.robotsTxt });
    for (const route of PLATFORM_ROUTES) {
      const routed = route(options, url);
      if (routed) return routed;
    }
    return none("other", null);
  };
}

/** The path of an account's entry URL: /u/{uid}, /f?kw=, /bbs/forum.php?mod=forumdisplay&fid=, /s/{token}, /blog/{slug}/. */
export function entryPath(a: LocalAccount): string {
  return a.platform === "weibo"
    ? `/u/${a.slug}`
    : a.platform === "tieba"
      ? `/f?kw=${encodeURIComponent(a.slug)}`
      : a.platform === "discuz"
        ? `${DISCUZ_DIR}forum.php?mod=forumdisplay&fid=${a.slug}`
        : a.platform === "wechat"
          ? `/s/${a.slug}`
          : `/blog/${a.slug}/`;
}

/** The platformId the adapters give this post or reply. */
export function platformIdOf(model: PlatformModel, item: LocalPost | LocalReply): string {
  if ("postId" in item) {
    const post = model.postIncludingRemoved(item.postId);
    return post?.platform === "discuz" ? `p${item.id}` : item.id;
  }
  if (item.platform === "discuz") return `t${item.id}`;
  // A WeChat article is stored by its URL's token (lib/platforms/wechat.ts wechatArticleOf).
  if (item.platform === "wechat") return model.account(item.accountKey).slug;
  if (item.platform === "blog") return `/blog/${model.account(item.accountKey).slug}/posts/${item.id}/`;
  return item.id;
}
