/**
 * createFetcher: the crawler's only way onto the network. It wraps single requests (./http, or
 * Chromium via ./browser) in everything that makes a crawler a good guest and a reliable reader:
 * the shared per-host queue, robots.txt, retries and back-off, redirects, block detection and a
 * per-account cookie jar. Adapters see only `get(url, options)` and the error classes.
 */
import { Agent, type Dispatcher } from "undici";
import type { BrowserContext, Page } from "playwright-core";
import { BlockedError, FatalError, NonRetryableError, RetryableError } from "../errors";
import type { FetchMode, FetchOptions, FetchResult, Fetcher, PageKind } from "../types";
import { AddressRefusedError, createGuardedAgent, type AddressPolicy } from "./address-policy";
import { BrowserSession, chromiumAvailable, chromiumPath } from "./browser";
import { detectBlock, type BlockSignal } from "./captcha";
import { CookieJar, type Cookie } from "./cookies";
import { decodeBody } from "./decode";
import { BodyTooLargeError, TimeoutError, httpGet } from "./http";
import { type HostGate, defaultHostScheduler, hostKey, sleep } from "./politeness";
import { backoffDelay, parseRetryAfter } from "./retry";
import { robotsCacheFor, type RobotsResponse } from "./robots";
import { createProxyAgent, ProxyError, proxyErrorOf, resolveProxySetting, type ProxyConfig, type ProxySetting } from "./proxy";

/** Honest default User-Agent: names the bot, so site owners can recognise it and address it in robots.txt. */
export const DEFAULT_USER_AGENT = "CampusWatch/0.1 (topic monitoring crawler; honours robots.txt)";

/** Statuses by which a host says "slow down" rather than "this failed". */
const THROTTLE_STATUSES = new Set([418, 429, 432, 503]);
/** RFC 9309 asks crawlers to read at least 500 KiB of robots.txt; more is not worth holding. */
const ROBOTS_MAX_BYTES = 512 * 1024;
/** RFC 9309 §2.3.1.2: follow at least five redirects for robots.txt. */
const ROBOTS_MAX_REDIRECTS = 5;
/**
 * After `load`, how long a rendered page may keep fetching (lists built from XHR) before we read
 * it. Bounded so a page that polls forever still returns.
 */
const BROWSER_SETTLE_MS = 3_000;

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

/** Options of {@link createFetcher}. Durations in milliseconds. */
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
   * Cookies the jar starts with: an account's login cookies (lib/queries/account-access.ts), or a
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

/** One response from either path, before its status is judged. */
interface Exchange {
  /** The URL that answered (the browser may have followed redirects itself). */
  url: string;
  status: number;
  headers: Record<string, string>;
  contentType: string;
  bytes: number;
  text: string;
  /** Raw body bytes (plain HTTP only), handed out when the caller asked for `binary`. */
  raw?: Uint8Array;
  viaBrowser: boolean;
}

/** Running totals of one `get()`, for its RequestInfo. */
interface Trace {
  status: number;
  bytes: number;
  viaBrowser: boolean;
}

/**
 * Create a fetcher: one per account, so each has its own cookies and browser context, while all
 * share the per-host queue and robots.txt knowledge of their scheduler.
 */
