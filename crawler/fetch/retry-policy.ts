/**
 * The fetcher's retry policy as pure decisions: given what one attempt produced (a status and its
 * Retry-After, or an error), how many retries were already made and the fetcher's limits, say
 * whether to accept the response, retry after a wait, or give up with which error class.
 *
 * Pure on purpose: no clock (the caller passes `now`), no sleeping, no host queue, no logging.
 * The fetcher applies a decision (sleeps, holds a host off, counts, logs); this module only
 * decides, so every branch is table-tested apart from any server
 * (test/unit/fetch/retry-policy.test.ts).
 *
 * What is not decided here, because it needs the response body or side effects: redirects
 * (./redirects.ts), block pages and the visitor-cookie refresh (./fetcher.ts), and the JSON check.
 */
import { BlockedError, FatalError, NonRetryableError, RetryableError } from "../errors";
import { BodyTooLargeError, TimeoutError } from "./http";
import { proxyErrorOf, type ProxyError } from "./proxy";
import { backoffDelay, parseRetryAfter } from "./retry";

/** Statuses by which a host says "slow down" rather than "this failed". */
export const THROTTLE_STATUSES: ReadonlySet<number> = new Set([418, 429, 432, 503]);

/** The retry limits of one fetcher (see FetcherOptions, which documents the defaults). */
export interface RetryLimits {
  /** Retries allowed on top of the first attempt. */
  retries: number;
  /** First back-off wait; doubled on every further retry. */
  backoffBaseMs: number;
  /** Longest Retry-After (or host hold-off) we wait out; also caps our own back-off. */
  maxRetryAfterMs: number;
}

/** What to do after one attempt. */
export type RetryDecision =
  /** The response is worth returning (2xx, 304, or any status not judged here). */
  | { action: "accept" }
  /**
   * Try again after `waitMs`. `holdHost`: the host asked us to slow down, so the wait is a
   * hold-off of the whole host in the shared queue (every fetcher waits); otherwise only this
   * request sleeps, outside the queue. `reason` is what the log line names.
   */
  | { action: "retry"; waitMs: number; holdHost: boolean; reason: string }
  /**
   * Stop and throw `error`. `proxyDown` is set when the proxy itself is unreachable or refuses
   * our credentials: the fetcher latches it and fails the rest of its requests at once.
   */
  | { action: "give-up"; error: Error; proxyDown?: ProxyError };

/** A decision after an attempt that got no response: there is nothing to accept. */
export type RetryOrGiveUp = Exclude<RetryDecision, { action: "accept" }>;

/**
 * Before an attempt: another fetcher may have been told to stay away from `host` for longer than
 * we are willing to wait. Returns the BlockedError to throw, or undefined to go ahead.
 */
export function holdOffRefusal(heldMs: number, limits: RetryLimits, url: string, host: string): BlockedError | undefined {
  if (heldMs <= limits.maxRetryAfterMs) return undefined;
  return new BlockedError(`${host} asked crawlers to wait ${Math.ceil(heldMs / 1000)} s`, url, undefined, heldMs);
}

/**
 * After an attempt that threw (no response). `retry` is the number of retries already made
 * (0 after the first attempt). Order matters: a ProxyError is a RetryableError, so the proxy
 * check comes before errors that already carry a decision and pass through unchanged.
 */
export function decideAfterError(err: unknown, retry: number, limits: RetryLimits, url: string): RetryOrGiveUp {
  const atProxy = proxyErrorOf(err, url);
  if (atProxy) {
    // Credentials refused will not get better by asking again; a proxy hiccup might.
    if (atProxy.failure === "auth" || retry >= limits.retries) {
      const down = atProxy.failure === "auth" || atProxy.failure === "connect";
      return { action: "give-up", error: atProxy, ...(down ? { proxyDown: atProxy } : {}) };
    }
    return retryAfterSleep(retry, limits, atProxy.message);
  }
  if (isDecision(err)) return { action: "give-up", error: err };
  if (err instanceof BodyTooLargeError) return { action: "give-up", error: new NonRetryableError(err.message, url) };
  const reason = err instanceof TimeoutError ? err.message : `network error: ${describeError(err)}`;
  if (retry >= limits.retries) return { action: "give-up", error: new RetryableError(`${reason} (after ${retry + 1} attempts)`, url) };
  return retryAfterSleep(retry, limits, reason);
}

/**
 * After an attempt that got a response with `status` (the caller has already followed a usable
 * redirect and checked for block pages). `retryAfter` is the raw Retry-After header; `now`
 * dates an HTTP-date Retry-After. `retry` as in {@link decideAfterError}.
 */
export function decideAfterStatus(
  status: number,
  retryAfter: string | undefined,
  retry: number,
  limits: RetryLimits,
  url: string,
  now: number = Date.now(),
): RetryDecision {
  if (THROTTLE_STATUSES.has(status)) {
    const asked = parseRetryAfter(retryAfter, now);
    if (asked !== undefined && asked > limits.maxRetryAfterMs) {
      return give(new BlockedError(`HTTP ${status}: Retry-After ${Math.ceil(asked / 1000)} s exceeds our cap`, url, status, asked));
    }
    const wait = asked ?? backoffDelay(retry + 1, limits.backoffBaseMs, limits.maxRetryAfterMs);
    if (retry >= limits.retries) return give(new BlockedError(`HTTP ${status} after ${retry + 1} attempts`, url, status, wait));
    return { action: "retry", waitMs: wait, holdHost: true, reason: `HTTP ${status}` };
  }
  if (status >= 500) {
    if (retry >= limits.retries) return give(new RetryableError(`HTTP ${status} (after ${retry + 1} attempts)`, url, status));
    return retryAfterSleep(retry, limits, `HTTP ${status}`);
  }
  if (status >= 400) return give(new NonRetryableError(`HTTP ${status}`, url, status));
  // A redirect that reached us here had no Location we could follow (or came through Chromium).
  if (status >= 300 && status !== 304) return give(new NonRetryableError(`HTTP ${status} without a usable Location`, url, status));
  return { action: "accept" };
}

/** Errors that already carry the runner's decision and must pass through unchanged. */
export function isDecision(err: unknown): err is Error {
  return err instanceof RetryableError || err instanceof NonRetryableError || err instanceof BlockedError || err instanceof FatalError;
}

/** An error for a log line or a message: undici wraps socket errors, and the cause says what actually happened (ECONNREFUSED…). */
export function describeError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = err.cause instanceof Error ? ` (${err.cause.message})` : "";
  return `${err.message}${cause}`;
}

/** Our own back-off before retry number `retry + 1`. */
function retryAfterSleep(retry: number, limits: RetryLimits, reason: string): RetryOrGiveUp {
  return { action: "retry", waitMs: backoffDelay(retry + 1, limits.backoffBaseMs, limits.maxRetryAfterMs), holdHost: false, reason };
}

function give(error: Error): RetryOrGiveUp {
  return { action: "give-up", error };
}
