/** User accounts: creation with validation, shared by the CLI and the dashboard. */
import { z } from "zod";
import type { Db } from "./db";
import { hashPassword, newPasswordSchema } from "./auth/password";
import { ROLES } from "./auth/session";
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
  role: z.enum(ROLES as unknown as ["admin", "reviewer"], {
    error: (issue) => `role must be admin or reviewer (got ${JSON.stringify(issue.input)})`,
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
