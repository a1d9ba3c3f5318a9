import { expect, test } from "@playwright/test";
import { E2E_USERS, signIn, submitSignIn } from "./users";

test("an admin disables a user: their open session ends, they cannot sign in until enabled again", async ({ page, browser }) => {
  const temp = { username: "night-shift", password: "night-shift-password-1" };
  await signIn(page, E2E_USERS.admin);
  await page.goto("/users");
  const form = page.getByRole("form", { name: "New user" });
  await form.getByLabel("Username").fill(temp.username);
  await form.getByLabel("Initial password").fill(temp.password);
  await form.getByRole("button", { name: "Create user" }).click();
  await expect(page).toHaveURL(/\/users\?created=night-shift/);

  // The user signs in elsewhere and is working.
  const theirs = await browser.newContext();
  const them = await theirs.newPage();
  await signIn(them, temp);

  const row = page.getByTestId("user-table").getByRole("row").filter({ hasText: temp.username });
  await row.getByRole("button", { name: `Disable ${temp.username}` }).click();
  await expect(row).toContainText("User disabled: they are signed out and cannot sign in.");
  await expect(row.getByText("disabled", { exact: true })).toBeVisible();

  // Their next request finds the session gone: pages go to sign-in, the API answers 401.
  await them.reload();
  await expect(them).toHaveURL(/\/sign-in/);
  expect((await them.request.get("/api/export?format=csv")).status()).toBe(401);
  // The right password is told apart from a wrong one only once it matched.
  await submitSignIn(them, { ...temp, password: "wrong-password-1" });
  await expect(them.getByText("Wrong username or password.")).toBeVisible();
  await submitSignIn(them, temp);
  await expect(them.getByText("This account is disabled. Ask an administrator to enable it.")).toBeVisible();

  // The admin cannot disable themselves: no button on their own row.
  const mine = page.getByTestId("user-table").getByRole("row").filter({ hasText: E2E_USERS.admin.username }).filter({ hasText: "you" });
  await expect(mine.getByRole("button", { name: /^Disable/ })).toHaveCount(0);

  await row.getByRole("button", { name: `Enable ${temp.username}` }).click();
  await expect(row).toContainText("User enabled.");
  await signIn(them, temp);
  await theirs.close();
});
