/**
 * One node:http server that routes by path shape to the four local platforms, with scripted
 * faults and a request log. See index.ts for the public API.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import iconv from "iconv-lite";
import type { PageKind, Platform } from "../../../crawler/types";
import { routeBlog } from "./blog";
import { answerCapture, CAPTURE_SITES, locateCaptures, type CaptureSite, type CaptureSiteName } from "./captures";
import { renderDiscuzList, renderDiscuzMobileList, renderDiscuzThread } from "./discuz";
import { PlatformModel, type LocalAccount, type LocalPost, type LocalReply, type ModelOptions } from "./model";
import { DEFAULT_PAGE_SIZES, notFound, type PageSizes, type Rendered } from "./responses";
import { BAIDU_CAPTCHA_PAGE, renderTiebaList, renderTiebaThread, tiebaFloorsOnPage } from "./tieba";
import { renderCommentPage, renderTotalComment } from "./tieba-lzl";
import { routeDiscuzSearch } from "./search-discuz";
import { routeTiebaSearch } from "./search-tieba";
import { routeWeiboSearch } from "./search-weibo";
import { createLogins, type LocalLogins } from "./login";
import {
  renderWeiboExtend,
  renderWeiboHotflow,
  renderWeiboHotFlowChild,
  renderWeiboLookup,
  renderWeiboProfileShell,
  renderWeiboTimeline,
  type WeiboDateStyle,
} from "./weibo";

/** Options of {@link startLocalPlatforms}: the generated world plus how it is served. */
export interface LocalPlatformsOptions extends ModelOptions {
  /** Smaller pages make pagination cheap to test. @default DEFAULT_PAGE_SIZES (the real sizes) */
  pageSizes?: Partial<PageSizes>;
  /** Weibo timeline dates: the short list forms or the full RFC form. @default "short" */
  weiboDates?: WeiboDateStyle;
  /** Served at /robots.txt. @default allow everything */
  robotsTxt?: string;
  /** GBK boards declare their charset in the header and `<meta>` ("both"), or only in `<meta>`. @default "both" */
  gbkDeclared?: "both" | "meta-only";
  /**
   * Also serve the real captures (one extra origin per captured site, see `captures`). `true`
   * uses ../shared/fixtures/real beside the repo; a string is another folder. When the folder is
   * missing, `captures` is null and `capturesSkipReason` says why (also printed once).
   * @default false
   */
  realCaptures?: boolean | string;
  /** @default "127.0.0.1" */
  host?: string;
  /** @default 0 (any free port) */
  port?: number;
}

/** One logged request. */
export interface RequestLogEntry {
  /** Order of arrival, from 1. */
  seq: number;
  method: string;
  /** Path and query as requested ("/f?kw=…&pn=50"). */
  url: string;
  path: string;
  /** Origin of the server that answered (the main one or a capture site's). */
  origin: string;
  platform: Platform | null;
  /** The local account the request belongs to, when the path identifies one. */
  accountKey: string | null;
  /** list: listing pages and APIs, feeds; item: threads, articles, long text, comments; other: the rest. */
  kind: PageKind;
  status: number;
  /** The fault that answered instead of the platform, if any. */
  fault: Fault["type"] | null;
  /** The local clock's time (not the wall clock). */
  at: Date;
  /** Wall-clock ms when the request arrived and when its response finished (for politeness checks). */
  startedMs: number;
  endedMs: number | null;
  /** Requests to this server already in flight when this one arrived (0 for a polite client). */
  inFlightBefore: number;
}

/** A scripted misbehaviour for matching requests. `times` defaults to every request. */
export type Fault =
  | { type: "captcha"; times?: number }
  | { type: "status"; status: number; times?: number; retryAfterSeconds?: number; body?: string }
  | { type: "slow"; delayMs: number; times?: number }
  | { type: "redirectLoop"; times?: number }
  | { type: "body"; body: string; status?: number; contentType?: string; times?: number };

/** Which requests a fault applies to: a prefix of path+query (raw or decoded), a RegExp on it, or a predicate. */
export type FaultMatch = string | RegExp | ((url: URL) => boolean);

/** A fault in force; `clear()` removes it, `hits` counts requests it answered. */
export interface FaultHandle {
  readonly hits: number;
  readonly remaining: number;
  clear(): void;
}

/** Filter of {@link LocalPlatforms.requests}. */
export interface RequestFilter {
  accountKey?: string;
  platform?: Platform;
  kind?: PageKind;
  /** Only requests after this sequence number (take `lastSeq()` before an action). */
  afterSeq?: number;
}

interface ActiveFault {
  match: FaultMatch;
  fault: Fault;
  remaining: number;
  hits: number;
}

