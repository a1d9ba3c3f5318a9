/**
 * Route handler helpers: one error body shape `{ error: { message, code } }` everywhere.
 */
import { NextResponse } from "next/server";
import { AuthError, authorize, type CurrentUser } from "./auth/current-user";
import type { Permission } from "./permissions";
import { ValidationError } from "./validation";

/** A JSON error response. */
export function jsonError(status: number, message: string, code: string) {
  return NextResponse.json({ error: { message, code } }, { status });
}

/**
 * Wrap a route handler: authorizes first (401/403 with the JSON error body), then maps thrown
 * ValidationErrors to 400 and anything else to 500.
 */
export function withAuth<C>(permission: Permission, handler: (req: Request, user: CurrentUser, context: C) => Response | Promise<Response>) {
  return async (req: Request, context: C): Promise<Response> => {
    let user: CurrentUser;
    try {
      user = await authorize(permission);
    } catch (e) {
      if (e instanceof AuthError) return jsonError(e.status, e.message, e.status === 401 ? "unauthenticated" : "forbidden");
      throw e;
    }
    try {
      return await handler(req, user, context);
    } catch (e) {
      if (e instanceof ValidationError) return jsonError(400, e.message, "invalid");
      console.error(e);
      return jsonError(500, "internal error", "internal");
    }
  };
}
