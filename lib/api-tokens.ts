/**
 * Personal API tokens (issue 33): the one writer of the `ApiToken` table (docs/tables.md). The
 * dashboard's tokens page, `campuswatch tokens` and the `/api/v1/` routes all come here.
 *
 * A token is `cwt_` + 32 random bytes (base64url): unguessable, so a plain SHA-256 of it is enough
 * to store (no salt or slow hash needed, unlike a password); only the hash and the first characters
 * (to tell tokens apart in a list) are kept, and the token itself is shown once. A request's token
 * is looked up by its hash and the stored hash compared again in constant time. Revoked, expired
 * and disabled-owner tokens are refused at once: nothing is cached.
 *
 * A token acts as its owner: the owner's role still applies (lib/permissions.ts), and a `read`
 * token never reviews even when its owner may.
 */
import crypto from "node:crypto";
import { z } from "zod";
import type { Db } from "./db";
import { recordAudit, type AuditActor } from "./audit";
import { can } from "./permissions";
import { ROLES, type Role } from "./auth/session";
import { SCOPE_SELECT, scopeFromRows, type TopicScope } from "./topic-scope";
import { ValidationError } from "./validation";

export const TOKEN_SCOPES = ["read", "review"] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/** Tokens a user may hold at once (a leak of many is worse than of one; revoke old ones). */
export const MAX_TOKENS_PER_USER = 20;
const TOKEN_PREFIX = "cwt_";

/** The SHA-256 (hex) of a token, as stored. */
export function hashToken(token: string): string {
  return crypto.createHash("sha256").update(token, "utf8").digest("hex");
}

export const newTokenSchema = z.object({
  name: z.string().trim().min(1, "name the token (what uses it)").max(100, "at most 100 characters"),
  scope: z.enum(TOKEN_SCOPES, { error: "scope must be read or review" }),
  /** Days until it expires; empty: never. */
  expiresInDays: z.preprocess(
    (v) => (v === "" || v === null || v === undefined ? undefined : v),
    z.coerce.number().int("whole days").min(1, "at least 1 day").max(3650, "at most 3650 days").optional(),
  ),
});
export type NewToken = z.input<typeof newTokenSchema>;

/** A token as lists show it: never its hash. */
export interface TokenInfo {
  id: number;
  userId: number;
  username: string;
  name: string;
  prefix: string;
  scope: string;
  createdAt: Date;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  /** At the time of listing. */
  state: "active" | "expired" | "revoked";
}

const INFO_SELECT = {
  id: true,
  userId: true,
  name: true,
  prefix: true,
  scope: true,
  createdAt: true,
  expiresAt: true,
  lastUsedAt: true,
  revokedAt: true,
  user: { select: { username: true } },
} as const;

function info(r: { user: { username: string } } & Omit<TokenInfo, "username" | "state">, now = new Date()): TokenInfo {
  const { user, ...rest } = r;
  const state = r.revokedAt ? "revoked" : r.expiresAt && r.expiresAt.getTime() <= now.getTime() ? "expired" : "active";
  return { ...rest, username: user.username, state };
}

/**
 * Create a token for `owner`. Returns the token (to show once) and its row. A `review` token is
 * refused for an owner whose role may not review; a name is required.
 * @throws ValidationError (fields name, scope, expiresInDays; code "tooManyTokens", "scopeNotAllowed")
 */
export async function createApiToken(
  db: Db,
  owner: { id: number; username: string; role: Role },
  input: NewToken,
  actor: AuditActor,
  now = new Date(),
): Promise<{ token: string; info: TokenInfo }> {
  const parsed = newTokenSchema.safeParse(input);
  if (!parsed.success) {
    const fields: Record<string, string[]> = {};
    for (const i of parsed.error.issues) (fields[i.path.map(String).join(".") || "_"] ??= []).push(i.message);
    throw new ValidationError(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "), fields, { issues: parsed.error.issues });
  }
  const { name, scope, expiresInDays } = parsed.data;
  if (scope === "review" && !can(owner.role, "review"))
    throw new ValidationError(`scope: a ${owner.role} may not review`, { scope: ["your role may not review"] }, { code: "scopeNotAllowed" });
  const live = await db.apiToken.count({ where: { userId: owner.id, revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] } });
  if (live >= MAX_TOKENS_PER_USER)
    throw new ValidationError(
      `at most ${MAX_TOKENS_PER_USER} tokens: revoke one first`,
      { _: [`at most ${MAX_TOKENS_PER_USER} tokens`] },
      { code: "tooManyTokens" },
    );
  const token = TOKEN_PREFIX + crypto.randomBytes(32).toString("base64url");
  const expiresAt = expiresInDays ? new Date(now.getTime() + expiresInDays * 86_400_000) : null;
  const row = await db.apiToken.create({
    data: { userId: owner.id, name, scope, tokenHash: hashToken(token), prefix: token.slice(0, TOKEN_PREFIX.length + 6), createdAt: now, expiresAt },
    select: INFO_SELECT,
  });
  await recordAudit(
    db,
    actor,
    {
      kind: "token",
      action: "create",
      targetId: row.id,
      target: `${owner.username}: ${name}`,
      after: { name, scope, expiresAt: expiresAt?.toISOString() ?? null, prefix: row.prefix },
    },
    now,
  );
  return { token, info: info(row, now) };
}