interface Routed {
  rendered: Rendered;
  platform: Platform | null;
  accountKey: string | null;
  kind: PageKind;
}

/** A running set of local platforms. See index.ts for the API overview. */
export interface LocalPlatforms {
  /** `http://127.0.0.1:PORT`: every generated account's entry URL is on it. */
  readonly origin: string;
  readonly model: PlatformModel;
  readonly clock: PlatformModel["clock"];
  readonly accounts: readonly LocalAccount[];
  readonly pageSizes: PageSizes;
  account(key: string): LocalAccount;
  /** The entry URL to register for an account: /u/{uid}, /f?kw=, /bbs/forum.php?mod=forumdisplay&fid=, /blog/{slug}/. */
  entryUrl(key: string): string;
  /** The platformId the adapters give this post or reply. */
  platformIdOf(item: LocalPost | LocalReply): string;
  addPost: PlatformModel["addPost"];
  addReply: PlatformModel["addReply"];
  editPost: PlatformModel["editPost"];
  editReply: PlatformModel["editReply"];
  pin: PlatformModel["pin"];
  /** Delete a post (`removePost(id, false)` restores it). */
  removePost: PlatformModel["removePost"];
  /** Delete a reply (`removeReply(id, false)` restores it). */
  removeReply: PlatformModel["removeReply"];
  setEncoding: PlatformModel["setEncoding"];
  simulateActivity: PlatformModel["simulateActivity"];
  fault(match: FaultMatch, fault: Fault): FaultHandle;
  clearFaults(): void;
  requests(filter?: RequestFilter): RequestLogEntry[];
  /** Sequence number of the last logged request (0 before any). */
  lastSeq(): number;
  clearRequests(): void;
  /** Member logins: sign in, expire sessions, members-only boards (./login.ts). */
  readonly logins: LocalLogins;
  /** The real capture sites, or null (see `capturesSkipReason`). */
  readonly captures: Readonly<Record<CaptureSiteName, CaptureSite>> | null;
  readonly capturesSkipReason: string | null;
  close(): Promise<void>;
}

const DISCUZ_DIR = "/bbs/";

