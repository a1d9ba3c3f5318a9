/**
 * Who may do what. Every server action and route handler asks here, never the UI alone.
 * Admins do everything; reviewers read, review flags, export and handle cases (assign incidents and
 * flags, move a case's status); viewers (read only) read and export what their topic scope lets them
 * see and change nothing. One table, so a new permission is refused to a role until it is listed here.
 */
import type { Role } from "./auth/session";

export const PERMISSIONS = [
  "read",
  "review",
  "export",
  "manage-accounts",
  "manage-topics",
  "manage-seeds",
  "manage-users",
  "run-crawls",
  "view-audit",
  "cases",
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** Each role's permissions; a permission left out is refused. */
export const ROLE_PERMISSIONS: Readonly<Record<Role, ReadonlySet<Permission>>> = {
  admin: new Set(PERMISSIONS),
  reviewer: new Set(["read", "review", "export", "cases"]),
  viewer: new Set(["read", "export"]),
};

/** True when a user with `role` may do `permission`. */
export function can(role: Role, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role]?.has(permission) ?? false;
}
