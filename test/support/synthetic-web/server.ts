/**
 * Serve a synthetic web: one node:http server per host, every site on its own loopback address
 * (127.0.0.2 … 127.0.0.9, cycling) and its own port, the link farm on one more. Pages are
 * rendered on request from the model, so edits show at once. Conditional GET is answered
 * (ETag / If-None-Match, Last-Modified / If-Modified-Since → 304), robots.txt is served, and every
 * request is logged with how many requests to the same host were already in flight.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { ArticleModel, SiteModel, SyntheticWebModel } from "./model";
import { listPages, pathOf, renderPage, urlOf, WEB_EPOCH_MS, type Origins, type PageRef } from "./render";

/** Options of {@link startSyntheticWeb}. */
export interface SyntheticServerOptions {
  /** robots.txt of a site (null: 404, i.e. everything allowed). @default null for every site */
  robotsTxt?: (site: SiteModel) => string | null;
}

/** One served request. */
export interface SyntheticRequest {
  /** Host index (site index, or -1 for the farm). */
  host: number;
  path: string;
  status: number;
  /** Requests to the same host in flight when this one arrived (0 for a polite crawler). */
  inFlightBefore: number;
}

/** A running synthetic web. */
export interface SyntheticWeb {
  readonly model: SyntheticWebModel;
  readonly origins: Origins;
  /** URL of a page. */
  url(ref: PageRef): string;
  /** Home page of a site (the usual seed). */
  homeUrl(site: number): string;
  articleUrl(id: number): string;
  /**
   * The generator's label of the page at `url`: an article's label, a category list's label,
   * "farm" for the link farm, null for home pages, sitemaps, about pages and unknown URLs.
   */
  labelOf(url: string): string | null;
  /** Replace an article's body (a new version: its ETag and Last-Modified change). */
  editArticle(id: number, body: string): void;
  readonly requests: readonly SyntheticRequest[];
  /** Largest `inFlightBefore` seen on any host. */
  maxInFlight(): number;
  close(): Promise<void>;
}

/** Route key of a path: pathname plus its query parameters sorted (crawlers reorder them). */
function routeKey(pathAndQuery: string): string {
  const u = new URL(pathAndQuery, "http://x");
  const params = [...u.searchParams].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return u.pathname + (params.length ? `?${new URLSearchParams(params).toString()}` : "");
}

/** Start the servers. */
export async function startSyntheticWeb(model: SyntheticWebModel, options: SyntheticServerOptions = {}): Promise<SyntheticWeb> {
  // Routes per host: route key → page.
  const routes = new Map<number, Map<string, PageRef>>();
  const add = (ref: PageRef) => {
    const host = ref.kind === "farm" ? -1 : ref.kind === "article" ? (model.articles[ref.id] as ArticleModel).site : ref.site;
    let m = routes.get(host);
    if (!m) routes.set(host, (m = new Map<string, PageRef>()));
    m.set(routeKey(pathOf(model, ref)), ref);
  };
  for (const s of model.sites) {
    add({ kind: "home", site: s.index });
    add({ kind: "sitemap", site: s.index });
    add({ kind: "about", site: s.index, which: "about" });
    add({ kind: "about", site: s.index, which: "contact" });
    for (const label of model.labels) {
      const pages = listPages(model, s.index, label);
      for (let p = 1; p <= pages; p++) add({ kind: "list", site: s.index, label, page: p });
    }
  }
  for (const a of model.articles) add({ kind: "article", id: a.id });
  for (const f of model.farm) add({ kind: "farm", id: f.id });

  const log: SyntheticRequest[] = [];
  const inFlight = new Map<number, number>();
  let maxSeen = 0;
  // Hubs list articles, so any edit changes them: one counter versions every non-article page.
  let webVersion = 1;
  const origins: { sites: string[]; farm: string } = { sites: [], farm: "" };

  const handler = (host: number) => (req: http.IncomingMessage, res: http.ServerResponse) => {
    const before = inFlight.get(host) ?? 0;
    maxSeen = Math.max(maxSeen, before);
    inFlight.set(host, before + 1);
    const path = req.url ?? "/";
    const finish = (status: number, headers: Record<string, string>, body = "") => {
      res.writeHead(status, headers);
      res.end(body);
      log.push({ host, path, status, inFlightBefore: before });
      inFlight.set(host, (inFlight.get(host) ?? 1) - 1);
    };
    if (path === "/robots.txt") {
      const site = host >= 0 ? model.sites[host] : undefined;
      const txt = site && options.robotsTxt ? options.robotsTxt(site) : null;
      return txt === null ? finish(404, { "content-type": "text/plain" }, "not found") : finish(200, { "content-type": "text/plain" }, txt);
    }
    const ref = routes.get(host)?.get(routeKey(path));
    if (!ref) return finish(404, { "content-type": "text/html; charset=utf-8" }, "<html><body><h1>404 页面不存在</h1></body></html>");
    const art = ref.kind === "article" ? (model.articles[ref.id] as ArticleModel) : null;
    const etag = art ? `"a${art.id}-v${art.version}"` : `"w${webVersion}"`;
    const modified = new Date(WEB_EPOCH_MS + (art ? art.modifiedAt : 0) * 60_000 + (art ? 0 : webVersion * 60_000));
    const lastModified = modified.toUTCString();
    const inm = req.headers["if-none-match"];
    const ims = req.headers["if-modified-since"];
    const notModified = inm !== undefined ? inm === etag : ims !== undefined && Date.parse(ims) >= Math.floor(modified.getTime() / 1000) * 1000;
    if (notModified) return finish(304, { etag, "last-modified": lastModified });
    const html = renderPage(model, origins, ref);
    finish(200, { "content-type": "text/html; charset=utf-8", etag, "last-modified": lastModified }, html);
  };

  const servers: http.Server[] = [];
  const listen = async (host: number, address: string): Promise<string> => {
    const server = http.createServer(handler(host));
    server.keepAliveTimeout = 5_000;
    servers.push(server);
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, address, () => resolve());
    });
    return `http://${address}:${(server.address() as AddressInfo).port}`;
  };
  for (const s of model.sites) origins.sites.push(await listen(s.index, s.address));
  if (model.farm.length > 0) origins.farm = await listen(-1, model.farmAddress);

  // Reverse lookup for labelOf: origin+route → page.
  const byUrl = new Map<string, PageRef>();
  for (const [host, m] of routes) {
    const origin = host < 0 ? origins.farm : (origins.sites[host] as string);
    for (const [key, ref] of m) byUrl.set(origin + key, ref);
  }

  return {
    model,
    origins,
    url: (ref) => urlOf(model, origins, ref),
    homeUrl: (site) => urlOf(model, origins, { kind: "home", site }),
    articleUrl: (id) => urlOf(model, origins, { kind: "article", id }),
    labelOf(url) {
      let u: URL;
      try {
        u = new URL(url);
      } catch {
        return null;
      }
      const ref = byUrl.get(u.origin + routeKey(u.pathname + u.search));
      if (!ref) return null;
      if (ref.kind === "article") return (model.articles[ref.id] as ArticleModel).label;
      if (ref.kind === "list") return ref.label;
      if (ref.kind === "farm") return "farm";
      return null;
    },
    editArticle(id, body) {
      const a = model.articles[id] as ArticleModel;
      a.body = body;
      a.version++;
      a.modifiedAt += 24 * 60;
      webVersion++;
    },
    get requests() {
      return log;
    },
    maxInFlight: () => maxSeen,
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