/** Tokens, newest first: a user's own (`userId`), or everyone's (an admin's list, the CLI). */
export async function listApiTokens(db: Db, userId?: number, now = new Date()): Promise<TokenInfo[]> {
  const rows = await db.apiToken.findMany({ where: userId === undefined ? {} : { userId }, orderBy: { id: "desc" }, select: INFO_SELECT });
  return rows.map((r) => info(r, now));
}

/**
 * Revoke a token: refused from the next request on. Only its owner or an admin may (`by` null: the
 * CLI, the operator at the machine). Revoking twice changes nothing and records nothing.
 * @returns false when there is no such token (or it is someone else's and `by` is no admin)
 */
export async function revokeApiToken(db: Db, id: number, by: { id: number; role: Role } | null, actor: AuditActor, now = new Date()): Promise<boolean> {
  const row = await db.apiToken.findUnique({ where: { id }, select: { ...INFO_SELECT } });
  if (!row) return false;
  if (by && by.role !== "admin" && row.userId !== by.id) return false;
  if (row.revokedAt) return true;
  const { count } = await db.apiToken.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: now } });
  if (count > 0)
    await recordAudit(
      db,
      actor,
      { kind: "token", action: "revoke", targetId: id, target: `${row.user.username}: ${row.name}`, before: { revoked: false }, after: { revoked: true } },
      now,
    );
  return true;
}

/** Why a token was refused (each a 401 for the API). */
export type TokenRefusal = "missing" | "unknown" | "revoked" | "expired" | "owner-disabled";

/** The token's owner as the API acts for them. */
export interface TokenUser {
  tokenId: number;
  scope: TokenScope;
  id: number;
  username: string;
  role: Role;
  /** The owner's topic scope (lib/topic-scope.ts): a token sees what its owner sees. */
  topics: TopicScope;
}

/** Do not write `lastUsedAt` more often than this per token (a busy client would write on every request). */
const LAST_USED_STEP_MS = 60_000;

/**
 * The owner behind a token, or why not. Looked up by hash, compared again in constant time; the
 * row is read on every request, so a revoke or an expiry takes effect at once.
 */
export async function verifyApiToken(db: Db, token: string | null | undefined, now = new Date()): Promise<{ user: TokenUser } | { refused: TokenRefusal }> {
  if (!token || !token.startsWith(TOKEN_PREFIX) || token.length > 200) return { refused: token ? "unknown" : "missing" };
  const hash = hashToken(token);
  const row = await db.apiToken.findUnique({
    where: { tokenHash: hash },
    select: {
      id: true,
      tokenHash: true,
      scope: true,
      expiresAt: true,
      revokedAt: true,
      lastUsedAt: true,
      user: { select: { id: true, username: true, role: true, disabledAt: true, ...SCOPE_SELECT } },
    },
  });
  if (!row || !crypto.timingSafeEqual(Buffer.from(row.tokenHash, "hex"), Buffer.from(hash, "hex"))) return { refused: "unknown" };
  if (row.revokedAt) return { refused: "revoked" };
  if (row.expiresAt && row.expiresAt.getTime() <= now.getTime()) return { refused: "expired" };
  const role = row.user.role as Role;
  if (row.user.disabledAt || !(ROLES as readonly string[]).includes(role)) return { refused: "owner-disabled" };
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > LAST_USED_STEP_MS)
    await db.apiToken.update({ where: { id: row.id }, data: { lastUsedAt: now } });
  return {
    user: { tokenId: row.id, scope: row.scope as TokenScope, id: row.user.id, username: row.user.username, role, topics: scopeFromRows(row.user.topicScope) },
  };
}
