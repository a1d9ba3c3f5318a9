/**
 * Shared by the adapter integration tests: the real fetcher (no politeness delay, no robots.txt,
 * tiny back-off so scripted 418s cost nothing) and contexts for local platform accounts.
 */
import { createFetcher, HostScheduler, type PoliteFetcher } from "../../../crawler/fetch";
import type { AdapterContext, ListPage, ThreadPage } from "../../../crawler/types";
import type { LocalPlatforms } from "../../support/platforms";

/** A fresh fetcher with its own host queue, so tests never wait on each other. */
export function localFetcher(): PoliteFetcher {
  return createFetcher({
    hostDelayMs: 0,
    respectRobots: false,
    mode: "http",
    retries: 2,
    backoffBaseMs: 1,
    maxRetryAfterMs: 1_000,
    scheduler: new HostScheduler(),
    log: () => {},
  });
}

/** The adapter context of a local account, crawling at the site's clock time. */
export function contextFor(site: LocalPlatforms, key: string, fetch: PoliteFetcher, entryUrl = site.entryUrl(key)): AdapterContext {
  const account = site.account(key);
  return { account: { id: 1, entryUrl, platform: account.platform, fetchMode: "http" }, fetch, now: site.clock.now(), log: () => {}, warn: () => {} };
}

/** Every page of a listing or thread (tests only). */
export async function all<T extends ListPage | ThreadPage>(pages: AsyncIterable<T>, max = 200): Promise<T[]> {
  const out: T[] = [];
  for await (const page of pages) {
    out.push(page);
    if (out.length >= max) throw new Error(`more than ${max} pages: paging loops?`);
  }
  return out;
}

/** Only the first page of a listing: the consumer stops there, so nothing more is fetched. */
export async function firstPage(pages: AsyncIterable<ListPage>): Promise<ListPage> {
  for await (const page of pages) return page;
  throw new Error("the listing has no page");
}

/** Request log lines "kind path?query" for compact assertions. */
export function trail(site: LocalPlatforms, afterSeq = 0): string[] {
  return site.requests({ afterSeq }).map((r) => `${r.kind} ${decodeURIComponent(r.url)}`);
}

export const HOUR = 3_600_000;
export const DAY = 86_400_000;
