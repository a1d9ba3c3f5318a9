/**
 * The adapters: each platform's crawl behaviour, attached to its registry entry (lib/platforms).
 * Every adapter has one layout: `./<id>/index.ts` exports the adapter, whose `platform` is its
 * registry entry's id and whose `recognise` is the entry's; its helper modules sit beside it in
 * that folder. Keyword watches (a platform's own search) are in ./search.
 *
 * Adding a platform: its registry entry (lib/platforms) and its adapter folder here, listed once
 * below. test/unit/platforms/registry.test.ts fails when a registry entry has no adapter.
 */
import { platformOfUrl, PLATFORMS } from "../../lib/platforms";
import type { Adapter, Platform } from "../types";
import { blogAdapter } from "./blog";
import { discuzAdapter } from "./discuz";
import { searchAdapterFor, searchWatchOf } from "./search";
import { tiebaAdapter } from "./tieba";
import { wechatAdapter } from "./wechat";
import { weiboAdapter } from "./weibo";

/** Every adapter, keyed by the registry id each names. */
const ADAPTERS: ReadonlyMap<string, Adapter> = new Map([weiboAdapter, tiebaAdapter, discuzAdapter, wechatAdapter, blogAdapter].map((a) => [a.platform, a]));

/** The registry's platforms that have no adapter (none, unless one is forgotten). */
export function platformsWithoutAdapter(): Platform[] {
  return PLATFORMS.filter((p) => !ADAPTERS.has(p));
}

/**
 * The adapter of a platform; with the account's entry URL, a keyword watch (the platform's own
 * search, ./search) gets its search adapter instead.
 */
export function getAdapter(platform: Platform, entryUrl?: string): Adapter {
  const adapter = (entryUrl !== undefined ? searchAdapterFor(platform, entryUrl) : null) ?? ADAPTERS.get(platform);
  if (!adapter) throw new Error(`no adapter for platform ${JSON.stringify(platform)}`);
  return adapter;
}

/**
 * The platform an entry URL belongs to: a platform's search (a keyword watch) by its shape on any
 * host, else the registry's recognisers in order (lib/platforms platformOfUrl: by host or by path
 * shape; the fallback, a blog, takes any other http(s) URL).
 * Returns null for unparseable or non-http(s) URLs.
 */
export function recognisePlatform(url: string | URL): Platform | null {
  let u: URL;
  try {
    u = typeof url === "string" ? new URL(url) : url;
  } catch {
    return null;
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") return null;
  // A platform's search (a keyword watch) is recognised by its shape on any host.
  const watch = searchWatchOf(u);
  if (watch) return watch.platform;
  return platformOfUrl(u);
}

export { createBlogAdapter, looksLikeFeed, parseBlogArticle, parseBlogListing, parseFeed } from "./blog";
export { DISCUZ_BOARD_FORMS, discuzBoardFromUrl, discuzThreadFromUrl, parseDiscuzCommentMore, parseDiscuzList, parseDiscuzThread } from "./discuz";
export { extractTiebaThreadList, parseTiebaList, parseTiebaThread, TIEBA_PAGE_SIZE, tiebaBarFromUrl, tiebaDesktopListUrl, tiebaEntryUrl } from "./tieba";
export { mblogToListItem, weiboUidFromUrl } from "./weibo";
export { parseWechatArticle } from "./wechat";
export {
  buildSearchUrl,
  DEFAULT_SEARCH_PAGES,
  MAX_SEARCH_PAGES,
  PAGES_PARAM,
  SEARCH_PLATFORMS,
  SEARCH_URL_EXAMPLES,
  searchUrlProblem,
  searchUrlProblemCode,
  searchWatchOf,
} from "./search";
export type { SearchPlatform, SearchWatch, WatchRequest } from "./search";
