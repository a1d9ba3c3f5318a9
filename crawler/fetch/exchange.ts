/**
 * One exchange with a host over plain HTTP, as the fetcher sees it: checked (address policy,
 * robots.txt), queued in the per-host gate, sent with the jar's cookies, and read back into an
 * {@link Exchange} whose status is judged by the caller (./retry-policy.ts, ./redirects.ts).
 * Also the shapes shared with the Chromium path (./browser-exchange.ts) and the robots.txt
 * loader, which is a request like any other.
 */
import type { Dispatcher } from "undici";
import { NonRetryableError } from "../errors";
import type { FetchOptions, FetchResult } from "../types";
import { AddressRefusedError } from "./address-policy";
import type { CookieJar } from "./cookies";
import { decodeBody } from "./decode";
import { httpGet } from "./http";
import { type HostGate, hostKey } from "./politeness";
import type { RobotsResponse } from "./robots";

/** RFC 9309 asks crawlers to read at least 500 KiB of robots.txt; more is not worth holding. */
const ROBOTS_MAX_BYTES = 512 * 1024;
/** RFC 9309 §2.3.1.2: follow at least five redirects for robots.txt. */
const ROBOTS_MAX_REDIRECTS = 5;

/** One response from either path, before its status is judged. */
export interface Exchange {
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
export interface Trace {
  status: number;
  bytes: number;
  viaBrowser: boolean;
}

/** The counters an exchange moves (a fetcher's FetcherStats has these and more). */
export interface ExchangeCounters {
  requests: number;
  bytes: number;
  viaBrowser: number;
}

/**
 * What one fetcher shares with its exchanges: settings, the host gate, the cookie jar, the
 * counters, and the checks every request passes. Built once by createFetcher.
 */
export interface ExchangeContext {
  readonly userAgent: string;
  /** Deadline of one request (one page load in the browser). */
  readonly timeoutMs: number;
  /** Largest body accepted, after un-gzipping. */
  readonly maxBodyBytes: number;
  /** The gap robots.txt requests keep (they have no Crawl-delay of their own yet). */
  readonly hostDelayMs: number;
  readonly scheduler: HostGate;
  readonly jar: CookieJar;
  readonly counters: ExchangeCounters;
  /** The undici dispatcher (proxy, address-guarded or plain agent), made once. */
  dispatcher(): Promise<Dispatcher>;
  /**
   * Refuse an internal, unregistered host and anything robots.txt disallows; resolves to the gap
   * to keep before requesting `url` (the host delay or a larger Crawl-delay).
   */
  admit(url: string): Promise<number>;
  log(message: string): void;
}

/** One plain HTTP GET of `url` (no redirects followed, no retries), politely queued. */
export async function httpExchange(ctx: ExchangeContext, url: string, opts: FetchOptions, trace: Trace): Promise<Exchange> {
  const target = new URL(url);
  const delay = await ctx.admit(url);
  const agent = await ctx.dispatcher();
  const raw = await ctx.scheduler
    .run(hostKey(target), delay, () => {
      ctx.counters.requests++;
      // Headers are built at the last moment: a response queued ahead of us may have set cookies.
      return httpGet(url, { headers: requestHeaders(ctx, url, opts), timeoutMs: ctx.timeoutMs, maxBodyBytes: ctx.maxBodyBytes, dispatcher: agent });
    })
    .catch((err: unknown) => {
      // Refused when connecting (DNS changed since the check): name the URL, not just its origin.
      throw err instanceof AddressRefusedError ? err.forUrl(url) : err;
    });
  ctx.jar.setFromResponse(url, raw.setCookies);
  ctx.counters.bytes += raw.body.length;
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

/**
 * The headers of one request: the caller's, then ours on top where it matters. The User-Agent
 * cannot be overridden (what robots.txt allowed is what is sent); cookies from the jar and the
 * caller's own `cookie` header are joined.
 */
function requestHeaders(ctx: ExchangeContext, url: string, opts: FetchOptions): Record<string, string> {
  const extra: Record<string, string> = {};
  for (const [name, value] of Object.entries(opts.headers ?? {})) extra[name.toLowerCase()] = value;
  const cookie = [ctx.jar.headerFor(url), extra["cookie"]].filter(Boolean).join("; ");
  const headers: Record<string, string> = {
    accept: opts.json ? "application/json, text/plain, */*" : "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
    "accept-language": "zh-CN,zh;q=0.9,en;q=0.6",
    "accept-encoding": "gzip, deflate, br",
    ...extra,
    "user-agent": ctx.userAgent,
  };
  if (cookie) headers["cookie"] = cookie;
  else delete headers["cookie"];
  return headers;
}

/** Fetch robots.txt through the host queue (it is a request like any other), following a few redirects. */
export async function loadRobots(ctx: ExchangeContext, robotsUrl: string): Promise<RobotsResponse> {
  let current = robotsUrl;
  const agent = await ctx.dispatcher();
  for (let hop = 0; ; hop++) {
    const u = current;
    ctx.counters.requests++;
    const raw = await ctx.scheduler.run(hostKey(u), ctx.hostDelayMs, () =>
      httpGet(u, {
        headers: { "user-agent": ctx.userAgent, accept: "text/plain, */*;q=0.5", "accept-encoding": "gzip, deflate, br" },
        timeoutMs: ctx.timeoutMs,
        maxBodyBytes: ROBOTS_MAX_BYTES,
        dispatcher: agent,
      }),
    );
    ctx.counters.bytes += raw.body.length;
    const location = raw.headers["location"];
    if (raw.status >= 300 && raw.status < 400 && location && hop < ROBOTS_MAX_REDIRECTS) {
      current = new URL(location, u).href;
      continue;
    }
    return { status: raw.status, body: decodeBody(raw.body, raw.headers["content-type"]).text };
  }
}

/** What `get()` hands back for an exchange. */
export function toResult(ex: Exchange): FetchResult {
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

/** `url` normalized, or a NonRetryableError when it is not an http(s) URL. */
export function httpUrl(url: string): string {
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
