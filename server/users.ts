/**
 * Dashboard user management. Two rules the server enforces whatever the UI shows: nobody deletes,
 * disables or demotes themselves, and there is always at least one enabled admin left.
 */
import { z } from "zod";
import { dialectOf, type Db } from "../lib/db";
import { hashPassword, newPasswordSchema } from "../lib/auth/password";
import { ROLES, type Role } from "../lib/auth/session";
import { SCOPE_SELECT, scopeFromRows, type TopicScope } from "../lib/topic-scope";
import {
  createUser,
  deleteUserRow,
  DuplicateUserError,
  endUserSessions,
  newUserSchema,
  setUserDisabledAt,
  setUserPasswordHash,
  setUserRole,
} from "../lib/users";
import { ValidationError } from "../lib/validation";
import { recordAudit, type AuditActor } from "../lib/audit";

export { newUserSchema };
export const passwordSchema = z.object({ password: newPasswordSchema });
export const roleSchema = z.object({ role: z.enum(ROLES as unknown as ["admin", "reviewer", "viewer"], { error: "role must be admin, reviewer or viewer" }) });

export function listUsers(db: Db) {
  return db.user.findMany({
    orderBy: { id: "asc" },
    select: {
      id: true,
      username: true,
      role: true,
      createdAt: true,
      lastSignInAt: true,
      disabledAt: true,
      _count: { select: { reviews: true } },
      ...SCOPE_SELECT,
    },
  });
}

/** Create a user; a taken name is a field error. */
export async function addUser(db: Db, input: z.infer<typeof newUserSchema>, actor: AuditActor) {
  try {
    const user = await createUser(db, input);
    await recordAudit(db, actor, { kind: "user", action: "create", targetId: user.id, target: user.username, after: { role: user.role, password: "set" } });
    return user;
  } catch (e) {
    if (e instanceof DuplicateUserError) throw new ValidationError("username: taken", { username: ["this username is taken"] }, { code: "usernameTaken" });
    throw e;
  }
}

/**
 * Run `fn` in one transaction that holds the admin rows while it runs. The last-admin rule reads
 * the other admins and then changes one user: two admins disabling each other at the same moment
 * must not both see "another admin is left". On PostgreSQL the admins' rows are locked first
 * (`SELECT … FOR UPDATE`), so such changes run one after the other and the second sees the first's
 * result; SQLite has one writer at a time anyway, and a writer from another process that finds the
 * file busy is retried.
 */
async function inUserTransaction<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const postgres = dialectOf(db) === "postgresql";
  for (let attempt = 0; ; attempt++) {
    try {
      return await db.$transaction(
        async (tx) => {
          if (postgres) await tx.$queryRaw`SELECT "id" FROM "User" WHERE "role" = 'admin' ORDER BY "id" FOR UPDATE`;
          return fn(tx);
        },
        { maxWait: 10_000, timeout: 20_000 },
      );
    } catch (e) {
      const busy = /database is locked|SQLITE_BUSY/i.test(String((e as Error).message));
      if (!busy || attempt >= 5) throw e;
      await new Promise((r) => setTimeout(r, 20 * (attempt + 1) + Math.random() * 30));
    }
  }
}
type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

/** What would take away the last admin (the `action` of the "lastAdmin" message). */
type AdminLoss = "demote" | "delete" | "disable";
const ADMIN_LOSS_WORDS: Record<AdminLoss, string> = { demote: "demoting them", delete: "deleting them", disable: "disabling them" };

async function assertAnotherAdmin(tx: Tx, userId: number, action: AdminLoss) {
  // A disabled admin cannot sign in, so does not count.
  const admins = await tx.user.count({ where: { role: "admin", disabledAt: null, id: { not: userId } } });
  const what = ADMIN_LOSS_WORDS[action];
  if (admins === 0) {
    throw new ValidationError(
      `${what}: last admin`,
      { _: [`This is the last admin: ${what} would leave nobody able to manage CampusWatch.`] },
      { code: "lastAdmin", values: { action } },
    );
  }
}

const USER_GONE = () => new ValidationError("no such user", { _: ["That user no longer exists."] }, { code: "userGone" });

/** Change a user's role (their sessions end). Refuses to demote yourself or the last admin. */
export async function changeRole(db: Db, actor: AuditActor, userId: number, role: Role) {
  const actorId = actor.userId;
  return inUserTransaction(db, async (tx) => {
    const user = await tx.user.findUnique({ where: { id: userId } });
    if (!user) throw USER_GONE();
    if (user.role === role) return user;
    if (role !== "admin") {
      if (userId === actorId) throw new ValidationError("self", { _: ["You cannot change your own role; ask another admin."] }, { code: "selfRole" });
      // Only an admin's demotion can leave nobody to manage (a viewer made reviewer cannot).
      if (user.role === "admin") await assertAnotherAdmin(tx, userId, "demote");
    }
    const changed = await setUserRole(tx, userId, role);
    await recordAudit(tx, actor, { kind: "user", action: "role", targetId: userId, target: user.username, before: { role: user.role }, after: { role } });
    return changed;
  });
}