export function createFetcher(options: FetcherOptions = {}): PoliteFetcher {
  const userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
  const mode = options.mode ?? "auto";
  const scheduler = options.scheduler ?? defaultHostScheduler;
  const hostDelayMs = Math.max(0, options.hostDelayMs ?? 1_000);
  const respectRobots = options.respectRobots ?? true;
  const retries = Math.max(0, options.retries ?? 3);
  const backoffBaseMs = options.backoffBaseMs ?? 500;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
  const timeoutMs = options.requestTimeoutMs ?? 20_000;
  const maxBodyBytes = options.maxBodyBytes ?? 5 * 1024 * 1024;
  const maxRedirects = options.maxRedirects ?? 10;
  const executablePath = chromiumPath(options.chromiumPath);
  const log = options.log ?? ((message: string) => console.warn(`[fetch] ${message}`));

  const robots = robotsCacheFor(scheduler);
  let robotsPolicyLoaded: Promise<RobotsPolicy> | null = null;
  const robotsPolicyOnce = (): Promise<RobotsPolicy> =>
    (robotsPolicyLoaded ??= Promise.resolve(typeof options.robotsPolicy === "function" ? options.robotsPolicy() : (options.robotsPolicy ?? "obey")).then((p) =>
      p === "ignore" ? "ignore" : "obey",
    ));
  const jar = new CookieJar();
  // The operator's cookies go in before the first request (a loader is awaited once, lazily).
  let seeded: Promise<void> | null = null;
  const seedJar = (): Promise<void> =>
    (seeded ??= Promise.resolve(typeof options.cookies === "function" ? options.cookies() : (options.cookies ?? [])).then((list) => {
      for (const c of list) jar.put(c);
    }));
  const policy = options.addressPolicy;
  // The proxy is known before the first request (an account's is read from the database then).
  // A loader that fails fails every request: nothing is sent directly instead.
  let proxyLoaded: Promise<ProxyConfig | null> | undefined;
  const proxyOnce = (): Promise<ProxyConfig | null> => (proxyLoaded ??= resolveProxySetting(options.proxy));
  /** Set when the proxy is down or refuses our credentials: the rest of this crawl fails fast instead of retrying every page. */
  let proxyDown: ProxyError | undefined;
  // Keep-alive: with one request at a time per host, one warm connection per host is all we need.
  // With a policy, the agent checks addresses when it connects (no DNS rebinding past the check);
  // through a proxy, the proxy connects, and targets are checked before sending (./proxy.ts).
  let agentReady: Promise<Dispatcher> | undefined;
  const dispatcher = (): Promise<Dispatcher> =>
    (agentReady ??= proxyOnce().then((proxy) =>
      proxy
        ? createProxyAgent(proxy, { policy, keepAliveTimeout: 10_000, connectTimeoutMs: Math.min(timeoutMs, 10_000) })
        : policy
          ? createGuardedAgent(policy, { keepAliveTimeout: 10_000 })
          : new Agent({ keepAliveTimeout: 10_000 }),
    ));
  // Chromium's own connections (sub-resources, redirects it follows) obey the same policy.
  const browser = new BrowserSession({
    executablePath,
    userAgent,
    idleMs: options.browserIdleMs ?? 60_000,
    // Chromium's connections obey the same policy: every request, redirect hop, iframe and worker.
    addressPolicy: policy,
    // Chromium's traffic leaves through the same proxy, chained behind its gate.
    proxy: proxyOnce,
    // Everything one rendered page receives (HTML, scripts, XHR) together; the HTML alone is still checked against maxBodyBytes.
    maxPageBytes: maxBodyBytes * 4,
    log,
  });
  const counters: FetcherStats = {
    requests: 0,
    bytes: 0,
    byKind: { list: 0, item: 0, other: 0 },
    viaBrowser: 0,
    retries: 0,
    blocks: 0,
  };
  let closed = false;
  let closing: Promise<void> | undefined;

  async function get(url: string, opts: FetchOptions = {}): Promise<FetchResult> {
    if (closed) throw new FatalError("fetcher used after close()");
    const kind = opts.kind ?? "other";
    const started = Date.now();
    const trace: Trace = { status: 0, bytes: 0, viaBrowser: false };
    try {
      if (proxyDown) throw proxyDown.forUrl(url);
      await seedJar();
      const target = httpUrl(url);
      // Binary downloads (images for OCR) always go over plain HTTP: a rendered page has no bytes.
      const useBrowser = !opts.binary && (mode === "browser" || (mode === "auto" && opts.browser === true));
      const result = useBrowser ? await getViaBrowser(target, opts, trace) : await getViaHttp(target, opts, trace);
      counters.byKind[kind]++;
      report({ url, kind, status: result.status, bytes: trace.bytes, viaBrowser: trace.viaBrowser, ms: Date.now() - started });
      return result;
    } catch (err) {
      const error = err instanceof Error ? err : new Error(String(err));
      if (error instanceof BlockedError) counters.blocks++;
      report({ url, kind, status: trace.status, bytes: trace.bytes, viaBrowser: trace.viaBrowser, ms: Date.now() - started, error });
      throw error;
    }
  }

  function report(info: RequestInfo): void {
    try {
      options.onRequest?.(info);
    } catch (err) {
      // A faulty tally must not turn a fetched page into a failure.
      log(`onRequest callback threw: ${describe(err)}`);
    }
  }

  /** Follow redirects ourselves, so every hop passes robots.txt, the host queue and loop detection. */
  async function getViaHttp(url: string, opts: FetchOptions, trace: Trace): Promise<FetchResult> {
    const chain = [url];
    // A URL counts as seen together with the cookies we send it: "set a cookie and come back" is
    // a normal pattern, the same request twice is a loop.
    const seen = new Set<string>([loopKey(url)]);
    let current = url;
    for (;;) {
      let ex: Exchange;
      try {
        ex = await withRetries(current, opts, trace, (u) => httpExchange(u, opts, trace));
      } catch (err) {
        // Say where a refused redirect came from: the run records the URL the crawl asked for.
        if (err instanceof AddressRefusedError && current !== url && !err.redirectedFrom) throw err.viaRedirect(chain.at(-2) ?? url);
        throw err;
      }
      const location = redirectTarget(ex);
      if (!location) return toResult(ex);
      if (chain.length > maxRedirects) {
        throw new NonRetryableError(`redirect loop: more than ${maxRedirects} redirects from ${url}`, url, ex.status);
      }
      const key = loopKey(location);
      if (seen.has(key)) throw new NonRetryableError(`redirect loop: ${[...chain, location].join(" -> ")}`, url, ex.status);
      seen.add(key);
      chain.push(location);
      current = location;
    }
  }

  async function getViaBrowser(url: string, opts: FetchOptions, trace: Trace): Promise<FetchResult> {
    const ex = await withRetries(url, opts, trace, (u) => browserExchange(u, opts, trace));
    return toResult(ex);
  }

  /**
   * Make one request through `once` until it yields a response worth returning (or a redirect to
   * follow), turning statuses into the error classes. Waits for back-off happen outside the host
   * queue (5xx, network) or as a hold-off on that host only (throttle statuses), never blocking
   * other hosts.
   */
  async function withRetries(url: string, opts: FetchOptions, trace: Trace, once: (url: string) => Promise<Exchange>): Promise<Exchange> {
    const host = hostKey(url);
    let retry = 0;
    let refreshed = false;
    for (;;) {
      // Another fetcher may have been told to stay away from this host for longer than we wait.
      const held = scheduler.holdOffRemaining(host);
      if (held > maxRetryAfterMs) {
        throw new BlockedError(`${host} asked crawlers to wait ${Math.ceil(held / 1000)} s`, url, undefined, held);
      }

      let ex: Exchange;
      try {
        ex = await once(url);
      } catch (err) {
        const atProxy = proxyErrorOf(err, url);
        if (atProxy) {
          // Credentials refused will not get better by asking again; a proxy hiccup might.
          if (atProxy.failure === "auth" || retry >= retries) {
            if (atProxy.failure === "auth" || atProxy.failure === "connect") proxyDown = atProxy;
            throw atProxy;
          }
          retry++;
          await backOff(url, atProxy.message, backoffDelay(retry, backoffBaseMs, maxRetryAfterMs));
          continue;
        }
        if (isDecision(err)) throw err;
        if (err instanceof BodyTooLargeError) throw new NonRetryableError(err.message, url);
        const reason = err instanceof TimeoutError ? err.message : `network error: ${describe(err)}`;
        if (retry >= retries) throw new RetryableError(`${reason} (after ${retry + 1} attempts)`, url);
        retry++;
        await backOff(url, reason, backoffDelay(retry, backoffBaseMs, maxRetryAfterMs));
        continue;
      }
      trace.status = ex.status;

      const location = redirectTarget(ex);
      const block = detectBlock({
        url: ex.url,
        status: ex.status,
        // A redirect's or an error's body is not the page; only the URLs can tell there.
        body: ex.status < 300 || ex.status === 403 ? ex.text : "",
        contentType: ex.contentType,
        location,
        json: opts.json,
      });
      const wall = ex.status === 432 ? { reason: "HTTP 432 (visitor cookies required)", cookieWall: true } : block;
      if (wall?.cookieWall && !refreshed && canRefreshCookies()) {
        refreshed = true;
        // A JSON endpoint runs no script in a browser; the site's home page is where the visitor
        // system (Weibo's passport redirect) hands out cookies.
        if (await tryRefreshCookies(opts.json ? new URL("/", url).href : url, wall)) {
          counters.retries++;
          continue;
        }
      }
      if (block) throw new BlockedError(`blocked: ${block.reason}`, url, ex.status);
      if (location) return ex;

      if (THROTTLE_STATUSES.has(ex.status)) {
        const asked = parseRetryAfter(ex.headers["retry-after"]);
        if (asked !== undefined && asked > maxRetryAfterMs) {
          throw new BlockedError(`HTTP ${ex.status}: Retry-After ${Math.ceil(asked / 1000)} s exceeds our cap`, url, ex.status, asked);
        }
        const wait = asked ?? backoffDelay(retry + 1, backoffBaseMs, maxRetryAfterMs);
        if (retry >= retries) {
          throw new BlockedError(`HTTP ${ex.status} after ${retry + 1} attempts`, url, ex.status, wait);
        }
        retry++;
        counters.retries++;
        // The whole host is asked to slow down, so every fetcher sharing the queue waits, not just us.
        scheduler.holdOff(host, wait);
        log(`HTTP ${ex.status} from ${host}: holding off ${wait} ms before retry ${retry} of ${url}`);
        continue;
      }
      if (ex.status >= 500) {
        if (retry >= retries) throw new RetryableError(`HTTP ${ex.status} (after ${retry + 1} attempts)`, url, ex.status);
        retry++;
        await backOff(url, `HTTP ${ex.status}`, backoffDelay(retry, backoffBaseMs, maxRetryAfterMs));
        continue;
      }
      if (ex.status >= 400) throw new NonRetryableError(`HTTP ${ex.status}`, url, ex.status);
      if (ex.status >= 300 && ex.status !== 304) {
        throw new NonRetryableError(`HTTP ${ex.status} without a usable Location`, url, ex.status);
      }
      if (opts.json && ex.status !== 204 && ex.status !== 304 && !parsesAsJson(ex.text)) {
        throw new NonRetryableError(`expected JSON, got ${ex.contentType || "no content type"}`, url, ex.status);
      }
      return ex;
    }
  }

  async function backOff(url: string, reason: string, ms: number): Promise<void> {
    counters.retries++;
    log(`${reason} on ${url}: retrying in ${ms} ms`);
    await sleep(ms);
  }

  function canRefreshCookies(): boolean {
    return mode !== "http" && chromiumAvailable(executablePath);
  }

  /** The automatic visitor-cookie refresh: best effort, a failure just leaves the block standing. */
  async function tryRefreshCookies(url: string, wall: BlockSignal): Promise<boolean> {
    log(`${wall.reason} on ${url}: refreshing cookies through Chromium`);
    try {
      await refreshCookiesViaBrowser(url);
      return true;
    } catch (err) {
      log(`cookie refresh through Chromium failed: ${describe(err)}`);
      return false;
    }
  }

  /** Robots check for `url`; resolves to the gap to keep before requesting it. */
  async function politeDelay(url: URL): Promise<number> {
    if (!respectRobots) return hostDelayMs;
    const rules = await robots.get(url.origin, loadRobots, log);
    // "ignore" (set by an operator for a board they may crawl) skips Disallow, never Crawl-delay.
    if ((await robotsPolicyOnce()) === "obey" && !rules.isAllowed(url.href, userAgent)) throw new NonRetryableError("disallowed by robots.txt", url.href);
    return Math.max(hostDelayMs, rules.crawlDelayMs(userAgent) ?? 0);
  }

  /** Fetch robots.txt through the host queue (it is a request like any other), following a few redirects. */
  async function loadRobots(robotsUrl: string): Promise<RobotsResponse> {
    let current = robotsUrl;
    const agent = await dispatcher();
    for (let hop = 0; ; hop++) {
      const u = current;
      counters.requests++;
      const raw = await scheduler.run(hostKey(u), hostDelayMs, () =>
        httpGet(u, {
          headers: { "user-agent": userAgent, accept: "text/plain, */*;q=0.5", "accept-encoding": "gzip, deflate, br" },
          timeoutMs,
          maxBodyBytes: ROBOTS_MAX_BYTES,
          dispatcher: agent,
        }),
      );
      counters.bytes += raw.body.length;
      const location = raw.headers["location"];
      if (raw.status >= 300 && raw.status < 400 && location && hop < ROBOTS_MAX_REDIRECTS) {
        current = new URL(location, u).href;
        continue;
      }
      return { status: raw.status, body: decodeBody(raw.body, raw.headers["content-type"]).text };
    }
  }

  /**
   * Refuse a URL whose host is internal and not registered, before robots.txt or the host queue
   * are involved. The guarded agent checks again at connect time; this check gives the refusal
   * its full URL.
   */
  async function guard(url: string): Promise<void> {
    if (policy && !policy.isTrusted(url)) await policy.check(url);
  }

  async function httpExchange(url: string, opts: FetchOptions, trace: Trace): Promise<Exchange> {
    const target = new URL(url);
    await guard(url);
    const delay = await politeDelay(target);
    const agent = await dispatcher();
    const raw = await scheduler
      .run(hostKey(target), delay, () => {
        counters.requests++;
        // Headers are built at the last moment: a response queued ahead of us may have set cookies.
        return httpGet(url, { headers: requestHeaders(url, opts), timeoutMs, maxBodyBytes, dispatcher: agent });
      })
      .catch((err: unknown) => {
        // Refused when connecting (DNS changed since the check): name the URL, not just its origin.
        throw err instanceof AddressRefusedError ? err.forUrl(url) : err;
      });
    jar.setFromResponse(url, raw.setCookies);
    counters.bytes += raw.body.length;
    trace.bytes += raw.body.length;
    const contentType = raw.headers["content-type"] ?? "";
    return {
      url,
      status: raw.status,
      headers: raw.headers,
      contentType,
      bytes: raw.body.length,
      text: opts.binary ? "" : decodeBody(raw.body, contentType).text,
      raw: opts.binary ? raw.body : undefined,
      viaBrowser: false,
    };
  }

  function requestHeaders(url: string, opts: FetchOptions): Record<string, string> {
    const extra: Record<string, string> = {};
    for (const [name, value] of Object.entries(opts.headers ?? {})) extra[name.toLowerCase()] = value;
    const cookie = [jar.headerFor(url), extra["cookie"]].filter(Boolean).join("; ");
    const headers: Record<string, string> = {
      accept: opts.json ? "application/json, text/plain, */*" : "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
      "accept-language": "zh-CN,zh;q=0.9,en;q=0.6",
      "accept-encoding": "gzip, deflate, br",
      ...extra,
      "user-agent": userAgent,
    };
    if (cookie) headers["cookie"] = cookie;
    else delete headers["cookie"];
    return headers;
  }

  /** One navigation in Chromium, in the host queue like an HTTP request. */
  async function browserExchange(url: string, opts: FetchOptions, trace: Trace): Promise<Exchange> {
    const target = new URL(url);
    await guard(url);
    const delay = await politeDelay(target);
    // The browser (and this fetcher's context) is made ready before taking the host slot, so a
    // cold launch does not count against the host.
    return browser.withPage(async (page, context) => {
      await syncCookiesInto(context);
      const extra = Object.fromEntries(Object.entries(opts.headers ?? {}).filter(([name]) => name.toLowerCase() !== "user-agent"));
      if (Object.keys(extra).length > 0) await page.setExtraHTTPHeaders(extra);
      return scheduler.run(hostKey(target), delay, async () => {
        counters.requests++;
        counters.viaBrowser++;
        trace.viaBrowser = true;
        const deadline = Date.now() + timeoutMs;
        const response = await page.goto(url, { waitUntil: "load", timeout: timeoutMs });
        if (!response) throw new Error(`Chromium got no response for ${url}`);
        const headers = await response.allHeaders();
        const contentType = headers["content-type"] ?? "";
        let text: string;
        if (opts.json || /[/+]json\b/i.test(contentType)) {
          // JSON is wanted as the server sent it, not as Chromium's viewer wraps it in HTML.
          text = await response.text();
        } else {
          await settle(page, deadline);
          text = await page.content();
        }
        jar.importBrowserCookies(await context.cookies());
        const bytes = Buffer.byteLength(text);
        counters.bytes += bytes;
        trace.bytes += bytes;
        if (bytes > maxBodyBytes) throw new BodyTooLargeError(maxBodyBytes);
        return { url: page.url(), status: response.status(), headers, contentType, bytes, text, viaBrowser: true };
      });
    });
  }

  async function refreshCookiesViaBrowser(url: string): Promise<number> {
    if (closed) throw new FatalError("fetcher used after close()");
    await seedJar();
    const target = new URL(httpUrl(url));
    await guard(target.href);
    const delay = await politeDelay(target);
    return browser.withPage(async (page, context) => {
      await syncCookiesInto(context);
      await scheduler.run(hostKey(target), delay, async () => {
        counters.requests++;
        counters.viaBrowser++;
        const deadline = Date.now() + timeoutMs;
        try {
          // The status does not matter: a visitor wall answers 432 and sets cookies by script.
          await page.goto(target.href, { waitUntil: "load", timeout: timeoutMs });
        } catch (err) {
          throw new RetryableError(`Chromium could not open ${target.href}: ${describe(err)}`, target.href);
        }
        await settle(page, deadline);
      });
      const copied = jar.importBrowserCookies(await context.cookies());
      log(`copied ${copied} cookies from Chromium after opening ${target.href}`);
      return copied;
    });
  }

  /** Give the jar's cookies to the browser, so both paths act as the same visitor. */
  async function syncCookiesInto(context: BrowserContext): Promise<void> {
    const cookies = jar.all();
    if (cookies.length > 0) await context.addCookies(cookies.map(toBrowserCookie));
  }

  function redirectTarget(ex: Exchange): string | undefined {
    if (ex.viaBrowser || ex.status < 300 || ex.status >= 400 || ex.status === 304) return undefined;
    const location = ex.headers["location"];
    if (!location) return undefined;
    try {
      return httpUrl(new URL(location, ex.url).href);
    } catch {
      return undefined;
    }
  }

  function loopKey(url: string): string {
    return `${url}\n${jar.headerFor(url) ?? ""}`;
  }

  return {
    get,
    refreshCookiesViaBrowser,
    stats: () => ({ ...counters, byKind: { ...counters.byKind } }),
    close() {
      // Idempotent: the worker may close in a finally block after an error path already did.
      closing ??= (async () => {
        closed = true;
        await browser.close();
        await (await agentReady?.catch(() => undefined))?.close();
      })();
      return closing;
    },
  };
}

