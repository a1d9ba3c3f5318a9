import { describe, expect, it } from "vitest";
import { BlockedError, FatalError, NonRetryableError, RetryableError } from "../../../crawler/errors";
import { AddressRefusedError } from "../../../crawler/fetch/address-policy";
import { BodyTooLargeError, TimeoutError } from "../../../crawler/fetch/http";
import { ProxyError } from "../../../crawler/fetch/proxy";
import { decideAfterError, decideAfterStatus, holdOffRefusal, type RetryDecision, type RetryLimits } from "../../../crawler/fetch/retry-policy";

// The fetcher's defaults: 3 retries, 500 ms doubling, 60 s cap.
const limits: RetryLimits = { retries: 3, backoffBaseMs: 500, maxRetryAfterMs: 60_000 };
const url = "https://bbs.example.edu.cn/forum-2-1.html";
const now = Date.parse("2026-03-01T08:00:00Z");

/** A decision in a form a table can state: errors by class, message and the fields that matter. */
function summary(d: RetryDecision) {
  if (d.action !== "give-up") return d;
  const e = d.error as Error & { status?: number; retryAfterMs?: number; url?: string };
  return {
    action: d.action,
    error: e.constructor.name,
    message: e.message,
    ...(e.status !== undefined ? { status: e.status } : {}),
    ...(e.retryAfterMs !== undefined ? { retryAfterMs: e.retryAfterMs } : {}),
    ...(d.proxyDown ? { proxyDown: true } : {}),
  };
}

const retry = (waitMs: number, reason: string, holdHost = false) => ({ action: "retry", waitMs, holdHost, reason });
const giveUp = (error: string, message: string, extra: object = {}) => ({ action: "give-up", error, message, ...extra });

describe("decideAfterStatus", () => {
  it.each<[string, number, string | undefined, number, RetryLimits, object]>([
    // Responses worth returning.
    ["200 is accepted", 200, undefined, 0, limits, { action: "accept" }],
    ["204 is accepted", 204, undefined, 0, limits, { action: "accept" }],
    ["304 is accepted (not a redirect)", 304, undefined, 0, limits, { action: "accept" }],
    ["a 2xx ignores Retry-After", 200, "120", 3, limits, { action: "accept" }],
    // Failures that asking again will not fix.
    ["404", 404, undefined, 0, limits, giveUp("NonRetryableError", "HTTP 404", { status: 404 })],
    ["403", 403, undefined, 2, limits, giveUp("NonRetryableError", "HTTP 403", { status: 403 })],
    ["410", 410, undefined, 0, limits, giveUp("NonRetryableError", "HTTP 410", { status: 410 })],
    ["a redirect left over", 302, undefined, 0, limits, giveUp("NonRetryableError", "HTTP 302 without a usable Location", { status: 302 })],
    // Server errors: our own back-off, doubling, then a RetryableError.
    ["500, first retry", 500, undefined, 0, limits, retry(500, "HTTP 500")],
    ["502, second retry", 502, undefined, 1, limits, retry(1_000, "HTTP 502")],
    ["500, third retry", 500, undefined, 2, limits, retry(2_000, "HTTP 500")],
    ["500 with retries spent", 500, undefined, 3, limits, giveUp("RetryableError", "HTTP 500 (after 4 attempts)", { status: 500 })],
    ["500 with retries off", 500, undefined, 0, { ...limits, retries: 0 }, giveUp("RetryableError", "HTTP 500 (after 1 attempts)", { status: 500 })],
    ["back-off stops at the cap", 500, undefined, 4, { retries: 9, backoffBaseMs: 500, maxRetryAfterMs: 3_000 }, retry(3_000, "HTTP 500")],
    ["Retry-After does not count for a 5xx", 500, "30", 0, limits, retry(500, "HTTP 500")],
    // Throttle statuses: the host is held off, by its own Retry-After when it gave one.
    ["429 without Retry-After", 429, undefined, 0, limits, retry(500, "HTTP 429", true)],
    ["429 without Retry-After, later retry", 429, undefined, 2, limits, retry(2_000, "HTTP 429", true)],
    ["429 Retry-After seconds", 429, "7", 0, limits, retry(7_000, "HTTP 429", true)],
    ["503 Retry-After HTTP-date", 503, "Sun, 01 Mar 2026 08:00:30 GMT", 1, limits, retry(30_000, "HTTP 503", true)],
    ["503 Retry-After in the past", 503, "Sun, 01 Mar 2026 07:00:00 GMT", 0, limits, retry(0, "HTTP 503", true)],
    ["418 unparseable Retry-After", 418, "soon", 0, limits, retry(500, "HTTP 418", true)],
    ["432 (visitor wall, no refresh)", 432, undefined, 0, limits, retry(500, "HTTP 432", true)],
    ["Retry-After exactly at the cap", 429, "60", 0, limits, retry(60_000, "HTTP 429", true)],
    [
      "Retry-After beyond the cap blocks at once",
      503,
      "120",
      0,
      limits,
      giveUp("BlockedError", "HTTP 503: Retry-After 120 s exceeds our cap", { status: 503, retryAfterMs: 120_000 }),
    ],
    ["throttled with retries spent", 429, undefined, 3, limits, giveUp("BlockedError", "HTTP 429 after 4 attempts", { status: 429, retryAfterMs: 4_000 })],
    [
      "throttled with retries spent keeps Retry-After",
      429,
      "9",
      3,
      limits,
      giveUp("BlockedError", "HTTP 429 after 4 attempts", { status: 429, retryAfterMs: 9_000 }),
    ],
  ])("%s", (_name, status, retryAfter, retried, lim, expected) => {
    expect(summary(decideAfterStatus(status, retryAfter, retried, lim, url, now))).toEqual(expected);
  });

  it("names the requested URL on the error it gives up with", () => {
    const d = decideAfterStatus(404, undefined, 0, limits, url, now);
    expect(d.action === "give-up" && (d.error as NonRetryableError).url).toBe(url);
  });
});

