/**
 * First line of defence: anonymous requests never reach a page or an API route. Pages redirect
 * to the sign-in page; API routes answer 401 with the JSON error body. Pages, server actions and
 * route handlers check the session (and role) again themselves — this is only the early exit.
 */
import { NextResponse, type NextRequest } from "next/server";
import { SESSION_COOKIE, verifySession } from "./lib/auth/session";
import { PUBLIC_PATHS } from "./lib/auth/pre-auth";

export async function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  if (PUBLIC_PATHS.has(pathname)) return NextResponse.next();
  const session = await verifySession(request.cookies.get(SESSION_COOKIE)?.value);
  if (session) return NextResponse.next();
  if (pathname.startsWith("/api/")) {
    return NextResponse.json({ error: { message: "sign-in required", code: "unauthenticated" } }, { status: 401 });
  }
  const url = request.nextUrl.clone();
  url.pathname = "/sign-in";
  url.search = pathname === "/" ? "" : `?next=${encodeURIComponent(pathname + search)}`;
  return NextResponse.redirect(url);
}

export const config = {
  // Everything but Next's own static assets.
  matcher: ["/((?!_next/static|_next/image|favicon.ico).*)"],
};
