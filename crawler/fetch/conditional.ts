/**
 * Conditional list requests (HTTP validators, RFC 9110 §13.1). A listing's head page — a board's
 * or bar's first list page, a timeline's first page, a blog's feed or entry page — is what every
 * new post, reply or deletion changes. When the last *complete* run saw an `ETag` or
 * `Last-Modified` on it, the next run asks with `If-None-Match` / `If-Modified-Since`; a 304
 * answer means nothing changed anywhere in the listing, so the run ends without parsing a byte
 * (NotModifiedError, caught by the walk).
 *
 * Validators are kept only from runs that stored everything they read (status "ok"): after a
 * failed request, an unfinished thread or a partial text, the next run must read the listing in
 * full, and a 304 would hide what is still missing. Adapters mark the head request with
 * `conditional: true` (crawler/types.ts FetchOptions); no other request is made conditional.
 */
import { anyJson, parseJsonColumn } from "../../lib/json-column";
import { NonRetryableError, NotModifiedError } from "../errors";
import type { Fetcher, FetchOptions, FetchResult } from "../types";

/** The validators of one head URL, as its last 200 answer gave them. */
export interface UrlValidators {
  etag?: string;
  lastModified?: string;
}

/** What an account keeps of its listing's validators (Account.listValidators, JSON). */
export interface ListValidators {
  /** Per head URL, the validators of the last complete run's answers. */
  urls: Record<string, UrlValidators>;
  /** When they were saved (the end of that run); null: none kept. */
  savedAt: string | null;
  /** When a run last ended on a 304; null: never. */
  notModifiedAt: string | null;
  /** Runs in a row that ended on a 304 (0 after a run that read the listing). */
  notModifiedRuns: number;
  /** Every run that ended on a 304 since the validators were first kept. */
  notModifiedTotal: number;
}

/** Head URLs kept per account: a blog has a feed and an entry page; the rest one. */
const MAX_URLS = 4;
/** Validators longer than this are not a real server's (and not worth storing). */
const MAX_VALUE = 200;

export const NO_VALIDATORS: ListValidators = { urls: {}, savedAt: null, notModifiedAt: null, notModifiedRuns: 0, notModifiedTotal: 0 };

/**
 * Read Account.listValidators. Anything unreadable (hand-edited, an older shape) reads as "none",
 * which only costs one unconditional request.
 */
export function parseListValidators(json: string | null | undefined): ListValidators {
  const raw = parseJsonColumn(json, anyJson, null);
  if (!raw || typeof raw !== "object") return NO_VALIDATORS;
  const r = raw as Record<string, unknown>;
  const urls: Record<string, UrlValidators> = {};
  if (r.urls && typeof r.urls === "object") {
    for (const [url, v] of Object.entries(r.urls as Record<string, unknown>).slice(0, MAX_URLS)) {
      const kept = validatorsOf(v as Record<string, unknown>);
      if (kept) urls[url] = kept;
    }
  }
  const str = (x: unknown) => (typeof x === "string" && !Number.isNaN(Date.parse(x)) ? x : null);
  const count = (x: unknown) => (typeof x === "number" && Number.isInteger(x) && x >= 0 ? x : 0);
  return {
    urls,
    savedAt: str(r.savedAt),
    notModifiedAt: str(r.notModifiedAt),
    notModifiedRuns: count(r.notModifiedRuns),
    notModifiedTotal: count(r.notModifiedTotal),
  };
}

/** The usable validators of a header-like record, or null when it has none. */
function validatorsOf(h: Record<string, unknown> | undefined): UrlValidators | null {
  if (!h) return null;
  const ok = (x: unknown): x is string => typeof x === "string" && x.length > 0 && x.length <= MAX_VALUE && !/[\r\n]/.test(x);
  const out: UrlValidators = {};
  if (ok(h.etag)) out.etag = h.etag;
  if (ok(h.lastModified) && !Number.isNaN(Date.parse(h.lastModified))) out.lastModified = h.lastModified;
  return out.etag || out.lastModified ? out : null;
}

/** One run's conditional layer over the account's fetcher. */
export interface ConditionalLayer {
  /** The fetcher adapters get: head requests conditional, every other request unchanged. */
  readonly fetcher: Fetcher;
  /** Validators the head URLs answered with in this run (200 answers over plain HTTP). */
  readonly seen: Record<string, UrlValidators>;
  /** The head URL that answered 304, or null. */
  readonly notModified: string | null;
}

/**
 * Wrap `inner` for one run. `enabled` false (an account with a re-check window: edits do not
 * change a list page, so a 304 would skip the re-check) sends no validator but still records
 * them, so turning the window off needs no extra run.
 */
export function conditionalLayer(inner: Fetcher, stored: ListValidators, enabled: boolean): ConditionalLayer {
  const seen: Record<string, UrlValidators> = {};
  let notModified: string | null = null;
  const fetcher: Fetcher = {
    async get(url: string, options?: FetchOptions): Promise<FetchResult> {
      if (!options?.conditional) return inner.get(url, options);
      const asked = enabled ? stored.urls[url] : undefined;
      const headers: Record<string, string> = { ...options.headers };
      if (asked?.etag) headers["if-none-match"] = asked.etag;
      if (asked?.lastModified) headers["if-modified-since"] = asked.lastModified;
      const res = await inner.get(url, { ...options, headers });
      if (res.status === 304) {
        // A 304 to a request that carried no validator answers nothing that was asked.
        if (!asked) throw new NonRetryableError("HTTP 304 Not Modified to a request without validators", res.url, 304);
        notModified = url;
        throw new NotModifiedError(url);
      }
      if (!res.viaBrowser && res.status >= 200 && res.status < 300 && Object.keys(seen).length < MAX_URLS) {
        const v = validatorsOf({ etag: res.headers["etag"], lastModified: res.headers["last-modified"] });
        if (v) seen[url] = v;
      }
      return res;
    },
  };
  return {
    fetcher,
    seen,
    get notModified() {
      return notModified;
    },
  };
}

/**
 * The validators to keep after a run: unchanged (with the 304 counted) when the run ended on a
 * 304; this run's when it stored everything it read (`complete`); none otherwise, so the next run
 * reads the listing whole.
 */
export function nextListValidators(prev: ListValidators, layer: ConditionalLayer, complete: boolean, at: Date): ListValidators {
  if (layer.notModified !== null) {
    return { ...prev, notModifiedAt: at.toISOString(), notModifiedRuns: prev.notModifiedRuns + 1, notModifiedTotal: prev.notModifiedTotal + 1 };
  }
  if (!complete || Object.keys(layer.seen).length === 0)
    return { ...NO_VALIDATORS, notModifiedAt: prev.notModifiedAt, notModifiedTotal: prev.notModifiedTotal };
  return { urls: { ...layer.seen }, savedAt: at.toISOString(), notModifiedAt: prev.notModifiedAt, notModifiedRuns: 0, notModifiedTotal: prev.notModifiedTotal };
}
