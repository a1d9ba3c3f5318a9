/**
 * Scripted misbehaviour of the local platforms: a test registers faults for matching requests
 * (captcha pages, error statuses, slow answers, redirect loops, arbitrary bodies), and the first
 * fault in force that matches answers instead of the platform.
 */
import type { Rendered } from "./responses";
import { BAIDU_CAPTCHA_PAGE } from "./tieba";

/** A scripted misbehaviour for matching requests. `times` defaults to every request. */
export type Fault =
  | { type: "captcha"; times?: number }
  | { type: "status"; status: number; times?: number; retryAfterSeconds?: number; body?: string }
  | { type: "slow"; delayMs: number; times?: number }
  | { type: "redirectLoop"; times?: number }
  | { type: "body"; body: string; status?: number; contentType?: string; times?: number };

/** Which requests a fault applies to: a prefix of path+query (raw or decoded), a RegExp on it, or a predicate. */
export type FaultMatch = string | RegExp | ((url: URL) => boolean);

/** A fault in force; `clear()` removes it, `hits` counts requests it answered. */
export interface FaultHandle {
  readonly hits: number;
  readonly remaining: number;
  clear(): void;
}

/** The faults in force on a set of local platforms. */
export interface Faults {
  add(match: FaultMatch, fault: Fault): FaultHandle;
  clear(): void;
  /** The first fault in force that matches this request, counted as used; null when none does. */
  take(requested: URL): Fault | null;
}

interface ActiveFault {
  match: FaultMatch;
  fault: Fault;
  remaining: number;
  hits: number;
}

/** An empty list of faults. */
export function createFaults(): Faults {
  const faults: ActiveFault[] = [];
  return {
    add(match, fault) {
      const active: ActiveFault = { match, fault, remaining: fault.times ?? Number.POSITIVE_INFINITY, hits: 0 };
      faults.push(active);
      return {
        get hits() {
          return active.hits;
        },
        get remaining() {
          return active.remaining;
        },
        clear() {
          active.remaining = 0;
        },
      };
    },
    clear() {
      faults.length = 0;
    },
    take(requested) {
      // The redirect-loop fault's own marker must not stop the fault from matching the next hop.
      const url = new URL(requested);
      url.searchParams.delete("_loop");
      const raw = url.pathname + url.search;
      let decoded = raw;
      try {
        decoded = decodeURIComponent(raw);
      } catch {
        // keep the raw form
      }
      for (const f of faults) {
        if (f.remaining <= 0) continue;
        const hit =
          typeof f.match === "string"
            ? raw.startsWith(f.match) || decoded.startsWith(f.match)
            : f.match instanceof RegExp
              ? f.match.test(raw) || f.match.test(decoded)
              : f.match(url);
        if (hit) {
          f.remaining--;
          f.hits++;
          return f.fault;
        }
      }
      return null;
    },
  };
}

/** The answer when `fault` strikes a request to `url` whose page would have been `rendered` (a slow fault waits, then serves it). */
export async function answerFault(fault: Fault, url: URL, rendered: Rendered): Promise<Rendered> {
  switch (fault.type) {
    case "slow":
      await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
      return rendered;
    case "captcha":
      return { status: 200, contentType: "text/html; charset=utf-8", body: BAIDU_CAPTCHA_PAGE };
    case "status":
      return {
        status: fault.status,
        contentType: "text/html; charset=utf-8",
        body: fault.body ?? `<html><body>${fault.status}</body></html>`,
        ...(fault.retryAfterSeconds !== undefined ? { headers: { "retry-after": String(fault.retryAfterSeconds) } } : {}),
      };
    case "redirectLoop": {
      // a → b → a: the loop only shows after following two redirects.
      const next = new URL(url);
      if (next.searchParams.has("_loop")) next.searchParams.delete("_loop");
      else next.searchParams.set("_loop", "1");
      return { status: 302, contentType: "text/html", body: "", headers: { location: next.pathname + next.search } };
    }
    case "body":
      return { status: fault.status ?? 200, contentType: fault.contentType ?? "text/html; charset=utf-8", body: fault.body };
  }
}
