/**
 * What a request may do before its sender has signed in. Shared by the Next.js proxy (proxy.ts:
 * which paths are open) and the dashboard's HTTP server (bin/dashboard-server.mjs: how large a body
 * it lets through to Next.js).
 */
import { SESSION_COOKIE, verifySession } from "./session";

/** Paths open without a session: sign-in, and the first-admin setup link (it checks its token itself). */
export const PUBLIC_PATHS: ReadonlySet<string> = new Set(["/sign-in", "/setup"]);

/**
 * The largest request body accepted before sign-in. The sign-in and setup forms send well under
 * 1 KB; without this, Next.js would read up to 10 MB of any request into memory (for its proxy)
 * before the proxy even sees that nobody is signed in.
 */
export const PRE_AUTH_BODY_LIMIT_BYTES = 16 * 1024;

/** The session cookie's value in a `Cookie` request header, if any (the first one, as Next.js reads it). */
function sessionToken(cookieHeader: string | undefined): string | undefined {
  for (const part of (cookieHeader ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * The body limit for a request to `url` (a request target such as `/sign-in?x=1`) carrying this
 * `Cookie` header: {@link PRE_AUTH_BODY_LIMIT_BYTES} for the public paths and for every request
 * without a valid session (signed by this install and not expired), else null — no limit of ours,
 * only the per-form limits of Next.js (next.config.ts). A session revoked since it was signed still
 * counts as signed in here (its pages refuse it): only someone who once signed in has one.
 */
export async function preAuthBodyLimit(url: string, cookieHeader: string | undefined): Promise<number | null> {
  let pathname: string;
  try {
    pathname = new URL(url, "http://campuswatch.invalid").pathname;
  } catch {
    return PRE_AUTH_BODY_LIMIT_BYTES;
  }
  if (PUBLIC_PATHS.has(pathname)) return PRE_AUTH_BODY_LIMIT_BYTES;
  return (await verifySession(sessionToken(cookieHeader))) ? null : PRE_AUTH_BODY_LIMIT_BYTES;
}