/** Wait (bounded) for a rendered page to stop fetching, so script-built lists are in the DOM. */
async function settle(page: Page, deadline: number): Promise<void> {
  const budget = Math.min(BROWSER_SETTLE_MS, deadline - Date.now());
  // Playwright reads a timeout of 0 as "no timeout": skip instead.
  if (budget <= 0) return;
  await page.waitForLoadState("networkidle", { timeout: budget }).catch(() => undefined);
}

function toResult(ex: Exchange): FetchResult {
  return {
    url: ex.url,
    status: ex.status,
    headers: ex.headers,
    body: ex.text,
    bytes: ex.bytes,
    contentType: ex.contentType,
    viaBrowser: ex.viaBrowser,
    ...(ex.raw ? { raw: ex.raw } : {}),
  };
}

function toBrowserCookie(c: Cookie) {
  return {
    name: c.name,
    value: c.value,
    // Playwright's convention: a leading dot means "and subdomains".
    domain: c.hostOnly ? c.domain : `.${c.domain}`,
    path: c.path,
    expires: c.expires === undefined ? -1 : Math.floor(c.expires / 1000),
    secure: c.secure,
    httpOnly: c.httpOnly ?? false,
  };
}

/** `url` normalized, or a NonRetryableError when it is not an http(s) URL. */
function httpUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new NonRetryableError(`invalid URL: ${url}`, url);
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") throw new NonRetryableError(`unsupported URL scheme: ${url}`, url);
  u.hash = "";
  return u.href;
}

/** Errors that already carry the runner's decision and must pass through unchanged. */
function isDecision(err: unknown): boolean {
  return err instanceof RetryableError || err instanceof NonRetryableError || err instanceof BlockedError || err instanceof FatalError;
}

function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  // undici wraps socket errors: the cause says what actually happened (ECONNREFUSED, ECONNRESET…).
  const cause = err.cause instanceof Error ? ` (${err.cause.message})` : "";
  return `${err.message}${cause}`;
}
