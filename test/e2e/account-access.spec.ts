/**
 * How an account reaches its platform, from the dashboard, in Chinese: login cookies are pasted
 * and shown back only as domains (never values), a bad paste is refused in Chinese and changes
 * nothing, and ignoring robots.txt records who chose it.
 */
import { expect, test } from "@playwright/test";
import { E2E_USERS, signedIn, signIn } from "./users";

/** A cookie export whose second entry (starting on line 3) expires in 1e308 seconds. */
const ABSURD_EXPIRY_JSON =
  '[\n  {"domain": "127.0.0.1", "name": "a", "value": "1"},\n  {"domain": "127.0.0.1", "name": "b", "value": "2", "expirationDate": 1e308}\n]';

test("an admin sets login cookies and the robots.txt policy of an account (zh-CN)", async ({ browser }) => {
  const context = await browser.newContext({ locale: "zh-CN" });
  const page = await context.newPage();
  await page.goto("/sign-in");
  await page.getByLabel("用户名").fill(E2E_USERS.admin.username);
  await page.getByLabel("密码").fill(E2E_USERS.admin.password);
  await page.getByRole("button", { name: "登录", exact: true }).click();
  await signedIn(page);
  await expect(page.getByRole("navigation", { name: "主导航" })).toBeVisible();

  await page.goto("/accounts");
  const href = await page.locator("a[href^='/accounts/']").filter({ hasNotText: /^$/ }).first().getAttribute("href");
  expect(href).toMatch(/^\/accounts\/\d+$/);
  await page.goto(href!);

  const cookies = page.getByTestId("account-cookies");
  await expect(cookies.getByRole("heading", { name: "登录 Cookie" })).toBeVisible();
  await expect(cookies).toContainText("没有登录 Cookie");

  // A bad paste: refused with the cookie at fault, in Chinese; nothing stored.
  await cookies.getByLabel("粘贴 Cookie 请求头").fill("sid=1; broken");
  await cookies.getByRole("button", { name: "保存 Cookie" }).click();
  await expect(cookies.locator("#cookie-error")).toHaveText("第 2 个 Cookie：应为 name=value，实际为“broken”。");
  await expect(cookies.getByRole("alert")).toHaveText("Cookie 未保存，原有的 Cookie 保持不变。");

  // A JSON export with an absurd expiry: refused with the entry and its line, not a server error.
  await cookies.getByLabel("粘贴 Cookie 请求头").fill(ABSURD_EXPIRY_JSON);
  await cookies.getByRole("button", { name: "保存 Cookie" }).click();
  await expect(cookies.locator("#cookie-error")).toHaveText("第 2 项（第 3 行）：过期时间“1e+308”不是 1970 年至 9999 年之间的日期。");
  await expect(cookies.getByRole("alert")).toHaveText("Cookie 未保存，原有的 Cookie 保持不变。");

  // A good one: stored; the page shows the domain and the count, never the value.
  await cookies.getByLabel("粘贴 Cookie 请求头").fill("Cookie: cdb_auth=secret-value-123; cdb_saltkey=abc");
  await cookies.getByRole("button", { name: "保存 Cookie" }).click();
  await expect(cookies.getByRole("status")).toContainText("已加密保存 2 个登录 Cookie（按Cookie 请求头读取）。");
  await page.reload();
  await expect(cookies.locator("table")).toContainText("2");
  await expect(page.locator("body")).not.toContainText("secret-value-123");

  // robots.txt: ignoring asks first, then records who and when.
  const robots = page.getByTestId("robots-policy");
  await expect(robots).toContainText("遵守：robots.txt 禁止的页面不采集。");
  page.once("dialog", (d) => void d.accept());
  await robots.getByRole("button", { name: "忽略 robots.txt" }).click();
  await expect(robots.getByRole("status")).toHaveText("该账号现在忽略 robots.txt。");
  await page.reload();
  await expect(robots).toContainText("忽略：不理会 robots.txt 的 Disallow 规则（仍遵守 Crawl-delay）。");
  await expect(robots).toContainText("由 admin 设置于");
  await robots.getByRole("button", { name: "恢复遵守 robots.txt" }).click();
  await expect(robots.getByRole("status")).toHaveText("已恢复遵守 robots.txt。");

  // Forget the cookies again (a confirmation first).
  page.once("dialog", (d) => void d.accept());
  await cookies.getByRole("button", { name: "清除 Cookie" }).click();
  await expect(cookies).toContainText("没有登录 Cookie：该账号以匿名访客身份采集。");
  await context.close();
});

test("an absurd cookie expiry is refused with its line, in English too", async ({ browser }) => {
  const context = await browser.newContext({ locale: "en-US" });
  const page = await context.newPage();
  await signIn(page, E2E_USERS.admin);
  await page.goto("/accounts");
  const href = await page.locator("a[href^='/accounts/']").filter({ hasNotText: /^$/ }).first().getAttribute("href");
  await page.goto(href!);
  const cookies = page.getByTestId("account-cookies");
  await cookies.getByLabel("Paste a Cookie header").fill(ABSURD_EXPIRY_JSON);
  await cookies.getByRole("button", { name: "Save cookies" }).click();
  await expect(cookies.locator("#cookie-error")).toHaveText("Entry 2 (line 3): the expiry “1e+308” is not a date between 1970 and 9999.");
  await expect(cookies.getByRole("alert")).toHaveText("The cookies were not stored; the earlier ones are unchanged.");
  await context.close();
});
