/**
 * createFetcher: the crawler's only way onto the network. It wraps single requests (./exchange,
 * or Chromium via ./browser-exchange) in everything that makes a crawler a good guest and a
 * reliable reader: the shared per-host queue, robots.txt, retries and back-off
 * (./retry-policy), redirects (./redirects), block detection and a per-account cookie jar.
 * Adapters see only `get(url, options)` and the error classes.
 *
 * This file composes those parts and holds the fetcher's state (options, jar, proxy latch,
 * counters); each part is a module of its own.
 */
import { Agent, type Dispatcher } from "undici";
import { BlockedError, FatalError, NonRetryableError } from "../errors";
import type { FetchOptions, FetchResult } from "../types";
import { createGuardedAgent } from "./address-policy";
import { BrowserSession, chromiumAvailable, chromiumPath } from "./browser";
import { browserExchange, refreshCookiesInBrowser } from "./browser-exchange";
import { detectBlock, type BlockSignal } from "./captcha";
import { CookieJar } from "./cookies";
import { httpExchange, httpUrl, loadRobots, toResult, type Exchange, type ExchangeContext, type Trace } from "./exchange";
import { DEFAULT_USER_AGENT, type FetcherOptions, type FetcherStats, type PoliteFetcher, type RequestInfo, type RobotsPolicy } from "./fetcher-options";
import { defaultHostScheduler, hostKey, sleep } from "./politeness";
import { createProxyAgent, resolveProxySetting, type ProxyConfig, type ProxyError } from "./proxy";
import { followRedirects, redirectTarget } from "./redirects";
import { decideAfterError, decideAfterStatus, describeError, holdOffRefusal, type RetryDecision, type RetryLimits } from "./retry-policy";
import { robotsCacheFor } from "./robots";

// The public shapes live in ./fetcher-options; importers keep importing them from here.
export { DEFAULT_USER_AGENT } from "./fetcher-options";
export type { FetcherOptions, FetcherStats, PoliteFetcher, RequestInfo, RobotsPolicy } from "./fetcher-options";

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
  const limits: RetryLimits = {
    retries: Math.max(0, options.retries ?? 3),
    backoffBaseMs: options.backoffBaseMs ?? 500,
    maxRetryAfterMs: options.maxRetryAfterMs ?? 60_000,
  };
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
  // What the exchanges (./exchange, ./browser-exchange) share with this fetcher.
  const ctx: ExchangeContext = { userAgent, timeoutMs, maxBodyBytes, hostDelayMs, scheduler, jar, counters, dispatcher, admit, log };
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
      const ex = useBrowser
        ? await withRetries(target, opts, trace, (u) => browserExchange(ctx, browser, u, opts, trace))
        : await followRedirects(target, (u) => withRetries(u, opts, trace, (v) => httpExchange(ctx, v, opts, trace)), { maxRedirects, loopKey });
      const result = toResult(ex);
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
      log(`onRequest callback threw: ${describeError(err)}`);
    }
  }

  /**
   * Make one request through `once` until it yields a response worth returning (or a redirect to
   * follow), turning statuses into the error classes (./retry-policy decides; this applies).
   * Waits for back-off happen outside the host queue (5xx, network) or as a hold-off on that
   * host only (throttle statuses), never blocking other hosts.
   */
  async function withRetries(url: string, opts: FetchOptions, trace: Trace, once: (url: string) => Promise<Exchange>): Promise<Exchange> {
    const host = hostKey(url);
    let retry = 0;
    let refreshed = false;
    for (;;) {
      // Another fetcher may have been told to stay away from this host for longer than we wait.
      const refusal = holdOffRefusal(scheduler.holdOffRemaining(host), limits, url, host);
      if (refusal) throw refusal;

      let ex: Exchange;
      try {
        ex = await once(url);
      } catch (err) {
        const decision = decideAfterError(err, retry, limits, url);
        if (decision.action === "give-up") {
          if (decision.proxyDown) proxyDown = decision.proxyDown;
          throw decision.error;
        }
        await waitBeforeRetry(decision, url, host, ++retry);
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

      const decision = decideAfterStatus(ex.status, ex.headers["retry-after"], retry, limits, url);
      if (decision.action === "give-up") throw decision.error;
      if (decision.action === "retry") {
        await waitBeforeRetry(decision, url, host, ++retry);
        continue;
      }
      if (opts.json && ex.status !== 204 && ex.status !== 304 && !parsesAsJson(ex.text)) {
        throw new NonRetryableError(`expected JSON, got ${ex.contentType || "no content type"}`, url, ex.status);
      }
      return ex;
    }
  }

  /** Carry out a "retry" decision before retry number `retry` (1 for the first). */
  async function waitBeforeRetry(decision: Extract<RetryDecision, { action: "retry" }>, url: string, host: string, retry: number): Promise<void> {
    counters.retries++;
    if (decision.holdHost) {
      // The whole host is asked to slow down, so every fetcher sharing the queue waits, not just us.
      scheduler.holdOff(host, decision.waitMs);
      log(`${decision.reason} from ${host}: holding off ${decision.waitMs} ms before retry ${retry} of ${url}`);
      return;
    }
    log(`${decision.reason} on ${url}: retrying in ${decision.waitMs} ms`);
    await sleep(decision.waitMs);
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
      log(`cookie refresh through Chromium failed: ${describeError(err)}`);
      return false;
    }
  }

  async function refreshCookiesViaBrowser(url: string): Promise<number> {
    if (closed) throw new FatalError("fetcher used after close()");
    await seedJar();
    return refreshCookiesInBrowser(ctx, browser, new URL(httpUrl(url)));
  }

  /**
   * The checks before any request, HTTP or Chromium: refuse a URL whose host is internal and not
   * registered before robots.txt or the host queue are involved (the guarded agent checks again
   * at connect time; this check gives the refusal its full URL), then robots.txt. Resolves to
   * the gap to keep before requesting `url`.
   */
  async function admit(url: string): Promise<number> {
    if (policy && !policy.isTrusted(url)) await policy.check(url);
    if (!respectRobots) return hostDelayMs;
    const target = new URL(url);
    const rules = await robots.get(target.origin, (robotsUrl) => loadRobots(ctx, robotsUrl), log);
    // "ignore" (set by an operator for a board they may crawl) skips Disallow, never Crawl-delay.
    if ((await robotsPolicyOnce()) === "obey" && !rules.isAllowed(target.href, userAgent)) throw new NonRetryableError("disallowed by robots.txt", target.href);
    return Math.max(hostDelayMs, rules.crawlDelayMs(userAgent) ?? 0);
  }

  /** A URL counts as seen together with the cookies we send it (see ./redirects). */
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

function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
