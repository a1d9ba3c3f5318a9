/**
 * The Workers page. On PostgreSQL (the suite's second run): the worker the e2e server runs is
 * listed alive, and a "crawl now" pressed in the dashboard goes through the pg-boss queue to it
 * and shows up as a completed job. On SQLite: the page says crawls run in-process.
 */
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { E2E_USERS, signIn } from "./users";

const onPostgres = process.env.CAMPUSWATCH_TEST_DB === "postgresql";

test("the Workers page shows the workers, their jobs and the queue depth", async ({ page }) => {
  const env = JSON.parse(fs.readFileSync(path.resolve("test-results/e2e-data/env.json"), "utf8")) as { platformOrigin: string; accounts: { discuz: string } };
  await signIn(page, E2E_USERS.admin);

  await page.goto("/workers");
  await expect(page.getByRole("heading", { name: "Workers", level: 1 })).toBeVisible();
  if (!onPostgres) {
    await expect(page.getByTestId("workers-sqlite")).toContainText("crawls run inside the scheduler process");
    return;
  }
  await expect(page.getByTestId("workers-alive")).toHaveText("1");
  await expect(page.getByTestId("worker-table").locator('tr[data-status="running"]')).toHaveCount(1);

  // A crawl requested from the dashboard: the scheduler enqueues it, the worker runs it.
  await page.goto("/accounts");
  const form = page.getByRole("form", { name: "Add account" });
  await form.getByLabel("Account URL").fill(`${env.platformOrigin}/bbs/forum.php?mod=forumdisplay&fid=777`);
  await form.getByLabel("Name").fill("队列测试板块");
  await form.getByRole("button", { name: "Add account" }).click();
  await expect(page).toHaveURL(/\/accounts\?added=\d+/);
  await page.getByRole("button", { name: "Crawl 队列测试板块 now" }).click();
  await page.goto("/workers");
  const job = page.getByTestId("job-table").locator("tr", { hasText: "队列测试板块" });
  // The page refreshes itself every few seconds.
  await expect(job.locator(".badge")).toHaveText("completed", { timeout: 60_000 });
  await expect(page.getByTestId("queue-waiting")).toHaveText("0");
});