/** Start the local platforms (and, if asked, the capture sites). Always `close()` them. */
export async function startLocalPlatforms(options: LocalPlatformsOptions = {}): Promise<LocalPlatforms> {
  const model = new PlatformModel(options);
  const sizes: PageSizes = { ...DEFAULT_PAGE_SIZES, ...options.pageSizes };
  const weiboDates = options.weiboDates ?? "short";
  const robots = options.robotsTxt ?? "User-agent: *\nAllow: /\n";
  const host = options.host ?? "127.0.0.1";
  const log: RequestLogEntry[] = [];
  /** Requests being answered, per origin (capture sites are separate hosts). */
  const inFlight = new Map<string, number>();
  const faults: ActiveFault[] = [];
  const logins = createLogins(model);
  let seq = 0;
  let origin = "";

  const accountOfPost = (id: string | null): LocalAccount | undefined => {
    const post = id ? model.post(id) : undefined;
    return post ? model.account(post.accountKey) : undefined;
  };

  /** Route a request on the main server by path shape. */
  function route(url: URL): Routed {
    const p = url.pathname;
    const none = (kind: PageKind, platform: Platform | null, rendered: Rendered = notFound()): Routed => ({ rendered, platform, accountKey: null, kind });
    const on = (account: LocalAccount | undefined, kind: PageKind, render: (a: LocalAccount) => Rendered): Routed =>
      account ? { rendered: render(account), platform: account.platform, accountKey: account.key, kind } : none(kind, null);

    if (p === "/robots.txt") return none("other", null, { status: 200, contentType: "text/plain; charset=utf-8", body: robots });

    // Weibo
    let m = /^\/u\/(\d+)\/?$/.exec(p) ?? /^\/p\/100505(\d+)\/?$/.exec(p);
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
      const a = accountOfPost(url.searchParams.get("id"));
      return { rendered: renderWeiboExtend(model, url), platform: "weibo", accountKey: a?.key ?? null, kind: "item" };
    }
    if (p === "/comments/hotflow") {
      const a = accountOfPost(url.searchParams.get("id"));
      return { rendered: renderWeiboHotflow(model, url, sizes), platform: "weibo", accountKey: a?.key ?? null, kind: "item" };
    }
    if (p === "/comments/hotFlowChild") {
      const a = accountOfPost(model.reply(url.searchParams.get("cid") ?? "")?.postId ?? null);
      return { rendered: renderWeiboHotFlowChild(model, url, sizes), platform: "weibo", accountKey: a?.key ?? null, kind: "item" };
    }

    // Tieba
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
    m = /^\/p\/(\d+)\/?$/.exec(p);
    if (m?.[1]) {
      const post = model.post(m[1]);
      return { rendered: renderTiebaThread(model, post, url, sizes), platform: "tieba", accountKey: post?.accountKey ?? null, kind: "item" };
    }

    // Discuz!
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
      return none("other", "discuz");
    }
    m = /\/forum-(\d+)-(\d+)\.html$/.exec(p);
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

    // Blogs
    m = /^\/blog\/([^/]+)\/(.*)$/.exec(p);
    if (m?.[1] !== undefined) {
      const account = model.findAccount("blog", decodeURIComponent(m[1]));
      const rest = m[2] ?? "";
      // Pages, feeds and comments of the blog themes: see blog.ts.
      if (!account)
        return none(/^(|index\.html|page\/\d+\/?|feed\/?|atom\.xml|rss\.xml)$/.test(rest) ? "list" : /^posts\//.test(rest) ? "item" : "other", null);
      const routed = routeBlog(model, account, rest, url, origin, sizes);
      return { rendered: routed.rendered, platform: "blog", accountKey: account.key, kind: routed.kind };
    }
    return none("other", null);
  }

  function takeFault(requested: URL): Fault | null {
    // The redirect-loop fault's own marker must not stop the fault from matching the next hop.
    const url = new URL(requested);
    url.searchParams.delete("_loop");
    const raw = url.pathname + url.search;
    let decoded = raw;
    try {
      decoded = decodeURIComponent(raw);
    } catch {
      // keep the raw form
    }
    for (const f of faults) {
      if (f.remaining <= 0) continue;
      const hit =
        typeof f.match === "string"
          ? raw.startsWith(f.match) || decoded.startsWith(f.match)
          : f.match instanceof RegExp
            ? f.match.test(raw) || f.match.test(decoded)
            : f.match(url);
      if (hit) {
        f.remaining--;
        f.hits++;
        return f.fault;
      }
    }
    return null;
  }

  function send(res: http.ServerResponse, r: Rendered): void {
    const gbk = r.charset === "gbk";
    const body = gbk ? iconv.encode(r.body, "gbk") : Buffer.from(r.body, "utf8");
    const contentType = gbk && options.gbkDeclared === "meta-only" ? "text/html" : r.contentType;
    res.writeHead(r.status, { "content-type": contentType, "content-length": String(body.length), ...r.headers });
    res.end(body);
  }

  /** Handles one request: faults first, then the router (`answer` differs for capture sites). */
  function handler(answer: (url: URL, cookie?: string) => Routed, serverOrigin: () => string): http.RequestListener {
    return (req, res) => {
      void (async () => {
        const url = new URL(req.url ?? "/", serverOrigin());
        const entry: RequestLogEntry = {
          seq: ++seq,
          method: req.method ?? "GET",
          url: url.pathname + url.search,
          path: url.pathname,
          origin: serverOrigin(),
          platform: null,
          accountKey: null,
          kind: "other",
          status: 0,
          fault: null,
          at: model.clock.now(),
          startedMs: Date.now(),
          endedMs: null,
          inFlightBefore: inFlight.get(serverOrigin()) ?? 0,
        };
        log.push(entry);
        inFlight.set(serverOrigin(), entry.inFlightBefore + 1);
        res.on("close", () => {
          entry.endedMs = Date.now();
          inFlight.set(serverOrigin(), (inFlight.get(serverOrigin()) ?? 1) - 1);
        });
        let routed: Routed;
        try {
          routed = answer(url, req.headers.cookie);
        } catch (err) {
          routed = { rendered: { status: 500, contentType: "text/plain", body: String(err) }, platform: null, accountKey: null, kind: "other" };
        }
        entry.platform = routed.platform;
        entry.accountKey = routed.accountKey;
        entry.kind = routed.kind;
        const fault = takeFault(url);
        let rendered = routed.rendered;
        if (fault) {
          entry.fault = fault.type;
          if (fault.type === "slow") await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
          else if (fault.type === "captcha") rendered = { status: 200, contentType: "text/html; charset=utf-8", body: BAIDU_CAPTCHA_PAGE };
          else if (fault.type === "status") {
            rendered = {
              status: fault.status,
              contentType: "text/html; charset=utf-8",
              body: fault.body ?? `<html><body>${fault.status}</body></html>`,
              ...(fault.retryAfterSeconds !== undefined ? { headers: { "retry-after": String(fault.retryAfterSeconds) } } : {}),
            };
          } else if (fault.type === "redirectLoop") {
            // a → b → a: the loop only shows after following two redirects.
            const next = new URL(url);
            if (next.searchParams.has("_loop")) next.searchParams.delete("_loop");
            else next.searchParams.set("_loop", "1");
            rendered = { status: 302, contentType: "text/html", body: "", headers: { location: next.pathname + next.search } };
          } else if (fault.type === "body") {
            rendered = { status: fault.status ?? 200, contentType: fault.contentType ?? "text/html; charset=utf-8", body: fault.body };
          }
        }
        entry.status = rendered.status;
        if (!res.destroyed) send(res, rendered);
      })();
    };
  }

  const servers: http.Server[] = [];
  const listen = async (server: http.Server): Promise<string> => {
    servers.push(server);
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.port ?? 0, host, () => resolve());
    });
    const addr = server.address() as AddressInfo;
    return `http://${host}:${addr.port}`;
  };

  // Member logins decorate the main server's answers (./login.ts); capture sites stay as captured.
  const main = http.createServer(
    handler(
      (url, cookie) => logins.apply(route(url), url, cookie),
      () => origin,
    ),
  );
  origin = await listen(main);

  // Real captures: one origin per captured site.
  let captures: Record<CaptureSiteName, CaptureSite> | null = null;
  let capturesSkipReason: string | null = null;
  if (options.realCaptures) {
    const found = locateCaptures(typeof options.realCaptures === "string" ? options.realCaptures : undefined);
    if ("reason" in found) {
      capturesSkipReason = found.reason;
      console.warn(`[local platforms] ${found.reason}: real captures are not served`);
    } else {
      const sites: Partial<Record<CaptureSiteName, CaptureSite>> = {};
      for (const name of Object.keys(CAPTURE_SITES) as CaptureSiteName[]) {
        const def = CAPTURE_SITES[name];
        let siteOrigin = "";
        const answer = (url: URL): Routed => {
          const hit = answerCapture(name, found.dir, url);
          return hit
            ? { rendered: hit.rendered, platform: def.platform, accountKey: `capture:${name}`, kind: hit.kind }
            : { rendered: notFound(), platform: def.platform, accountKey: `capture:${name}`, kind: "other" };
        };
        siteOrigin = await listen(http.createServer(handler(answer, () => siteOrigin)));
        sites[name] = { name, platform: def.platform, origin: siteOrigin, entryUrl: siteOrigin + def.entryPath };
      }
      captures = sites as Record<CaptureSiteName, CaptureSite>;
    }
  }

  const entryPath = (a: LocalAccount): string =>
    a.platform === "weibo"
      ? `/u/${a.slug}`
      : a.platform === "tieba"
        ? `/f?kw=${encodeURIComponent(a.slug)}`
        : a.platform === "discuz"
          ? `${DISCUZ_DIR}forum.php?mod=forumdisplay&fid=${a.slug}`
          : `/blog/${a.slug}/`;

  return {
    origin,
    model,
    clock: model.clock,
    accounts: model.accounts,
    pageSizes: sizes,
    account: (key) => model.account(key),
    entryUrl: (key) => origin + entryPath(model.account(key)),
    platformIdOf(item) {
      if ("postId" in item) {
        const post = model.postIncludingRemoved(item.postId);
        return post?.platform === "discuz" ? `p${item.id}` : item.id;
      }
      if (item.platform === "discuz") return `t${item.id}`;
      if (item.platform === "blog") return `/blog/${model.account(item.accountKey).slug}/posts/${item.id}/`;
      return item.id;
    },
    addPost: (...args) => model.addPost(...args),
    addReply: (...args) => model.addReply(...args),
    editPost: (...args) => model.editPost(...args),
    editReply: (...args) => model.editReply(...args),
    pin: (...args) => model.pin(...args),
    removePost: (...args) => model.removePost(...args),
    removeReply: (...args) => model.removeReply(...args),
    setEncoding: (...args) => model.setEncoding(...args),
    simulateActivity: (...args) => model.simulateActivity(...args),
    fault(match, fault) {
      const active: ActiveFault = { match, fault, remaining: fault.times ?? Number.POSITIVE_INFINITY, hits: 0 };
      faults.push(active);
      return {
        get hits() {
          return active.hits;
        },
        get remaining() {
          return active.remaining;
        },
        clear() {
          active.remaining = 0;
        },
      };
    },
    clearFaults() {
      faults.length = 0;
    },
    requests(filter = {}) {
      return log.filter(
        (e) =>
          (filter.accountKey === undefined || e.accountKey === filter.accountKey) &&
          (filter.platform === undefined || e.platform === filter.platform) &&
          (filter.kind === undefined || e.kind === filter.kind) &&
          (filter.afterSeq === undefined || e.seq > filter.afterSeq),
      );
    },
    lastSeq: () => seq,
    clearRequests() {
      log.length = 0;
    },
    logins,
    captures,
    capturesSkipReason,
    async close() {
      await Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((resolve) => {
              s.closeAllConnections();
              s.close(() => resolve());
            }),
        ),
      );
    },
  };
}
