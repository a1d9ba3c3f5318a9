/**
 * Who may do what. Every server action and route handler asks here, never the UI alone.
 * Admins do everything; reviewers read, review flags and export.
 */
import type { Role } from "./auth/session";

export type Permission = "read" | "review" | "export" | "manage-accounts" | "manage-topics" | "manage-seeds" | "manage-users" | "run-crawls" | "view-audit";

const REVIEWER: ReadonlySet<Permission> = new Set(["read", "review", "export"]);

/** True when a user with `role` may do `permission`. */
export function can(role: Role, permission: Permission): boolean {
  return role === "admin" || REVIEWER.has(permission);
}
