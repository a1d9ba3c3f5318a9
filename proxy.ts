/**
 * Runs before every page, API route and server action (everything but Next's static files):
 *
 * 1. Security headers on every response it lets through or answers itself — sign-in, setup, the
 *    401 JSON body, redirects: a fresh CSP nonce per request (lib/security-headers.ts). The CSP
 *    also goes on the *request*, where Next.js reads the nonce and puts it on the scripts it emits.
 * 2. First line of defence: anonymous requests never reach a page or an API route. Pages redirect
 *    to the sign-in page; API routes answer 401 with the JSON error body. Pages, server actions and
 *    route handlers check the session (and role) again themselves — this is only the early exit.
 */
import { NextResponse, type NextRequest } from "next/server";
import { SESSION_COOKIE, verifySession } from "./lib/auth/session";
import { PUBLIC_PATHS as PRE_AUTH_PATHS } from "./lib/auth/pre-auth";
import { publicUrl } from "./lib/config";
import { CSP_REPORT_PATH, STATIC_SECURITY_HEADERS, newNonce, perRequestSecurityHeaders } from "./lib/security-headers";

// /sign-in and /setup (lib/auth/pre-auth.ts) answer anonymous visitors. Browsers send CSP reports
// without the session cookie's help (the route caps and rate-limits them itself).
const PUBLIC_PATHS = new Set([...PRE_AUTH_PATHS, CSP_REPORT_PATH]);
const API_V1_PREFIX = "/api/v1/";

export async function proxy(request: NextRequest) {
  const nonce = newNonce();
  const headers = perRequestSecurityHeaders(nonce, { publicUrl: publicUrl(), dev: process.env.NODE_ENV === "development" });
  const secure = (response: NextResponse) => {
    for (const [name, value] of Object.entries({ ...STATIC_SECURITY_HEADERS, ...headers })) response.headers.set(name, value);
    return response;
  };
  const { pathname, search } = request.nextUrl;
  // The token API (/api/v1/) takes no session: each route checks its API token itself (lib/api-v1.ts).
  const open = PUBLIC_PATHS.has(pathname) || pathname.startsWith(API_V1_PREFIX);
  const session = open ? null : await verifySession(request.cookies.get(SESSION_COOKIE)?.value);
  if (open || session) {
    const requestHeaders = new Headers(request.headers);
    requestHeaders.set("Content-Security-Policy", headers["Content-Security-Policy"]!);
    return secure(NextResponse.next({ request: { headers: requestHeaders } }));
  }
  if (pathname.startsWith("/api/")) {
    return secure(NextResponse.json({ error: { message: "sign-in required", code: "unauthenticated" } }, { status: 401 }));
  }
  const url = request.nextUrl.clone();
  url.pathname = "/sign-in";
  url.search = pathname === "/" ? "" : `?next=${encodeURIComponent(pathname + search)}`;
  return secure(NextResponse.redirect(url));
}

export const config = {
  // Everything but Next's own static assets (next.config.ts gives those a script-free CSP).
  matcher: ["/((?!_next/static|_next/image|favicon.ico).*)"],
};
