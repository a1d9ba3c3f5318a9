/**
 * Keyword watches in the browser (issue 14, item 5): the add-account form's "keyword watch" mode
 * builds the platform's search URL from platform, word, bar and board; bad input (no word, a
 * Discuz! URL that is not a board) is refused next to its field and nothing is added.
 */
import { expect, test } from "@playwright/test";
import { E2E_USERS, signIn } from "./users";

test("an administrator adds a Tieba keyword watch; no word and a non-board Discuz! URL are refused", async ({ page }) => {
  await signIn(page, E2E_USERS.admin);
  await page.goto("/accounts");
  const form = page.getByRole("form", { name: "Add account" });
  await form.getByLabel("A keyword watch (the platform's own search)").check();
  const fields = form.getByTestId("watch-fields");
  await expect(fields).toBeVisible();
  await expect(form.getByLabel("Account URL")).toHaveCount(0);

  // No word: refused next to the word field, nothing added.
  await fields.getByLabel("Search on").selectOption("tieba");
  await fields.getByLabel("Tieba bar").fill("北江大学");
  await form.getByRole("button", { name: "Add account" }).click();
  await expect(fields.getByLabel("Word")).toHaveAttribute("aria-invalid", "true");
  await expect(form).toContainText("Enter the word to search for.");
  await expect(page).not.toHaveURL(/added=/);

  // A Discuz! URL that is not a board.
  await fields.getByLabel("Search on").selectOption("discuz");
  await fields.getByLabel("Word").fill("食堂");
  await fields.getByLabel("Discuz! board URL").fill("https://bbs.example.edu.cn/forum.php?mod=viewthread&tid=9");
  await form.getByRole("button", { name: "Add account" }).click();
  await expect(form).toContainText("Not a Discuz! board URL");
  await expect(page).not.toHaveURL(/added=/);

  // A good Tieba watch: the URL is built and the account is listed as Tieba.
  await fields.getByLabel("Search on").selectOption("tieba");
  await fields.getByLabel("Word").fill("食堂涨价");
  await fields.getByLabel("Tieba bar").fill("北江大学");
  await form.getByRole("button", { name: "Add account" }).click();
  await expect(page).toHaveURL(/\/accounts\?added=\d+/);
  const id = Number(new URL(page.url()).searchParams.get("added"));
  await page.goto(`/accounts/${id}`);
  await expect(page.locator("body")).toContainText("/f/search/res?ie=utf-8&kw=");
  await expect(page.locator("body")).toContainText("“食堂涨价” · tieba search in 北江大学吧");
});
