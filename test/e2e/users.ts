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

/**
 * Wait for the outcome of a submitted sign-in: the browser leaving /sign-in, or the form's error.
 * A sign-in under load (bcrypt on a busy machine, the first request of a cold server) can take
 * longer than an assertion's 5 s, so this waits for the event itself, bounded only by the test's
 * own timeout; a refusal fails at once with the form's message.
 */
export async function signedIn(page: Page): Promise<void> {
  const left = page.waitForURL((u) => u.pathname !== "/sign-in", { timeout: 0 }).then(() => null);
  const refused = page
    .locator(".form-error[role=alert]")
    .waitFor({ timeout: 0 })
    .then(async () => (await page.locator(".form-error[role=alert]").textContent()) ?? "refused");
  // The loser of the race is left waiting until the page closes: its rejection then is expected.
  left.catch(() => undefined);
  refused.catch(() => undefined);
  const error = await Promise.race([left, refused]);
  if (error !== null) throw new Error(`sign-in refused: ${error}`);
}

/** Sign in and wait for the dashboard's home page. */
export async function signIn(page: Page, user: { username: string; password: string }) {
  await submitSignIn(page, user);
  await signedIn(page);
  await expect(page.getByRole("heading", { name: "Flagged posts" })).toBeVisible();
}
