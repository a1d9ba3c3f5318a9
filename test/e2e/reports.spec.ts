/**
 * Reports on the dashboard (issue 32 item 5): the nav link to /reports, the form that downloads the
 * PDF of a daily report and opens a weekly one as a page, in the reader's language; the route checks
 * the user itself and refuses a bad request with its reason. The figures themselves are checked on
 * a seeded database in test/integration/reports/report.test.ts.
 */
import { expect, test } from "@playwright/test";
import { E2E_USERS, signIn } from "./users";

test("a reviewer downloads a daily report as PDF and opens a weekly one as a page", async ({ page }) => {
  await signIn(page, E2E_USERS.reviewer);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Reports" }).click();
  await expect(page).toHaveURL(/\/reports$/);
  await expect(page.getByRole("heading", { level: 1, name: "Reports" })).toBeVisible();
  await expect(page.getByText(/Scheduled reports are not set up/)).toBeVisible();

  await page.getByLabel("Period").selectOption("day");
  await page.getByLabel("Last day covered").fill("2026-12-02");
  await page.getByLabel("Topic").selectOption({ label: "考试" });
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download PDF" }).click()]);
  expect(download.suggestedFilename()).toMatch(/^campuswatch-day-2026-12-02-topic-\d+\.pdf$/);
  const file = await download.path();
  const fs = await import("node:fs");
  const pdf = fs.readFileSync(file);
  expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
  expect(pdf.length).toBeGreaterThan(10_000);

  await page.getByLabel("Period").selectOption("week");
  await page.getByLabel("Topic").selectOption({ label: "All topics" });
  const [preview] = await Promise.all([page.context().waitForEvent("page"), page.getByRole("button", { name: "Open as web page" }).click()]);
  await preview.waitForLoadState();
  await expect(preview.getByRole("heading", { level: 1 })).toHaveText("CampusWatch weekly report");
  await expect(preview.getByText("2026-11-26 to 2026-12-02 · All topics")).toBeVisible();
  for (const h of ["Summary", "Top incidents by heat", "Trends", "Flags by topic"])
    await expect(preview.getByRole("heading", { level: 2, name: h })).toBeVisible();
  await expect(preview.locator("svg")).toHaveCount(2);
  // Its style sheet applies (the dashboard's CSP lets the report's <style> in by its nonce).
  await expect(preview.getByRole("heading", { level: 2, name: "Summary" })).toHaveCSS("border-left-style", "solid");
});

test("the report route checks the user and refuses a bad request with its reason", async ({ page, request }) => {
  const anonymous = await request.get("/api/reports?period=day&date=2026-12-02", { maxRedirects: 0 });
  expect(anonymous.status()).toBe(401);

  await signIn(page, E2E_USERS.reviewer);
  const bad = await page.request.get("/api/reports?period=month");
  expect(bad.status()).toBe(400);
  expect(JSON.stringify(await bad.json())).toMatch(/period must be day or week/);
  const noTopic = await page.request.get("/api/reports?period=day&date=2026-12-02&topic=99999&format=html");
  expect(noTopic.status()).toBe(400);
  expect(JSON.stringify(await noTopic.json())).toMatch(/no topic named or numbered/);
  const badDay = await page.request.get("/api/reports?period=day&date=2026-02-30");
  expect(badDay.status()).toBe(400);

  // In Chinese for a Chinese reader (the language follows Accept-Language when no choice was saved).
  const html = await page.request.get("/api/reports?period=day&date=2026-12-02&format=html", { headers: { "accept-language": "zh-CN,zh;q=0.9" } });
  expect(html.status()).toBe(200);
  expect(html.headers()["content-type"]).toBe("text/html; charset=utf-8");
  const text = await html.text();
  expect(text).toContain("CampusWatch 舆情日报");
  expect(text).toContain("<h2>热度最高的事件</h2>");
});
