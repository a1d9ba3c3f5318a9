/**
 * HTTP validators on list pages, as a server with caching in front (nginx, a CDN) gives them:
 * an `ETag` (a hash of the body) and a `Last-Modified` (when that body was first served), and
 * 304 Not Modified to a request whose `If-None-Match` / `If-Modified-Since` still holds. Off by
 * default (the platforms' own pages rarely send them); `validators` in the server options turns
 * them on, one way or both, so tests and benchmarks can compare.
 */
import { createHash } from "node:crypto";
import type http from "node:http";
import type { Rendered } from "./responses";

/** Which validators list pages carry. */
export type ValidatorMode = "etag" | "last-modified" | "both";

/** Decorates list answers with validators and answers 304 when the client's still hold. */
export function createValidators(mode: ValidatorMode, now: () => Date) {
  // Per URL: the body hash last served and when it was first served (HTTP dates are whole seconds).
  const firstServed = new Map<string, { hash: string; at: Date }>();
  return (url: URL, req: http.IncomingMessage, rendered: Rendered): Rendered => {
    if (rendered.status !== 200) return rendered;
    const hash = createHash("sha1").update(rendered.body).digest("base64url").slice(0, 20);
    const key = url.pathname + url.search;
    let seen = firstServed.get(key);
    if (!seen || seen.hash !== hash) {
      seen = { hash, at: new Date(Math.floor(now().getTime() / 1000) * 1000) };
      firstServed.set(key, seen);
    }
    const etag = `"${hash}"`;
    const lastModified = seen.at.toUTCString();
    const headers: Record<string, string> = { ...rendered.headers };
    if (mode !== "last-modified") headers["etag"] = etag;
    if (mode !== "etag") headers["last-modified"] = lastModified;
    // RFC 9110 §13.2.2: If-None-Match is judged first; If-Modified-Since only without it.
    const inm = req.headers["if-none-match"];
    const ims = req.headers["if-modified-since"];
    const unchanged =
      inm !== undefined
        ? mode !== "last-modified" && inm.split(",").some((t) => t.trim().replace(/^W\//, "") === etag)
        : ims !== undefined && mode !== "etag" && Date.parse(ims) >= seen.at.getTime();
    if (unchanged) return { status: 304, contentType: rendered.contentType, body: "", headers };
    return { ...rendered, headers };
  };
}
