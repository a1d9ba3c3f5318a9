/**
 * Signed session tokens carried in an httpOnly, SameSite=Lax cookie. The token holds only the user
 * id, name and role; every request re-reads the user from the database (see current-user.ts), so a
 * deleted or demoted user loses access at once.
 */
import { SignJWT, jwtVerify } from "jose";
import { sessionSecret } from "../config";

export const SESSION_COOKIE = "cw_session";
/** Sessions last 12 hours. */
export const SESSION_TTL_SECONDS = 12 * 60 * 60;

export type Role = "admin" | "reviewer";
export const ROLES: readonly Role[] = ["admin", "reviewer"] as const;

export interface SessionClaims {
  userId: number;
  username: string;
  role: Role;
}

/** Sign a session token for a user. */
export async function signSession(claims: SessionClaims): Promise<string> {
  return new SignJWT({ username: claims.username, role: claims.role })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(String(claims.userId))
    .setIssuedAt()
    .setExpirationTime(`${SESSION_TTL_SECONDS}s`)
    .sign(sessionSecret());
}

/** Verify a token; null when missing, forged, expired or malformed. */
export async function verifySession(token: string | undefined): Promise<SessionClaims | null> {
  if (!token) return null;
  try {
    const { payload } = await jwtVerify(token, sessionSecret(), { algorithms: ["HS256"] });
    const userId = Number(payload.sub);
    const role = payload.role;
    if (!Number.isInteger(userId) || (role !== "admin" && role !== "reviewer")) return null;
    return { userId, username: String(payload.username ?? ""), role };
  } catch {
    return null;
  }
}

/** Cookie attributes for the session cookie. `secure` follows the request's scheme. */
export function sessionCookieOptions(secure: boolean) {
  return {
    httpOnly: true,
    sameSite: "lax" as const,
    secure,
    path: "/",
    maxAge: SESSION_TTL_SECONDS,
  };
}
