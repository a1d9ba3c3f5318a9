/**
 * The `/api/v1/` routes' frame (issue 33): a personal API token (lib/api-tokens.ts) in
 * `Authorization: Bearer …` — or, for feeds a reader cannot give headers, `?token=` — checked on
 * every request, the token's scope and its owner's role (lib/permissions.ts) checked against what
 * the route does, a rate limit per token, and one body shape for every answer:
 * `{ data, nextCursor }` on success, `{ error: { code, message } }` on failure.
 *
 * The session cookie is not accepted here: a token is the API's only credential, so a page a
 * signed-in user opens cannot make their browser review a flag through the API (no CSRF surface).
 */
import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { db } from "./db";
import { verifyApiToken, type TokenRefusal, type TokenScope, type TokenUser } from "./api-tokens";
import { can, type Permission } from "./permissions";
import { ValidationError } from "./validation";

/** Requests one token may make per minute (`CAMPUSWATCH_API_RATE_PER_MINUTE`; default 120). */
export function apiRatePerMinute(): number {
  const n = Number(process.env.CAMPUSWATCH_API_RATE_PER_MINUTE);
  return Number.isInteger(n) && n > 0 ? n : 120;
}

let limiter: RateLimiterMemory | null = null;
function rateLimiter(): RateLimiterMemory {
  limiter ??= new RateLimiterMemory({ keyPrefix: "api-v1", points: apiRatePerMinute(), duration: 60 });
  return limiter;
}

const JSON_HEADERS = { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" };

/** An error answer: `{ error: { code, message } }`. */
export function apiError(status: number, code: string, message: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ error: { code, message } }), { status, headers: { ...JSON_HEADERS, ...headers } });
}

/** A success answer: `{ data, nextCursor }` (nextCursor null on the last page and for single objects). */
export function apiData(data: unknown, nextCursor: string | null = null, status = 200): Response {
  return new Response(JSON.stringify({ data, nextCursor }), { status, headers: JSON_HEADERS });
}

const REFUSAL_TEXT: Record<TokenRefusal, string> = {
  missing: "an API token is required: Authorization: Bearer <token>",
  unknown: "unknown API token",
  revoked: "this API token was revoked",
  expired: "this API token has expired",
  "owner-disabled": "the owner of this API token cannot sign in",
};

/** What a route needs: the token's scope, and the permission its owner's role must hold. */
export interface RouteNeeds {
  scope: TokenScope;
  permission: Permission;
  /** Accept the token from `?token=` (feeds only: a feed reader sends no headers). */
  tokenInQuery?: boolean;
}

/** The token of a request: the Bearer header, else (feeds) the `token` query parameter. */
function tokenOf(req: Request, inQuery: boolean): string | null {
  const header = req.headers.get("authorization");
  const m = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  if (m?.[1]) return m[1];
  if (inQuery) return new URL(req.url).searchParams.get("token");
  return null;
}

/**
 * Wrap a `/api/v1/` route handler: token, scope, role, rate limit; a ValidationError thrown by the
 * handler is a 400 `invalid`, anything else a 500 without details.
 */
export function withToken<C>(needs: RouteNeeds, handler: (req: Request, user: TokenUser, context: C) => Response | Promise<Response>) {
  return async (req: Request, context: C): Promise<Response> => {
    const header = req.headers.get("authorization");
    if (header && !/^Bearer\s+\S+\s*$/i.test(header)) return apiError(401, "unauthenticated", "use Authorization: Bearer <token>");
    const checked = await verifyApiToken(db, tokenOf(req, needs.tokenInQuery ?? false));
    if ("refused" in checked)
      return apiError(401, checked.refused === "missing" ? "unauthenticated" : `token-${checked.refused}`, REFUSAL_TEXT[checked.refused]);
    const user = checked.user;
    try {
      await rateLimiter().consume(`token:${user.tokenId}`);
    } catch (e) {
      if (e instanceof RateLimiterRes)
        return apiError(429, "rate-limited", `at most ${apiRatePerMinute()} requests a minute per token`, {
          "retry-after": String(Math.ceil(e.msBeforeNext / 1000)),
        });
      throw e;
    }
    if (needs.scope === "review" && user.scope !== "review") return apiError(403, "scope", "this needs a token with the review scope");
    if (!can(user.role, needs.permission)) return apiError(403, "forbidden", `the token's owner (${user.role}) may not ${needs.permission}`);
    try {
      return await handler(req, user, context);
    } catch (e) {
      if (e instanceof ValidationError) return apiError(400, "invalid", e.message);
      console.error(e);
      return apiError(500, "internal", "internal error");
    }
  };
}

/** An opaque cursor: the last id of a page (newest first), base64url. */
export function encodeIdCursor(id: number): string {
  return Buffer.from(`id:${id}`).toString("base64url");
}

/** The id of a cursor, or a ValidationError for one this API did not make. */
export function decodeIdCursor(cursor: string | null | undefined): number | undefined {
  if (!cursor) return undefined;
  const m = /^id:(\d{1,12})$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  if (!m) throw new ValidationError("cursor: not a cursor this API returned", { cursor: ["invalid"] });
  return Number(m[1]);
}
