/**
 * The first admin of an empty installation. CampusWatch never ships a known login: when the
 * database has no user, `campuswatch run`/`serve` print a one-time setup link with a random token.
 * Only the token's SHA-256 is stored; the link works once, for {@link SETUP_LINK_TTL_MS} (24 hours)
 * after it was printed, and only while there is still no user (a second admin comes from the Users
 * page or `campuswatch user add`). A link found in an old log or terminal scroll-back later is
 * worthless; restarting `serve`/`run` prints a fresh one.
 */
import crypto from "node:crypto";
import type { Db } from "../db";
import { createUser } from "../users";
import { ValidationError } from "../validation";

/** How long a setup link works after it was made: 24 hours. */
export const SETUP_LINK_TTL_MS = 24 * 60 * 60 * 1000;

/** The oldest creation time a link may have at `now` and still work. */
function oldestValid(now: Date): Date {
  return new Date(now.getTime() - SETUP_LINK_TTL_MS);
}

function sha256(token: string): string {
  return crypto.createHash("sha256").update(token).digest("hex");
}

/**
 * A fresh setup token when the database has no user, else null. Unused older tokens are removed:
 * their links were printed by an earlier start and only the newest one is shown now.
 */
export async function createSetupToken(db: Db, now = new Date()): Promise<string | null> {
  if ((await db.user.count()) > 0) return null;
  const token = crypto.randomBytes(32).toString("base64url");
  await db.$transaction([db.setupToken.deleteMany({ where: { usedAt: null } }), db.setupToken.create({ data: { tokenHash: sha256(token), createdAt: now } })]);
  return token;
}

/** The state of a setup link, for the setup page. */
export type SetupLinkState = "valid" | "invalid" | "expired" | "done";

/** Whether `token` can still create the first admin at `now` ("done" once any user exists). */
export async function setupLinkState(db: Db, token: string | undefined, now = new Date()): Promise<SetupLinkState> {
  if ((await db.user.count()) > 0) return "done";
  if (!token) return "invalid";
  const row = await db.setupToken.findUnique({ where: { tokenHash: sha256(token) } });
  if (!row || row.usedAt) return "invalid";
  return row.createdAt > oldestValid(now) ? "valid" : "expired";
}

/**
 * Create the first admin with a setup token: the token is marked used and the admin created in
 * one transaction, so two browsers racing with the same link make one admin, not two.
 * Throws a ValidationError (field `_` for the link, or the user fields) otherwise.
 */
export async function completeSetup(db: Db, token: string, input: { username: string; password: string }, now = new Date()) {
  return db.$transaction(async (tx) => {
    const tokenHash = sha256(token);
    const used = await tx.setupToken.updateMany({ where: { tokenHash, usedAt: null, createdAt: { gt: oldestValid(now) } }, data: { usedAt: now } });
    if (used.count !== 1 && (await tx.setupToken.count({ where: { tokenHash, usedAt: null } })) === 1) {
      const message = "This setup link has expired: links work for 24 hours. Restart campuswatch serve (or run) to print a new one.";
      throw new ValidationError(message, { _: [message] }, { code: "setupLinkExpired" });
    }
    if (used.count !== 1 || (await tx.user.count()) > 0) {
      const message = "This setup link is no longer valid: it was used already, or CampusWatch has an admin.";
      throw new ValidationError(message, { _: [message] }, { code: "setupLinkUsed" });
    }
    return createUser(tx as unknown as Db, { ...input, role: "admin" });
  });
}

/** The line `run`/`serve` print at start when there is no user yet (and the token behind it). */
export async function setupLinkMessage(db: Db, baseUrl: string, now = new Date()): Promise<string | null> {
  const token = await createSetupToken(db, now);
  if (!token) return null;
  return [
    "No dashboard user exists yet. Create the first admin with this one-time link (it works once, for 24 hours):",
    `  ${baseUrl.replace(/\/+$/, "")}/setup?token=${token}`,
    "or on the command line: npx campuswatch user add --username NAME --password '…' --role admin",
  ].join("\n");
}
