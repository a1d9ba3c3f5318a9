import { expect, test } from "@playwright/test";
import { E2E_USERS, signIn } from "./users";

test("an admin starts a discovery run from the dashboard and watches it finish", async ({ page }) => {
  await signIn(page, E2E_USERS.admin);

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Discovery" }).click();
  const form = page.getByRole("form", { name: "Start a discovery run" });
  // Options read "name (note)": pick by the name they start with.
  const pick = async (label: string, name: string) => {
    const select = form.getByLabel(label);
    const value = await select.locator("option", { hasText: name }).first().getAttribute("value");
    await select.selectOption(value);
  };
  await pick("Topic", "考试");
  await pick("Seed set", "本地博客");
  await form.getByLabel("Max pages").fill("15");
  await form.getByLabel("Host delay (ms)").fill("0");
  await form.getByRole("button", { name: "Start discovery" }).click();

  await expect(page).toHaveURL(/\/discovery\/\d+$/);
  // The run segments pages with jieba inside the dashboard's server process; it ends when it has
  // crawled 15 pages or its frontier holds nothing relevant any more.
  await expect(page.getByText("done", { exact: true })).toBeVisible({ timeout: 45_000 });
  await expect(page.getByText(/^[1-9]\d* \/ 15$/)).toBeVisible();
  await expect(page.getByRole("heading", { name: "Harvest rate" })).toBeVisible();
  await expect(page.getByText(/error|failed/i)).toHaveCount(0);
  await page.screenshot({ path: "test-results/screenshots/discovery-run.png", fullPage: true });
});
