/**
 * Keyword watches: the search adapters of Weibo, Tieba and Discuz!, chosen by the account's
 * entry URL (./recognise.ts). A watch is an account like any other (crawled on its cron, stored
 * under its own id); its items carry the same platform ids as the platform adapters give the
 * same posts, so a post found by a watch and by an account is recognisably the same post.
 */
import type { Adapter, Platform } from "../../types";
import { discuzSearchAdapter } from "./discuz";
import { searchWatchOf, type SearchPlatform } from "./recognise";
import { tiebaSearchAdapter } from "./tieba";
import { weiboSearchAdapter } from "./weibo";

const SEARCH_ADAPTERS: Record<SearchPlatform, Adapter> = {
  weibo: weiboSearchAdapter,
  tieba: tiebaSearchAdapter,
  discuz: discuzSearchAdapter,
};

/** The search adapter for an account of `platform` whose entry URL is that platform's search, else null. */
export function searchAdapterFor(platform: Platform, entryUrl: string): Adapter | null {
  const watch = searchWatchOf(entryUrl);
  return watch && watch.platform === platform ? SEARCH_ADAPTERS[watch.platform] : null;
}

export {
  buildSearchUrl,
  DEFAULT_SEARCH_PAGES,
  MAX_SEARCH_PAGES,
  PAGES_PARAM,
  SEARCH_PLATFORMS,
  SEARCH_TIME_PAGE_CAP,
  SEARCH_URL_EXAMPLES,
  searchUrlProblem,
  searchUrlProblemCode,
  searchWatchOf,
} from "./recognise";
export type { SearchPlatform, SearchWatch, WatchRequest } from "./recognise";
export { parseDiscuzSearch } from "./discuz";
export { parseTiebaSearch, TIEBA_SEARCH_PAGE_SIZE, tiebaSearchPath } from "./tieba";
export { searchMblogs, weiboSearchApiPath } from "./weibo";
