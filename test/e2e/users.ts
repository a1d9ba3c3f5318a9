/** Users created by test/e2e/server.ts for the browser tests. */
export const E2E_USERS = {
  admin: { username: "admin", password: "admin-password-1", role: "admin" as const },
  reviewer: { username: "reviewer", password: "reviewer-password-1", role: "reviewer" as const },
};
