/**
 * The signed-in user for server components, server actions and route handlers. The proxy only
 * redirects anonymous visitors early; these checks are the ones that count, because a server
 * action or route can be called directly.
 */
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { db } from "../db";
import { can, type Permission } from "../permissions";
import { SCOPE_SELECT, scopeFromRows, type TopicScope } from "../topic-scope";
import { isRole, SESSION_COOKIE, verifySession, type Role } from "./session";

export interface CurrentUser {
  id: number;
  username: string;
  role: Role;
  /** The topics whose flags and incidents the user sees; null: every topic. */
  topics: TopicScope;
}

/** The user behind the request's session cookie, re-read from the database; null when anonymous, disabled or revoked. */
export async function getCurrentUser(): Promise<CurrentUser | null> {
  const token = (await cookies()).get(SESSION_COOKIE)?.value;
  const claims = await verifySession(token);
  if (!claims) return null;
  const user = await db.user.findUnique({
    where: { id: claims.userId },
    select: { id: true, username: true, role: true, disabledAt: true, sessionVersion: true, ...SCOPE_SELECT },
  });
  if (!user || user.disabledAt || !isRole(user.role)) return null;
  // Revoked: the user signed out, or their password, role or enabled state changed since sign-in.
  if (claims.sessionVersion !== user.sessionVersion) return null;
  return { id: user.id, username: user.username, role: user.role, topics: scopeFromRows(user.topicScope) };
}

/** For pages: the signed-in user, or a redirect to the sign-in page. */
export async function requireUser(): Promise<CurrentUser> {
  const user = await getCurrentUser();
  if (!user) redirect("/sign-in");
  return user;
}

/** For pages: the signed-in user holding `permission`, else sign-in (anonymous) or the home page. */
export async function requirePermission(permission: Permission): Promise<CurrentUser> {
  const user = await requireUser();
  if (!can(user.role, permission)) redirect("/?denied=" + encodeURIComponent(permission));
  return user;
}

/** Thrown by {@link authorize} for server actions; carries the HTTP-like status (and, for 403, who was refused what). */
export class AuthError extends Error {
  constructor(
    message: string,
    readonly status: 401 | 403,
    readonly refused?: { role: Role; permission: Permission },
  ) {
    super(message);
  }
}

/** For server actions and route handlers: the user, or an AuthError (401 anonymous, 403 lacking permission). */
export async function authorize(permission: Permission): Promise<CurrentUser> {
  const user = await getCurrentUser();
  if (!user) throw new AuthError("sign-in required", 401);
  if (!can(user.role, permission)) throw new AuthError(`your role (${user.role}) may not ${permission}`, 403, { role: user.role, permission });
  return user;
}
