/** User accounts: creation with validation, shared by the CLI and the dashboard. */
import { z } from "zod";
import type { Db, Prisma } from "./db";
import { hashPassword, newPasswordSchema } from "./auth/password";
import { ROLES, type Role } from "./auth/session";
import { parseInput } from "./validation";

/**
 * A new user. The messages are the CLI's (English); the dashboard shows the same refusals in the
 * reader's language by translating the zod issues (field + code + bound, i18n/validation.ts).
 */
export const newUserSchema = z.object({
  username: z
    .string()
    .trim()
    .min(2, "username must be at least 2 characters")
    .max(64, "username must be at most 64 characters")
    .regex(/^[\p{L}\p{N}_.@-]+$/u, "username may contain letters, digits, _ . @ - only"),
  password: newPasswordSchema,
  role: z.enum(ROLES as unknown as ["admin", "reviewer", "viewer"], {
    error: (issue) => `role must be admin, reviewer or viewer (got ${JSON.stringify(issue.input)})`,
  }),
});
export type NewUser = z.infer<typeof newUserSchema>;

/** Thrown when a username is already taken. */
export class DuplicateUserError extends Error {
  constructor(username: string) {
    super(`user ${JSON.stringify(username)} already exists`);
  }
}

/** Validate and create a user; the password is stored only as a bcrypt hash. */
export async function createUser(db: Db, input: NewUser) {
  const data = parseInput(newUserSchema, input);
  const existing = await db.user.findUnique({ where: { username: data.username } });
  if (existing) throw new DuplicateUserError(data.username);
  return db.user.create({
    data: { username: data.username, role: data.role, passwordHash: await hashPassword(data.password) },
    select: { id: true, username: true, role: true, createdAt: true },
  });
}

// ---- writes of an existing user -----------------------------------------------------------------
// User rows are written only here (docs/tables.md); server/users.ts checks who may do what (not
// yourself, never the last admin) and calls these. Every change of what a user may do (role,
// password, disabled) also moves sessionVersion, so that the sessions issued before it stop working.

/** A client or a transaction. */
type UserWriter = Db | Prisma.TransactionClient;

/** Give a user a role; their sessions end. Throws when the user does not exist, as Prisma's update does. */
export function setUserRole(db: UserWriter, userId: number, role: Role) {
  return db.user.update({ where: { id: userId }, data: { role, sessionVersion: { increment: 1 } } });
}

/** Store a user's new password hash; their sessions end. Throws when the user does not exist. */
export function setUserPasswordHash(db: UserWriter, userId: number, passwordHash: string) {
  return db.user.update({ where: { id: userId }, data: { passwordHash, sessionVersion: { increment: 1 } } });
}

/** Disable a user from `disabledAt`, or enable them (null); their sessions end. Throws when the user does not exist. */
export function setUserDisabledAt(db: UserWriter, userId: number, disabledAt: Date | null) {
  return db.user.update({ where: { id: userId }, data: { disabledAt, sessionVersion: { increment: 1 } } });
}

/** End every session of a user (a user that is gone is not an error). */
export async function endUserSessions(db: UserWriter, userId: number): Promise<void> {
  await db.user.updateMany({ where: { id: userId }, data: { sessionVersion: { increment: 1 } } });
}

/** Record when a user last signed in. */
export async function setLastSignIn(db: UserWriter, userId: number, at: Date): Promise<void> {
  await db.user.update({ where: { id: userId }, data: { lastSignInAt: at }, select: { id: true } });
}

/** Delete a user (the schema refuses one whose reviews must keep who decided). Returns the deleted row. */
export function deleteUserRow(db: UserWriter, userId: number) {
  return db.user.delete({ where: { id: userId } });
}
