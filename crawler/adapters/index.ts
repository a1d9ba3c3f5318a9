/**
 * The adapter registry: platform → adapter, and which platform an entry URL belongs to.
 * Adding a platform means one module in this folder plus one line in ADAPTERS (and, if its URLs
 * are not recognisable by host, a place in RECOGNITION_ORDER before the blog fallback).
 */
import type { Adapter, Platform } from "../types";
import { blogAdapter } from "./blog";
import { discuzAdapter } from "./discuz";
import { searchAdapterFor, searchWatchOf } from "./search";
import { tiebaAdapter } from "./tieba";
import { weiboAdapter } from "./weibo";

const ADAPTERS: Record<Platform, Adapter> = {
  weibo: weiboAdapter,
  tieba: tiebaAdapter,
  discuz: discuzAdapter,
  blog: blogAdapter,
};

/** Most specific first: blog accepts any http(s) URL, so it must stay last. */
const RECOGNITION_ORDER: readonly Platform[] = ["weibo", "tieba", "discuz", "blog"];

/**
 * The adapter of a platform; with the account's entry URL, a keyword watch (the platform's own
 * search, ./search) gets its search adapter instead.
 */
export function getAdapter(platform: Platform, entryUrl?: string): Adapter {
  return (entryUrl !== undefined ? searchAdapterFor(platform, entryUrl) : null) ?? ADAPTERS[platform];
}

/**
 * The platform an entry URL belongs to: by host (weibo.com, m.weibo.cn, weibo.cn,
 * tieba.baidu.com) or by path shape (`/u/{uid}`, `/p/100505{uid}`, `/f?kw=`, Discuz! boards and
 * threads in every form of ./discuz-urls.ts); any other http(s) URL is a blog.
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
  return RECOGNITION_ORDER.find((p) => ADAPTERS[p].recognise(u)) ?? null;
}

export { createBlogAdapter, looksLikeFeed, parseBlogArticle, parseBlogListing, parseFeed } from "./blog";
export { DISCUZ_BOARD_FORMS, discuzBoardFromUrl, discuzThreadFromUrl, parseDiscuzCommentMore, parseDiscuzList, parseDiscuzThread } from "./discuz";
export { extractTiebaThreadList, parseTiebaList, parseTiebaThread, TIEBA_PAGE_SIZE, tiebaBarFromUrl, tiebaDesktopListUrl, tiebaEntryUrl } from "./tieba";
export { mblogToListItem, weiboUidFromUrl } from "./weibo";
export {
  buildSearchUrl,
  DEFAULT_SEARCH_PAGES,
  MAX_SEARCH_PAGES,
  PAGES_PARAM,
  SEARCH_PLATFORMS,
  SEARCH_URL_EXAMPLES,
  searchUrlProblem,
  searchWatchOf,
} from "./search";
export type { SearchPlatform, SearchWatch, WatchRequest } from "./search";