/** Set a new password; every session of the user ends (they sign in again with the new one). */
export async function resetPassword(db: Db, userId: number, password: string, actor: AuditActor) {
  const passwordHash = await hashPassword(newPasswordSchema.parse(password));
  const user = await setUserPasswordHash(db, userId, passwordHash);
  // That it was reset, never the password or its hash.
  await recordAudit(db, actor, { kind: "user", action: "password", targetId: userId, target: user.username, after: { password: "set" } });
  return user;
}

/** End every session of a user (sign-out does this: a copied cookie stops working too). */
export async function revokeSessions(db: Db, userId: number): Promise<void> {
  await endUserSessions(db, userId);
}

/**
 * Delete a user. Refuses yourself and the last admin. Review rows must keep who decided (the
 * schema restricts deleting a reviewer with reviews), so a user who has reviewed is refused with a
 * message suggesting to disable them instead.
 */
export async function deleteUser(db: Db, actor: AuditActor, userId: number) {
  const actorId = actor.userId;
  if (userId === actorId) throw new ValidationError("self", { _: ["You cannot delete yourself."] }, { code: "selfDelete" });
  return inUserTransaction(db, async (tx) => {
    const user = await tx.user.findUnique({ where: { id: userId }, include: { _count: { select: { reviews: true } } } });
    if (!user) return null;
    if (user.role === "admin") await assertAnotherAdmin(tx, userId, "delete");
    if (user._count.reviews > 0) {
      throw new ValidationError(
        "has reviews",
        { _: [`${user.username} made ${user._count.reviews} review decisions; deleting the account would erase who decided. Disable the user instead.`] },
        { code: "hasReviews", values: { username: user.username, count: user._count.reviews } },
      );
    }
    const deleted = await deleteUserRow(tx, userId);
    await recordAudit(tx, actor, {
      kind: "user",
      action: "delete",
      targetId: userId,
      target: user.username,
      before: { role: user.role, disabled: Boolean(user.disabledAt) },
    });
    return deleted;
  });
}

/**
 * Disable or re-enable a user. A disabled user cannot sign in, and the sessions they hold stop
 * working at their next request. Refuses yourself and the last enabled admin.
 */
export async function setUserDisabled(db: Db, actor: AuditActor, userId: number, disabled: boolean) {
  const actorId = actor.userId;
  return inUserTransaction(db, async (tx) => {
    const user = await tx.user.findUnique({ where: { id: userId } });
    if (!user) throw USER_GONE();
    if (Boolean(user.disabledAt) === disabled) return user;
    if (disabled) {
      if (userId === actorId) throw new ValidationError("self", { _: ["You cannot disable yourself; ask another admin."] }, { code: "selfDisable" });
      if (user.role === "admin") await assertAnotherAdmin(tx, userId, "disable");
    }
    const changed = await setUserDisabledAt(tx, userId, disabled ? new Date() : null);
    await recordAudit(tx, actor, {
      kind: "user",
      action: disabled ? "disable" : "enable",
      targetId: userId,
      target: user.username,
      before: { disabled: !disabled },
      after: { disabled },
    });
    return changed;
  });
}

/**
 * Limit a user to `topicIds` (their flags and incidents only), or give them every topic (null or an
 * empty list). Refuses topics that do not exist; audited with the scope before and after. Takes
 * effect on the user's next request (the scope is read with the session, lib/auth/current-user.ts).
 */
export async function setTopicScope(db: Db, actor: AuditActor, userId: number, topicIds: readonly number[] | null): Promise<TopicScope> {
  const wanted = [...new Set(topicIds ?? [])].sort((a, b) => a - b);
  return db.$transaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { id: userId }, select: { id: true, username: true, ...SCOPE_SELECT } });
    if (!user) throw USER_GONE();
    const found = await tx.topic.findMany({ where: { id: { in: wanted } }, select: { id: true } });
    const missing = wanted.filter((id) => !found.some((t) => t.id === id));
    if (missing.length) {
      throw new ValidationError(
        `no topic ${missing.join(", ")}`,
        { topics: [`No such topic: ${missing.join(", ")}.`] },
        { code: "topicGone", values: { ids: missing.join(", ") } },
      );
    }
    const before = scopeFromRows(user.topicScope);
    const after: TopicScope = wanted.length ? wanted : null;
    if (JSON.stringify(before) === JSON.stringify(after)) return after;
    await tx.userTopic.deleteMany({ where: { userId } });
    if (after) await tx.userTopic.createMany({ data: after.map((topicId) => ({ userId, topicId })) });
    await recordAudit(tx, actor, {
      kind: "user",
      action: "topics",
      targetId: userId,
      target: user.username,
      before: { topics: before ? [...before] : "all" },
      after: { topics: after ? [...after] : "all" },
    });
    return after;
  });
}
