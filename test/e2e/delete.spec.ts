import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { E2E_USERS, signIn } from "./users";

test("deleting an account asks first and says what happens to its posts", async ({ page }) => {
  const env = JSON.parse(fs.readFileSync(path.resolve("test-results/e2e-data/env.json"), "utf8")) as { platformOrigin: string };
  await signIn(page, E2E_USERS.admin);

  await page.goto("/accounts");
  const form = page.getByRole("form", { name: "Add account" });
  await form.getByLabel("Account URL").fill(`${env.platformOrigin}/blog/to-be-deleted/`);
  await form.getByLabel("Name").fill("待删除的博客");
  await form.getByRole("button", { name: "Add account" }).click();
  await expect(page).toHaveURL(/\/accounts\?added=\d+/);
  await expect(page.getByRole("cell", { name: /^待删除的博客 http/ })).toBeVisible();

  await page.getByRole("button", { name: "Delete 待删除的博客" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete “待删除的博客”?" });
  await expect(dialog).toContainText("and everything crawled from it");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("cell", { name: /^待删除的博客 http/ })).toBeVisible();

  await page.getByRole("button", { name: "Delete 待删除的博客" }).click();
  await dialog.getByRole("button", { name: "Delete account and its posts" }).click();
  await expect(page.getByRole("cell", { name: /^待删除的博客 http/ })).toHaveCount(0);
});
