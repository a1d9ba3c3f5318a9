/**
 * Dashboard user management. Two rules the server enforces whatever the UI shows: nobody deletes,
 * disables or demotes themselves, and there is always at least one enabled admin left.
 */
import { z } from "zod";
import type { Db } from "../db";
import { hashPassword } from "../auth/password";
import { createUser, DuplicateUserError, newUserSchema } from "../users";
import { ValidationError } from "../validation";

export { newUserSchema };
export const passwordSchema = z.object({ password: z.string().min(8, "password must be at least 8 characters").max(200) });
export const roleSchema = z.object({ role: z.enum(["admin", "reviewer"], { error: "role must be admin or reviewer" }) });

export function listUsers(db: Db) {
  return db.user.findMany({
    orderBy: { id: "asc" },
    select: { id: true, username: true, role: true, createdAt: true, lastSignInAt: true, disabledAt: true, _count: { select: { reviews: true } } },
  });
}

/** Create a user; a taken name is a field error. */
export async function addUser(db: Db, input: z.infer<typeof newUserSchema>) {
  try {
    return await createUser(db, input);
  } catch (e) {
    if (e instanceof DuplicateUserError) throw new ValidationError("username: taken", { username: ["this username is taken"] });
    throw e;
  }
}

async function assertAnotherAdmin(db: Db, userId: number, what: string) {
  // A disabled admin cannot sign in, so does not count.
  const admins = await db.user.count({ where: { role: "admin", disabledAt: null, id: { not: userId } } });
  if (admins === 0) throw new ValidationError(`${what}: last admin`, { _: [`This is the last admin: ${what} would leave nobody able to manage CampusWatch.`] });
}

/** Change a user's role. Refuses to demote yourself or the last admin. */
export async function changeRole(db: Db, actorId: number, userId: number, role: "admin" | "reviewer") {
  const user = await db.user.findUnique({ where: { id: userId } });
  if (!user) throw new ValidationError("no such user", { _: ["That user no longer exists."] });
  if (user.role === role) return user;
  if (role !== "admin") {
    if (userId === actorId) throw new ValidationError("self", { _: ["You cannot change your own role; ask another admin."] });
    await assertAnotherAdmin(db, userId, "demoting them");
  }
  return db.user.update({ where: { id: userId }, data: { role } });
}

/** Set a new password. */
export async function resetPassword(db: Db, userId: number, password: string) {
  return db.user.update({ where: { id: userId }, data: { passwordHash: await hashPassword(password) } });
}

/**
 * Delete a user. Refuses yourself and the last admin. Review rows must keep who decided (the
 * schema restricts deleting a reviewer with reviews), so a user who has reviewed is refused with a
 * message suggesting a password reset or a role change instead.
 */
export async function deleteUser(db: Db, actorId: number, userId: number) {
  if (userId === actorId) throw new ValidationError("self", { _: ["You cannot delete yourself."] });
  const user = await db.user.findUnique({ where: { id: userId }, include: { _count: { select: { reviews: true } } } });
  if (!user) return null;
  if (user.role === "admin") await assertAnotherAdmin(db, userId, "deleting them");
  if (user._count.reviews > 0) {
    throw new ValidationError("has reviews", {
      _: [`${user.username} made ${user._count.reviews} review decisions; deleting the account would erase who decided. Disable the user instead.`],
    });
  }
  return db.user.delete({ where: { id: userId } });
}

/**
 * Disable or re-enable a user. A disabled user cannot sign in, and the sessions they hold stop
 * working at their next request (every request re-reads the user). Refuses yourself and the last
 * enabled admin.
 */
export async function setUserDisabled(db: Db, actorId: number, userId: number, disabled: boolean) {
  const user = await db.user.findUnique({ where: { id: userId } });
  if (!user) throw new ValidationError("no such user", { _: ["That user no longer exists."] });
  if (Boolean(user.disabledAt) === disabled) return user;
  if (disabled) {
    if (userId === actorId) throw new ValidationError("self", { _: ["You cannot disable yourself; ask another admin."] });
    if (user.role === "admin") await assertAnotherAdmin(db, userId, "disabling them");
  }
  return db.user.update({ where: { id: userId }, data: { disabledAt: disabled ? new Date() : null } });
}
