/**
 * The REAL captured pages (../shared/fixtures/real, see SOURCES.txt there), served at the paths
 * the real sites use, one local origin per captured site so that links inside them resolve as
 * they would on the real host. The files are read at run time and never copied into the repo;
 * when the folder is absent everything here reports why and serves nothing.
 */
import fs from "node:fs";
import path from "node:path";
import type { PageKind, Platform } from "../../../crawler/types";
import { json, type Rendered } from "./responses";

/** The captured sites. */
export type CaptureSiteName = "weibo" | "weiboCn" | "tieba" | "discuz" | "hexo" | "wordpress";

/** One captured site served locally. */
export interface CaptureSite {
  name: CaptureSiteName;
  platform: Platform;
  /** `http://127.0.0.1:PORT` of this site's own server. */
  origin: string;
  /** The account entry URL to crawl it with. */
  entryUrl: string;
}

interface CaptureRoute {
  match(url: URL): boolean;
  kind: PageKind;
  /** A capture file name, or a synthesised answer for requests the capture needs around it. */
  file?: string;
  contentType?: string;
  synth?: () => Rendered;
}

interface CaptureSiteDef {
  platform: Platform;
  entryPath: string;
  routes: CaptureRoute[];
}

const WEIBO_UID = "1669879400";
const TIEBA_KW = "盗墓笔记";
const TIEBA_TID = "9117905169";

const q = (url: URL, key: string): string | null => url.searchParams.get(key);

/** Capture sites and the paths each serves. */
export const CAPTURE_SITES: Record<CaptureSiteName, CaptureSiteDef> = {
  weibo: {
    platform: "weibo",
    entryPath: `/u/${WEIBO_UID}`,
    routes: [
      {
        // The timeline capture (2019 API: paged by `page`, no since_id).
        match: (u) =>
          u.pathname === "/api/container/getIndex" &&
          q(u, "value") === WEIBO_UID &&
          q(u, "containerid") === `107603${WEIBO_UID}` &&
          !q(u, "page") &&
          !q(u, "since_id"),
        kind: "list",
        file: "weibo_m_getIndex_107603_timeline.json",
        contentType: "application/json; charset=utf-8",
      },
      {
        // Synthesised, not captured: the container lookup the adapter asks first.
        match: (u) => u.pathname === "/api/container/getIndex" && q(u, "value") === WEIBO_UID && !q(u, "containerid"),
        kind: "list",
        synth: () => json({ ok: 1, data: { tabsInfo: { tabs: [{ tab_type: "weibo", containerid: `107603${WEIBO_UID}` }] } } }),
      },
      {
        // Only one page was captured: later pages are "no more content", as Weibo answers.
        match: (u) => u.pathname === "/api/container/getIndex",
        kind: "list",
        synth: () => json({ ok: 0, msg: "这里还没有内容", data: { cards: [] } }),
      },
    ],
  },
  weiboCn: {
    platform: "weibo",
    entryPath: `/${WEIBO_UID}/profile?page=1`,
    routes: [{ match: (u) => u.pathname === `/${WEIBO_UID}/profile` && (q(u, "page") ?? "1") === "1", kind: "list", file: "weibo_cn_profile_page1.html" }],
  },
  tieba: {
    platform: "tieba",
    entryPath: `/f?kw=${encodeURIComponent(TIEBA_KW)}`,
    routes: [
      { match: (u) => u.pathname === "/f" && q(u, "kw") === TIEBA_KW && (q(u, "pn") ?? "0") === "0", kind: "list", file: "tieba_forum_list_frs.html" },
      { match: (u) => u.pathname === `/p/${TIEBA_TID}` && (q(u, "pn") ?? "1") === "1", kind: "item", file: "tieba_thread_detail_pb.html" },
    ],
  },
  discuz: {
    platform: "discuz",
    entryPath: "/2b/forum-6-1.html",
    routes: [
      {
        match: (u) => u.pathname.endsWith("/api/mobile/index.php") && q(u, "module") === "forumdisplay" && q(u, "fid") === "6" && (q(u, "page") ?? "1") === "1",
        kind: "list",
        file: "discuz_mobile_api_forumdisplay_s1.json",
        contentType: "application/json; charset=utf-8",
      },
    ],
  },
  hexo: {
    platform: "blog",
    entryPath: "/",
    routes: [{ match: (u) => u.pathname === "/" || u.pathname === "/index.html", kind: "list", file: "hexo_next_blog_index.html" }],
  },
  wordpress: {
    platform: "blog",
    entryPath: "/author/zhaoshuai/",
    routes: [
      { match: (u) => u.pathname === "/feed/", kind: "list", file: "wordpress_feed_zh.xml", contentType: "application/rss+xml; charset=UTF-8" },
      { match: (u) => u.pathname === "/author/zhaoshuai/", kind: "list", file: "wordpress_author_listing.html" },
    ],
  },
};

/** Where the real captures are by default: `../shared/fixtures/real` beside the repo. */
export const DEFAULT_CAPTURES_DIR = path.resolve(import.meta.dirname, "../../../../shared/fixtures/real");

/** The captures folder if it exists, else the reason it cannot be used. */
export function locateCaptures(dir: string = DEFAULT_CAPTURES_DIR): { dir: string } | { reason: string } {
  if (!fs.existsSync(dir)) return { reason: `real captures not found at ${dir} (the shared folder is not beside the repo)` };
  const missing = Object.values(CAPTURE_SITES)
    .flatMap((s) => s.routes.map((r) => r.file))
    .filter((f): f is string => f !== undefined && !fs.existsSync(path.join(dir, f)));
  if (missing.length > 0) return { reason: `real captures incomplete in ${dir}: missing ${missing.join(", ")}` };
  return { dir };
}

/** The answer of a capture site to a request, or null when it has no such page. */
export function answerCapture(site: CaptureSiteName, dir: string, url: URL): { rendered: Rendered; kind: PageKind } | null {
  const route = CAPTURE_SITES[site].routes.find((r) => r.match(url));
  if (!route) return null;
  if (route.synth) return { rendered: route.synth(), kind: route.kind };
  if (!route.file) return null;
  const body = fs.readFileSync(path.join(dir, route.file), "utf8");
  return { rendered: { status: 200, contentType: route.contentType ?? "text/html; charset=utf-8", body }, kind: route.kind };
}
