/**
 * Accounts through the dashboard, for the browser tests: add one with the form and run a crawl
 * with "Crawl now", waiting until that run has finished (the e2e server's scheduler runs it).
 */
import { expect, type Page } from "@playwright/test";

/** Add an account through the form (in English); returns its id. */
export async function addAccount(page: Page, url: string, name: string, cron = "*/30 * * * *") {
  await page.goto("/accounts");
  const form = page.getByRole("form", { name: "Add account" });
  await form.getByLabel("Account URL").fill(url);
  await form.getByLabel("Name").fill(name);
  await form.getByLabel("Interval", { exact: true }).selectOption("custom");
  await form.getByLabel("Cron expression").fill(cron);
  await form.getByRole("button", { name: "Add account" }).click();
  await expect(page).toHaveURL(/\/accounts\?added=\d+/);
  return Number(new URL(page.url()).searchParams.get("added"));
}

/** The account's runs as its page lists them: how many, and the newest one's status (null without runs). */
async function runsOf(page: Page, id: number): Promise<{ count: number; newest: string | null }> {
  await page.goto(`/accounts/${id}`);
  const rows = page.getByTestId("run-table").locator("tbody tr");
  const count = await rows.count();
  const newest =
    count === 0
      ? null
      : await rows
          .first()
          .locator(".badge")
          .first()
          .textContent({ timeout: 1000 })
          .catch(() => null);
  return { count, newest };
}

/** Press "Crawl now" (in English) and wait until that run has finished: one more run, the newest ok or partial. */
export async function crawlNow(page: Page, id: number, name: string) {
  const before = (await runsOf(page, id)).count;
  await page.goto("/accounts");
  await page.getByRole("button", { name: `Crawl ${name} now` }).click();
  await expect
    .poll(
      async () => {
        const { count, newest } = await runsOf(page, id);
        return count > before ? newest : null;
      },
      { timeout: 60_000, intervals: [500, 1000] },
    )
    .toMatch(/^(ok|partial)$/);
}
