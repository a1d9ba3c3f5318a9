/**
 * The request log of the local platforms: every request in order of arrival, with what it asked
 * for (platform, account, kind of page), how it was answered, and timings for politeness checks.
 */
import type { PageKind, Platform } from "../../../crawler/types";
import type { Fault } from "./faults";

/** One logged request. */
export interface RequestLogEntry {
  /** Order of arrival, from 1. */
  seq: number;
  method: string;
  /** Path and query as requested ("/f?kw=…&pn=50"). */
  url: string;
  path: string;
  /** Origin of the server that answered (the main one or a capture site's). */
  origin: string;
  platform: Platform | null;
  /** The local account the request belongs to, when the path identifies one. */
  accountKey: string | null;
  /** list: listing pages and APIs, feeds; item: threads, articles, long text, comments; other: the rest. */
  kind: PageKind;
  status: number;
  /** The fault that answered instead of the platform, if any. */
  fault: Fault["type"] | null;
  /** The local clock's time (not the wall clock). */
  at: Date;
  /** Wall-clock ms when the request arrived and when its response finished (for politeness checks). */
  startedMs: number;
  endedMs: number | null;
  /** Requests to this server already in flight when this one arrived (0 for a polite client). */
  inFlightBefore: number;
}

/** Filter of `LocalPlatforms.requests`. */
export interface RequestFilter {
  accountKey?: string;
  platform?: Platform;
  kind?: PageKind;
  /** Only requests after this sequence number (take `lastSeq()` before an action). */
  afterSeq?: number;
}

/** The log shared by the main server and the capture sites. */
export interface RequestLog {
  /** Log a request as it arrives (the router and the answer fill in the rest of the entry). */
  begin(method: string, url: URL, origin: string, at: Date): RequestLogEntry;
  /** The request's response has finished (or its connection closed). */
  end(entry: RequestLogEntry): void;
  filter(filter?: RequestFilter): RequestLogEntry[];
  /** Sequence number of the last logged request (0 before any); clearing the log does not reset it. */
  lastSeq(): number;
  clear(): void;
}

/** An empty request log. */
export function createRequestLog(): RequestLog {
  const log: RequestLogEntry[] = [];
  /** Requests being answered, per origin (capture sites are separate hosts). */
  const inFlight = new Map<string, number>();
  let seq = 0;
  return {
    begin(method, url, origin, at) {
      const entry: RequestLogEntry = {
        seq: ++seq,
        method,
        url: url.pathname + url.search,
        path: url.pathname,
        origin,
        platform: null,
        accountKey: null,
        kind: "other",
        status: 0,
        fault: null,
        at,
        startedMs: Date.now(),
        endedMs: null,
        inFlightBefore: inFlight.get(origin) ?? 0,
      };
      log.push(entry);
      inFlight.set(origin, entry.inFlightBefore + 1);
      return entry;
    },
    end(entry) {
      entry.endedMs = Date.now();
      inFlight.set(entry.origin, (inFlight.get(entry.origin) ?? 1) - 1);
    },
    filter(filter = {}) {
      return log.filter(
        (e) =>
          (filter.accountKey === undefined || e.accountKey === filter.accountKey) &&
          (filter.platform === undefined || e.platform === filter.platform) &&
          (filter.kind === undefined || e.kind === filter.kind) &&
          (filter.afterSeq === undefined || e.seq > filter.afterSeq),
      );
    },
    lastSeq: () => seq,
    clear() {
      log.length = 0;
    },
  };
}
