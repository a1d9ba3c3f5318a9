/**
 * Languages: a browser asking for Chinese gets the converted pages in Chinese, the sidebar's
 * switch changes the language for the whole dashboard, and the choice (the NEXT_LOCALE cookie)
 * outlives signing out. Screenshots of the sign-in and Users pages in both languages go to
 * test-results/screenshots/ for the README.
 */
import { expect, test, type Page } from "@playwright/test";
import { E2E_USERS } from "./users";

const shots = "test-results/screenshots";

async function signInAs(page: Page, user: { username: string; password: string }, labels: { username: string; password: string; submit: string }) {
  await page.getByLabel(labels.username).fill(user.username);
  await page.getByLabel(labels.password).fill(user.password);
  await page.getByRole("button", { name: labels.submit }).click();
}

test("a Chinese browser gets Chinese; switching to English in the sidebar sticks after sign-out", async ({ browser }) => {
  const context = await browser.newContext({ locale: "zh-CN" });
  const page = await context.newPage();

  // The sign-in page, in Chinese from Accept-Language alone.
  await page.goto("/sign-in");
  await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
  await expect(page).toHaveTitle("登录 · CampusWatch");
  await expect(page.getByRole("button", { name: "登录", exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "中文" })).toHaveAttribute("aria-pressed", "true");
  await page.screenshot({ path: `${shots}/sign-in-zh-CN.png`, fullPage: true });
  // The form's own messages are Chinese too (no attempt is counted: the form is refused first).
  await page.getByLabel("用户名").fill(E2E_USERS.admin.username);
  await page.getByRole("button", { name: "登录", exact: true }).click();
  await expect(page.locator("#password-error")).toHaveText("请输入密码");

  await signInAs(page, E2E_USERS.admin, { username: "用户名", password: "密码", submit: "登录" });
  const nav = page.getByRole("navigation", { name: "主导航" });
  await expect(nav).toContainText("预警帖子");
  await expect(nav).toContainText("采集记录");
  await expect(page.locator(".sidebar-foot")).toContainText("已登录：admin（管理员）");
  await expect(page.getByRole("button", { name: "退出登录" })).toBeVisible();

  // The Users page: headings, table, forms, dates and the actions' messages.
  await nav.getByRole("link", { name: "用户" }).click();
  await expect(page.getByRole("heading", { name: "用户", level: 1 })).toBeVisible();
  await expect(page).toHaveTitle("用户 · CampusWatch");
  const table = page.getByTestId("user-table");
  await expect(table.getByRole("columnheader", { name: "最近登录" })).toBeVisible();
  const me = table.getByRole("row").filter({ hasText: "你" });
  await expect(me).toContainText("管理员");
  // Just signed in: "刚刚" or "N分钟前" in the last sign-in column.
  await expect(me.locator("td").nth(4)).toHaveText(/^(刚刚|\d+分钟前)$/);
  await expect(table.getByRole("button", { name: "重置密码" }).first()).toBeVisible();
  const form = page.getByRole("form", { name: "新建用户" });
  await form.getByLabel("用户名").fill("短密码");
  await form.getByLabel("初始密码").fill("short");
  await form.getByRole("button", { name: "创建用户" }).click();
  await expect(form.locator("#u-pass-error")).toHaveText("密码至少 8 个字符");
  await expect(form.getByRole("alert")).toHaveText("请修改标出的字段。");
  await page.screenshot({ path: `${shots}/users-zh-CN.png`, fullPage: true });

  // The switch: the same page in English, the choice in a cookie for a year.
  await page.getByRole("button", { name: "English" }).click();
  await expect(page.getByRole("heading", { name: "Users", level: 1 })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expect(page.getByRole("navigation", { name: "Main" })).toContainText("Crawl runs");
  await expect(page.locator(".sidebar-foot")).toContainText("Signed in as admin (admin)");
  // The form starts afresh: no Chinese message is left from before the switch.
  await expect(page.getByRole("form", { name: "New user" }).getByRole("alert")).toHaveCount(0);
  const cookie = (await context.cookies()).find((c) => c.name === "NEXT_LOCALE");
  expect(cookie).toMatchObject({ value: "en", path: "/", sameSite: "Lax" });
  expect(cookie!.expires * 1000 - Date.now()).toBeGreaterThan(360 * 86_400_000);
  await page.screenshot({ path: `${shots}/users-en.png`, fullPage: true });

  // Signing out keeps the language: the sign-in page is English although the browser asks for Chinese.
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expect(page.getByRole("button", { name: "Sign in", exact: true })).toBeVisible();
  await expect(page).toHaveTitle("Sign in · CampusWatch");
  await page.screenshot({ path: `${shots}/sign-in-en.png`, fullPage: true });

  // The switch on the public sign-in page needs no session.
  await page.getByRole("button", { name: "中文" }).click();
  await expect(page.getByRole("button", { name: "登录", exact: true })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
  await context.close();
});

test("an English browser gets English; a language we do not have gets the default, Chinese", async ({ browser }) => {
  const english = await browser.newContext({ locale: "en-US" });
  const page = await english.newPage();
  await page.goto("/sign-in");
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expect(page.getByRole("button", { name: "Sign in", exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "English" })).toHaveAttribute("aria-pressed", "true");
  await english.close();

  const french = await browser.newContext({ locale: "fr-FR" });
  const other = await french.newPage();
  await other.goto("/sign-in");
  await expect(other.locator("html")).toHaveAttribute("lang", "zh-CN");
  await expect(other.getByRole("button", { name: "登录", exact: true })).toBeVisible();
  await french.close();
});

test("a reviewer may switch the language too", async ({ browser }) => {
  const context = await browser.newContext({ locale: "zh-CN" });
  const page = await context.newPage();
  await page.goto("/sign-in");
  await signInAs(page, E2E_USERS.reviewer, { username: "用户名", password: "密码", submit: "登录" });
  await expect(page.getByRole("navigation", { name: "主导航" })).not.toContainText("用户");
  await page.getByRole("button", { name: "English" }).click();
  await expect(page.getByRole("navigation", { name: "Main" })).toContainText("Flagged posts");
  await expect(page.locator(".sidebar-foot")).toContainText("Signed in as reviewer (reviewer)");
  await context.close();
});

/** Every dashboard page's main heading in both languages. */
const PAGES: { path: string; zh: string; en: string; shot: string }[] = [
  { path: "/", zh: "预警帖子", en: "Flagged posts", shot: "flagged" },
  { path: "/posts", zh: "帖子", en: "Posts", shot: "posts" },
  { path: "/accounts", zh: "监测账号", en: "Accounts", shot: "accounts" },
  { path: "/runs", zh: "采集记录", en: "Crawl runs", shot: "runs" },
  { path: "/workers", zh: "采集进程", en: "Workers", shot: "workers" },
  { path: "/topics", zh: "主题", en: "Topics", shot: "topics" },
  { path: "/charts", zh: "图表", en: "Charts", shot: "charts" },
  { path: "/seeds", zh: "种子网址集", en: "Seed URL sets", shot: "seeds" },
  { path: "/discovery", zh: "主题发现", en: "Discovery", shot: "discovery" },
];

for (const [locale, lang] of [
  ["zh-CN", "zh"],
  ["en-US", "en"],
] as const) {
  test(`every dashboard page speaks ${locale}: heading, navigation and html lang`, async ({ browser }) => {
    const context = await browser.newContext({ locale });
    const page = await context.newPage();
    await page.goto("/sign-in");
    const zh = lang === "zh";
    await signInAs(
      page,
      E2E_USERS.admin,
      zh ? { username: "用户名", password: "密码", submit: "登录" } : { username: "Username", password: "Password", submit: "Sign in" },
    );
    await expect(page.getByRole("navigation", { name: zh ? "主导航" : "Main" })).toBeVisible();
    for (const p of PAGES) {
      await page.goto(p.path);
      await expect(page.locator("html"), p.path).toHaveAttribute("lang", zh ? "zh-CN" : "en");
      await expect(page.getByRole("heading", { level: 1, name: zh ? p.zh : p.en, exact: true }), p.path).toBeVisible();
      if (p.path === "/" || p.path === "/accounts" || p.path === "/charts" || p.path === "/topics") {
        // The first screenful: what the README shows of each page.
        await page.screenshot({ path: `${shots}/${p.shot}-${zh ? "zh-CN" : "en"}.png` });
      }
    }
    await context.close();
  });
}

test("a Chinese reviewer's day: the flagged list, a review, a post, and training, all in Chinese", async ({ browser }) => {
  const context = await browser.newContext({ locale: "zh-CN" });
  const page = await context.newPage();
  await page.goto("/sign-in");
  await signInAs(page, E2E_USERS.admin, { username: "用户名", password: "密码", submit: "登录" });
  await expect(page.getByRole("navigation", { name: "主导航" })).toBeVisible();

  // The flagged list: why each post was flagged, in the words of 舆情 work.
  await page.goto("/?review=open");
  await expect(page.getByRole("heading", { level: 1, name: "预警帖子", exact: true })).toBeVisible();
  const table = page.getByTestId("post-table");
  // A flag of the topic trained below, with its reasons (other specs seed newer flags, some in
  // topics of their own, some without reasons).
  const row = table
    .locator("tbody tr")
    .filter({ has: page.locator(".topic-name", { hasText: /^考试$/ }) })
    .filter({ hasText: /关键词|敏感词|分类器|相关度/ })
    .first();
  await expect(row).toContainText(/关键词|敏感词|分类器|相关度/);
  const stat = page.getByTestId("stat-open-flags").locator("b");
  const before = Number((await stat.textContent())!.replace(/,/g, ""));
  const href = await row.locator("a[href^='/posts/']").first().getAttribute("href");
  expect(href).toBeTruthy();

  // Dismiss one with a note: the bar, the button and the confirmation speak Chinese.
  await row.getByRole("checkbox").check();
  await expect(page.locator(".bulk-count")).toHaveText("已选 1 项");
  await page.getByLabel("备注").fill("误报：课程通知");
  await page.getByRole("button", { name: "排除", exact: true }).click();
  await expect(page.getByRole("status")).toContainText("已排除 1 条预警。");
  await expect(stat).toHaveText(String(before - 1));

  // The dismissed post: its review history in Chinese.
  await page.goto(href!);
  await expect(page.locator(".review-history").first()).toContainText("误报：课程通知");
  await expect(page.locator(".review-history").first()).toContainText("已排除");

  // Training the topic: the job's progress and result are Chinese too.
  await page.goto("/topics");
  await page.getByTestId("topic-table").getByRole("link", { name: "考试" }).click();
  await page.getByRole("button", { name: "训练模型" }).click();
  await expect(page.getByTestId("topic-job")).toContainText(/模型 v\d+ 已训练，共 \d+ 条样本（其中 \d+ 条来自复核）/, { timeout: 60_000 });
  await expect(page.getByTestId("topic-job")).toContainText("已完成");
  await context.close();
});
