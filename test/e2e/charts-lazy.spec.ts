/**
 * Issue 17 (the dashboard as a person waits for it): charts below the first screenful are drawn
 * only when they scroll into view, in a placeholder of their own height, so the layout does not
 * jump. Runs on the rows server.ts and seed-threads.ts wrote (an account with posts a month old,
 * so the per-account activity chart, the fourth row, has something to draw).
 */
import { expect, test } from "@playwright/test";
import { E2E_USERS, signIn } from "./users";

test.use({ viewport: { width: 1280, height: 720 } });

test("a chart below the fold is a placeholder of its height until it scrolls into view, then it is drawn", async ({ page }) => {
  await signIn(page, E2E_USERS.reviewer);
  await page.goto("/charts");
  // The first screenful is drawn without scrolling.
  await expect(page.getByTestId("chart-posts").locator(".recharts-surface").first()).toBeVisible();

  const panel = page.getByTestId("chart-accounts");
  const placeholder = panel.getByTestId("chart-placeholder");
  await expect(placeholder).toHaveCount(1);
  await expect(panel.locator(".recharts-surface")).toHaveCount(0);
  const before = await panel.boundingBox();
  const placeholderHeight = (await placeholder.boundingBox())!.height;
  expect(placeholderHeight).toBeGreaterThanOrEqual(160);

  await panel.scrollIntoViewIfNeeded();
  await expect(panel.locator(".recharts-surface").first()).toBeVisible();
  await expect(placeholder).toHaveCount(0);
  // The chart took the placeholder's place at the same height: nothing below it moved.
  const after = await panel.boundingBox();
  expect(Math.abs(after!.height - before!.height)).toBeLessThanOrEqual(1);
  await expect(panel.locator(".recharts-bar-rectangle").first()).toBeVisible();
});
