import { expect, type Page } from "@playwright/test";

/** Users created by test/e2e/server.ts for the browser tests. */
export const E2E_USERS = {
  admin: { username: "admin", password: "admin-password-1", role: "admin" as const },
  reviewer: { username: "reviewer", password: "reviewer-password-1", role: "reviewer" as const },
  /** Only for the sign-in throttle spec (its failures must not lock anyone else out). */
  lockout: { username: "lockout", password: "lockout-password-1", role: "reviewer" as const },
  /** Only for the session revocation spec (signing out ends all of a user's sessions). */
  leaver: { username: "leaver", password: "leaver-password-1", role: "reviewer" as const },
};

/** Fill in and submit the sign-in form (whatever the outcome). */
export async function submitSignIn(page: Page, user: { username: string; password: string }) {
  await page.goto("/sign-in");
  await page.getByLabel("Username").fill(user.username);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** Sign in and wait for the dashboard's home page. */
export async function signIn(page: Page, user: { username: string; password: string }) {
  await submitSignIn(page, user);
  await expect(page.getByRole("heading", { name: "Flagged posts" })).toBeVisible();
}
