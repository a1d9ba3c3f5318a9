/**
 * The first admin of an empty installation. CampusWatch never ships a known login: when the
 * database has no user, `campuswatch run`/`serve` print a one-time setup link with a random token.
 * Only the token's SHA-256 is stored; the link works until it is used, once, and only while there
 * is still no user (a second admin comes from the Users page or `campuswatch user add`).
 */
import crypto from "node:crypto";
import type { Db } from "../db";
import { createUser } from "../users";
import { ValidationError } from "../validation";

function sha256(token: string): string {
  return crypto.createHash("sha256").update(token).digest("hex");
}

/**
 * A fresh setup token when the database has no user, else null. Unused older tokens are removed:
 * their links were printed by an earlier start and only the newest one is shown now.
 */
export async function createSetupToken(db: Db): Promise<string | null> {
  if ((await db.user.count()) > 0) return null;
  const token = crypto.randomBytes(32).toString("base64url");
  await db.$transaction([db.setupToken.deleteMany({ where: { usedAt: null } }), db.setupToken.create({ data: { tokenHash: sha256(token) } })]);
  return token;
}

/** The state of a setup link, for the setup page. */
export type SetupLinkState = "valid" | "invalid" | "done";

/** Whether `token` can still create the first admin ("done" once any user exists). */
export async function setupLinkState(db: Db, token: string | undefined): Promise<SetupLinkState> {
  if ((await db.user.count()) > 0) return "done";
  if (!token) return "invalid";
  const row = await db.setupToken.findUnique({ where: { tokenHash: sha256(token) } });
  return row && !row.usedAt ? "valid" : "invalid";
}

/**
 * Create the first admin with a setup token: the token is marked used and the admin created in
 * one transaction, so two browsers racing with the same link make one admin, not two.
 * Throws a ValidationError (field `_` for the link, or the user fields) otherwise.
 */
export async function completeSetup(db: Db, token: string, input: { username: string; password: string }) {
  return db.$transaction(async (tx) => {
    const used = await tx.setupToken.updateMany({ where: { tokenHash: sha256(token), usedAt: null }, data: { usedAt: new Date() } });
    if (used.count !== 1 || (await tx.user.count()) > 0) {
      const message = "This setup link is no longer valid: it was used already, or CampusWatch has an admin.";
      throw new ValidationError(message, { _: [message] }, { code: "setupLinkUsed" });
    }
    return createUser(tx as unknown as Db, { ...input, role: "admin" });
  });
}

/** The line `run`/`serve` print at start when there is no user yet (and the token behind it). */
export async function setupLinkMessage(db: Db, baseUrl: string): Promise<string | null> {
  const token = await createSetupToken(db);
  if (!token) return null;
  return [
    "No dashboard user exists yet. Create the first admin with this one-time link (it works once):",
    `  ${baseUrl.replace(/\/+$/, "")}/setup?token=${token}`,
    "or on the command line: npx campuswatch user add --username NAME --password '…' --role admin",
  ].join("\n");
}
