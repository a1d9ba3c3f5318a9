/**
 * Timing rules for trying again: how long a server asked us to wait, and our own exponential
 * back-off when it did not say. Pure, so the arithmetic is unit-tested apart from any server.
 */

/**
 * Milliseconds a `Retry-After` header asks for: delay-seconds or an HTTP-date (RFC 9110 §10.2.3).
 * A date in the past means "now" (0). Undefined when absent or unparseable.
 */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  const v = value?.trim();
  if (!v) return undefined;
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * Wait before retry number `retry` (1 for the first): base, 2×base, 4×base… capped at `capMs`.
 * No jitter: one crawler process is the only client backing off here, so there is no herd to
 * spread, and fixed waits keep tests deterministic.
 */
export function backoffDelay(retry: number, baseMs: number, capMs: number): number {
  return Math.min(capMs, baseMs * 2 ** Math.max(0, retry - 1));
}
