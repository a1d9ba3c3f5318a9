/**
 * The public shapes of the fetcher: its options, the per-request report, the counters and the
 * fetcher interface. Apart from ./fetcher.ts so the composition there stays short; importers keep
 * importing them from ./fetcher (or the module index), which re-exports them.
 */
import type { FetchMode, Fetcher, PageKind } from "../types";
import type { AddressPolicy } from "./address-policy";
import type { Cookie } from "./cookies";
import type { HostGate } from "./politeness";
import type { ProxySetting } from "./proxy";

/** Honest default User-Agent: names the bot, so site owners can recognise it and address it in robots.txt. */
export const DEFAULT_USER_AGENT = "CampusWatch/0.1 (topic monitoring crawler; honours robots.txt)";

/** What {@link FetcherOptions.onRequest} receives, once per `get()` when it settles. */
export interface RequestInfo {
  /** The URL asked for (before redirects). */
  url: string;
  kind: PageKind;
  /** Status of the last response seen; 0 when no response arrived. */
  status: number;
  /** Body bytes received for this `get()`, retries and redirects included. */
  bytes: number;
  viaBrowser: boolean;
  /** Wall time of the `get()`, queueing and back-off included. */
  ms: number;
  /** Set when the `get()` threw (the same error the caller receives). */
  error?: Error;
}

/** Counters over a fetcher's life (see {@link PoliteFetcher.stats}). */
export interface FetcherStats {
  /** Requests sent: every attempt, redirect hop, robots.txt and browser navigation. */
  requests: number;
  /** Body bytes received over all requests. */
  bytes: number;
  /** Successful `get()` calls by page kind. */
  byKind: Record<PageKind, number>;
  /** Requests made through Chromium (page renders and cookie refreshes). */
  viaBrowser: number;
  /** Attempts repeated after a transient failure, a throttle status or a cookie refresh. */
  retries: number;
  /** `get()` calls that ended in a BlockedError. */
  blocks: number;
}

/** Options of createFetcher (./fetcher.ts). Durations in milliseconds. */
export interface FetcherOptions {
  /**
   * User-Agent of every request, HTTP and browser alike, and the agent robots.txt rules are
   * matched against (by its product token, e.g. `CampusWatch`). Per-request headers cannot
   * override it, so what robots.txt allowed is what is sent.
   * @default DEFAULT_USER_AGENT
   */
  userAgent?: string;
  /** `http` never uses Chromium; `browser` renders every request; `auto` renders when `get()` asks with `browser: true`. @default "auto" */
  mode?: FetchMode;
  /** The per-host queue. Share one among all fetchers of a process (the default does); tests pass their own. @default defaultHostScheduler */
  scheduler?: HostGate;
  /** Minimum gap between the end of one request to a host and the start of the next; a larger robots.txt Crawl-delay wins. 0 allowed. @default 1000 */
  hostDelayMs?: number;
  /** Fetch and obey robots.txt (Disallow and Crawl-delay). @default true */
  respectRobots?: boolean;
  /**
   * The account's robots.txt policy (or a loader for it, awaited once): `ignore`, for boards the
   * operator runs or may crawl, skips Disallow rules but still honours Crawl-delay as a minimum
   * delay. Only meaningful with `respectRobots`. @default "obey"
   */
  robotsPolicy?: RobotsPolicy | (() => Promise<RobotsPolicy>);
  /** Retries after a network error, timeout, 5xx or throttle status, on top of the first attempt. @default 3 */
  retries?: number;
  /** First back-off wait; doubled on every further retry. @default 500 */
  backoffBaseMs?: number;
  /** Longest Retry-After we wait out; a host asking for more gets a BlockedError at once. Also caps back-off. @default 60000 */
  maxRetryAfterMs?: number;
  /** Deadline of one request, headers and body together (one page load in the browser). @default 20000 */
  requestTimeoutMs?: number;
  /** Largest body accepted, counted after un-gzipping; more is a NonRetryableError. @default 5242880 (5 MiB) */
  maxBodyBytes?: number;
  /** Redirects followed per `get()`; more, or a URL seen twice, is a NonRetryableError "redirect loop". @default 10 */
  maxRedirects?: number;
  /** Chromium executable. @default process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" */
  chromiumPath?: string;
  /** Close the shared browser after this long without any fetcher using it. @default 60000 */
  browserIdleMs?: number;
  /**
   * Which hosts may be contacted (SSRF protection, see ./address-policy): every request — the
   * first, each redirect hop, robots.txt, binary image downloads — is checked before it is sent
   * and again when its connection opens, and a refusal is an AddressRefusedError (never retried).
   * @default none: every address is allowed (tests and benchmarks that build fetchers directly)
   */
  addressPolicy?: AddressPolicy;
  /**
   * Cookies the jar starts with: an account's login cookies (server/account-access.ts), or a
   * loader for them, awaited before the first request. The jar sends each only to the hosts it
   * belongs to, over plain HTTP and in Chromium alike.
   */
  cookies?: readonly Cookie[] | (() => Promise<readonly Cookie[]>);
  /**
   * The proxy every request goes through, plain HTTP and Chromium alike (see ./proxy.ts): a URL
   * (`http://`, `https://`, `socks5://`, `socks5h://`, credentials allowed), or a loader awaited
   * before the first request. Politeness and robots.txt stay keyed by the target host. A failure
   * at the proxy is a ProxyError naming it (password masked), never the site's failure.
   * @default none: direct connections
   */
  proxy?: ProxySetting;
  /** Called once per `get()` when it settles, e.g. for the worker to count list/item pages on its crawl run. */
  onRequest?: (info: RequestInfo) => void;
  /** Where notable events go (robots.txt unreachable, throttling, cookie refresh). @default console.warn */
  log?: (message: string) => void;
}

/** Whether an account's crawls obey robots.txt Disallow rules (Crawl-delay is always honoured). */
export type RobotsPolicy = "obey" | "ignore";

/** A {@link Fetcher} that holds resources (connections, a browser context) until closed. */
export interface PoliteFetcher extends Fetcher {
  /** Close connections and this fetcher's browser context. The shared browser stays (see closeSharedBrowser). */
  close(): Promise<void>;
  /** A snapshot of this fetcher's counters. */
  stats(): FetcherStats;
  /**
   * Open `url` in Chromium (politely, like any request) and copy the browser's cookies into this
   * fetcher's jar: how Weibo's visitor cookies, set by script, reach plain HTTP requests.
   * Resolves to the number of cookies copied.
   */
  refreshCookiesViaBrowser(url: string): Promise<number>;
}
