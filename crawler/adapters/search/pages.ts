/**
 * The page loop every keyword watch shares: how many result pages one run reads, and how each
 * page is marked for the worker's walk (results by relevance must not stop it at the history
 * mark: an old result on page 1 says nothing about page 2).
 */
import { NonRetryableError } from "../../errors";
import type { AdapterContext, ListItem, ListPage } from "../../types";
import { SEARCH_TIME_PAGE_CAP, searchWatchOf, type SearchPlatform, type SearchWatch } from "./recognise";

/** One result page as a platform module reads it. */
export interface ResultPage {
  url: string;
  items: ListItem[];
  /** The page says there is a next page (a pager link, a next page number). */
  more: boolean;
}

/** The watch of this run's account; a URL that is no (longer a) search is refused by name. */
export function watchOf(ctx: AdapterContext, platform: SearchPlatform): SearchWatch {
  const watch = searchWatchOf(ctx.account.entryUrl);
  if (!watch || watch.platform !== platform) {
    throw new NonRetryableError(`not a ${platform} search URL with a word: ${ctx.account.entryUrl}`, ctx.account.entryUrl);
  }
  return watch;
}

/**
 * Read result pages 1, 2, … : to the watch's page count when the order is by relevance (every
 * page marked `orderedByRelevance`), or until the walk stops at the history mark (at most
 * {@link SEARCH_TIME_PAGE_CAP} pages) when it is by time. Stops early at a page without results
 * or without a next page.
 */
export async function* readResultPages(watch: SearchWatch, read: (page: number) => Promise<ResultPage>): AsyncGenerator<ListPage> {
  const limit = watch.byTime ? SEARCH_TIME_PAGE_CAP : watch.pages;
  for (let n = 1; n <= limit; n++) {
    const page = await read(n);
    if (page.items.length === 0) return;
    yield watch.byTime ? { url: page.url, items: page.items } : { url: page.url, items: page.items, orderedByRelevance: true };
    if (!page.more) return;
  }
}
