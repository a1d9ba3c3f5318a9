/**
 * Who may do what. Every server action and route handler asks here, never the UI alone.
 * Admins do everything; reviewers read, review flags, export and handle cases (assign incidents and
 * flags, move a case's status). A read-only role added later simply leaves out "review" and "cases".
 */
import type { Role } from "./auth/session";

export type Permission =
  "read" | "review" | "export" | "manage-accounts" | "manage-topics" | "manage-seeds" | "manage-users" | "run-crawls" | "view-audit" | "cases";

const REVIEWER: ReadonlySet<Permission> = new Set(["read", "review", "export", "cases"]);

/** True when a user with `role` may do `permission`. */
export function can(role: Role, permission: Permission): boolean {
  return role === "admin" || REVIEWER.has(permission);
}