describe("decideAfterError", () => {
  const reset = Object.assign(new Error("socket hang up"), { cause: new Error("read ECONNRESET") });
  const proxy = (failure: "connect" | "auth" | "refused" | "protocol") => new ProxyError("http://proxy.example:3128", failure, "detail");

  it.each<[string, unknown, number, object]>([
    // Transient: our own back-off, then a RetryableError.
    ["timeout, first retry", new TimeoutError(20_000), 0, retry(500, "timed out after 20000 ms")],
    ["timeout with retries spent", new TimeoutError(20_000), 3, giveUp("RetryableError", "timed out after 20000 ms (after 4 attempts)")],
    ["network error names its cause", reset, 1, retry(1_000, "network error: socket hang up (read ECONNRESET)")],
    ["network error with retries spent", reset, 3, giveUp("RetryableError", "network error: socket hang up (read ECONNRESET) (after 4 attempts)")],
    ["a thrown non-Error", "boom", 0, retry(500, "network error: boom")],
    // Never retried.
    ["body too large", new BodyTooLargeError(1024), 0, giveUp("NonRetryableError", "page larger than 1024 bytes")],
    // Errors that already carry a decision pass through unchanged.
    ["NonRetryableError passes", new NonRetryableError("disallowed by robots.txt", url), 0, giveUp("NonRetryableError", "disallowed by robots.txt")],
    ["BlockedError passes", new BlockedError("blocked: captcha", url, 200), 0, giveUp("BlockedError", "blocked: captcha", { status: 200 })],
    ["RetryableError passes", new RetryableError("Chromium could not open", url), 0, giveUp("RetryableError", "Chromium could not open")],
    ["FatalError passes", new FatalError("fetcher used after close()"), 0, giveUp("FatalError", "fetcher used after close()")],
    [
      "AddressRefusedError passes",
      new AddressRefusedError("http://10.0.0.1/", "10.0.0.1", "private"),
      0,
      giveUp("AddressRefusedError", new AddressRefusedError("http://10.0.0.1/", "10.0.0.1", "private").message),
    ],
    // The proxy: credentials refused stop at once and latch; a hiccup is retried; unreachable latches once spent.
    ["proxy refuses credentials", proxy("auth"), 0, giveUp("ProxyError", proxy("auth").message, { proxyDown: true })],
    ["proxy unreachable, first retry", proxy("connect"), 0, retry(500, proxy("connect").message)],
    ["proxy unreachable, retries spent", proxy("connect"), 3, giveUp("ProxyError", proxy("connect").message, { proxyDown: true })],
    ["proxy refused the connection, retries spent", proxy("refused"), 3, giveUp("ProxyError", proxy("refused").message)],
    ["proxy protocol error, retries spent", proxy("protocol"), 3, giveUp("ProxyError", proxy("protocol").message)],
    [
      "proxy error wrapped by undici",
      Object.assign(new Error("fetch failed"), { cause: proxy("auth") }),
      0,
      giveUp("ProxyError", proxy("auth").message, { proxyDown: true }),
    ],
  ])("%s", (_name, err, retried, expected) => {
    expect(summary(decideAfterError(err, retried, limits, url))).toEqual(expected);
  });

  it("passes a decision through as the same object", () => {
    const err = new NonRetryableError("HTTP 404", url, 404);
    const d = decideAfterError(err, 0, limits, url);
    expect(d.action === "give-up" && d.error).toBe(err);
  });

  it("names the requested URL on a proxy failure, and latches that same error", () => {
    const d = decideAfterError(proxy("auth"), 0, limits, url);
    expect(d.action).toBe("give-up");
    if (d.action !== "give-up") return;
    expect((d.error as ProxyError).url).toBe(url);
    expect(d.proxyDown).toBe(d.error);
  });
});

describe("holdOffRefusal", () => {
  it.each<[number, string | undefined]>([
    [0, undefined],
    [59_000, undefined],
    [60_000, undefined],
    [60_001, "bbs.example.edu.cn asked crawlers to wait 61 s"],
    [3_600_000, "bbs.example.edu.cn asked crawlers to wait 3600 s"],
  ])("held %i ms -> %s", (held, message) => {
    const refusal = holdOffRefusal(held, limits, url, "bbs.example.edu.cn");
    expect(refusal?.message).toBe(message);
    if (refusal) {
      expect(refusal).toBeInstanceOf(BlockedError);
      expect(refusal.retryAfterMs).toBe(held);
    }
  });
});
