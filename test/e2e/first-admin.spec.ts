import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";

/**
 * `campuswatch serve` on a database with no user (test/e2e/fresh-server.ts, its own port): no
 * known login exists, and the first admin comes from the one-time link it printed.
 */
const freshBase = `http://127.0.0.1:${process.env.E2E_FRESH_PORT ?? 3108}`;
test.use({ baseURL: freshBase });

async function printedSetupLink(): Promise<URL> {
  const log = path.resolve("test-results/e2e-fresh/serve.log");
  let match: RegExpMatchArray | null = null;
  await expect.poll(() => (match = fs.readFileSync(log, "utf8").match(/https?:\/\/\S+\/setup\?token=[\w-]+/))).not.toBeNull();
  return new URL(match![0]);
}

test("an empty installation has no default login; the printed one-time link makes the first admin, once", async ({ page, browser }) => {
  for (const attempt of [
    { username: "admin", password: "campuswatch" },
    { username: "admin", password: "admin" },
    { username: "admin", password: "" },
  ]) {
    await page.goto("/sign-in");
    await page.getByLabel("Username").fill(attempt.username);
    await page.getByLabel("Password").fill(attempt.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    if (attempt.password) await expect(page.locator(".form-error[role=alert]")).toHaveText("Wrong username or password.");
    else await expect(page.locator("#password-error")).toHaveText("Enter your password");
    await expect(page).toHaveURL(/\/sign-in/);
  }

  // Without the token, or with a wrong one, the setup page refuses.
  await page.goto("/setup");
  await expect(page.locator("main [role=alert]")).toContainText("This setup link is not valid");
  await page.goto("/setup?token=not-the-token");
  await expect(page.locator("main [role=alert]")).toContainText("This setup link is not valid");

  const link = await printedSetupLink();
  await page.goto(link.pathname + link.search);
  await page.getByLabel("Username").fill("chief");
  await page.getByLabel("Password", { exact: true }).fill("x".repeat(73));
  await page.getByLabel("Password again").fill("x".repeat(73));
  await page.getByRole("button", { name: "Create admin and sign in" }).click();
  await expect(page.locator("#setup-password-error")).toContainText("at most 72 bytes");
  await page.getByLabel("Password", { exact: true }).fill("chief-password-1");
  await page.getByLabel("Password again").fill("chief-password-1");
  await page.getByRole("button", { name: "Create admin and sign in" }).click();
  await expect(page.getByRole("heading", { name: "Flagged posts" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main" })).toContainText("Users");

  // The same link, used again from another browser, creates nothing.
  const other = await browser.newContext({ baseURL: freshBase });
  const again = await other.newPage();
  await again.goto(link.pathname + link.search);
  await expect(again.locator("main [role=alert]")).toContainText("already set up");
  await expect(again.getByRole("button", { name: "Create admin and sign in" })).toHaveCount(0);
  await other.close();
});
