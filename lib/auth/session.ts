/**
 * Signed session tokens carried in an httpOnly, SameSite=Lax cookie. The token holds the user id,
 * name, role and the user's session version at sign-in; every request re-reads the user from the
 * database (see current-user.ts) and refuses a token whose version is older than the user's, so
 * sign-out, a password reset, a role change and disabling end every session of that user.
 */
import { SignJWT, jwtVerify } from "jose";
import { publicUrl, sessionSecret } from "../config";

export const SESSION_COOKIE = "cw_session";
/** Sessions last 12 hours. */
export const SESSION_TTL_SECONDS = 12 * 60 * 60;

export type Role = "admin" | "reviewer" | "viewer";
export const ROLES: readonly Role[] = ["admin", "reviewer", "viewer"] as const;

/** True when `role` is one of {@link ROLES} (a row or token may carry a role this version does not know). */
export function isRole(role: unknown): role is Role {
  return (ROLES as readonly unknown[]).includes(role);
}

export interface SessionClaims {
  userId: number;
  username: string;
  role: Role;
  /** The user's `sessionVersion` when the session was signed. */
  sessionVersion: number;
}

/** Sign a session token for a user. */
export async function signSession(claims: SessionClaims): Promise<string> {
  return new SignJWT({ username: claims.username, role: claims.role, sv: claims.sessionVersion })
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
    const sessionVersion = payload.sv;
    if (!Number.isInteger(userId) || !isRole(role)) return null;
    // Tokens signed before session versions existed carry none: they are refused like revoked ones.
    if (typeof sessionVersion !== "number" || !Number.isInteger(sessionVersion)) return null;
    return { userId, username: typeof payload.username === "string" ? payload.username : "", role, sessionVersion };
  } catch {
    return null;
  }
}

/**
 * Whether the session cookie gets the Secure flag: when the dashboard's public URL is https, or the
 * request came over https (`x-forwarded-proto` from a reverse proxy that terminates TLS).
 */
export function secureCookie(forwardedProto: string | null | undefined): boolean {
  if (publicUrl()?.toLowerCase().startsWith("https:")) return true;
  return (forwardedProto ?? "").split(",")[0]!.trim().toLowerCase() === "https";
}

/** Cookie attributes for the session cookie (see {@link secureCookie} for `secure`). */
export function sessionCookieOptions(secure: boolean) {
  return {
    httpOnly: true,
    sameSite: "lax" as const,
    secure,
    path: "/",
    maxAge: SESSION_TTL_SECONDS,
  };
}
