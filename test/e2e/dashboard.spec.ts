/**
 * The dashboard administrators use every day, driven in Chromium against the production build,
 * the scheduler and the local platform site started by server.ts (see env.json there).
 *
 * The tests run in order and build on each other: accounts are added, crawled, reviewed.
 * Screenshots of the main pages go to test-results/screenshots/.
 */
import fs from "node:fs";
import path from "node:path";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { addAccount, crawlNow } from "./accounts";
import { E2E_USERS, signIn } from "./users";

interface E2EEnv {
  platformOrigin: string;
  accounts: { blog: string; weibo: string; tieba: string; discuz: string };
  hostileBlog: string;
}
const env = (): E2EEnv => JSON.parse(fs.readFileSync(path.resolve("test-results/e2e-data/env.json"), "utf8")) as E2EEnv;
const SHOTS = "test-results/screenshots";

test.describe.configure({ mode: "serial" });
test.use({ viewport: { width: 1440, height: 900 } });
test.setTimeout(120_000);

async function newSession(browser: Browser, user: { username: string; password: string }) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await signIn(page, user);
  return { context, page };
}

async function shot(page: Page, name: string) {
  // Charts render after hydration (they measure their container): wait for them when present.
  await page.waitForLoadState("networkidle");
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

const ids: Record<string, number> = {};

test("an admin adds an account: a bad cron expression is refused next to its field, a good one is saved", async ({ page }) => {
  const e = env();
  await signIn(page, E2E_USERS.admin);
  await page.goto("/accounts");
  const form = page.getByRole("form", { name: "Add account" });
  const url = form.getByLabel("Account URL");
  await url.fill(e.accounts.blog);
  // The platform is recognised while typing.
  await expect(form.locator(".detected")).toContainText("Blog");

  await form.getByLabel("Name").fill("E2E 校园博客");
  await form.getByLabel("Interval", { exact: true }).selectOption("custom");
  await form.getByLabel("Cron expression").fill("61 25 * * *");
  await expect(form.locator(".cron-preview")).toContainText(/invalid cron/i);
  await form.getByRole("button", { name: "Add account" }).click();

  const cron = form.getByLabel("Cron expression");
  await expect(cron).toHaveAttribute("aria-invalid", "true");
  const errorId = (await cron.getAttribute("aria-describedby"))!.split(" ")[0]!;
  await expect(page.locator(`#${errorId}`)).toContainText(/invalid cron expression/i);
  // Nothing typed is lost.
  await expect(url).toHaveValue(e.accounts.blog);
  await expect(form.getByLabel("Name")).toHaveValue("E2E 校园博客");
  await expect(cron).toHaveValue("61 25 * * *");
  await page.screenshot({ path: `${SHOTS}/account-form-error.png`, fullPage: true });

  // A URL of the wrong shape for the chosen platform is refused on the URL field.
  await form.getByLabel("Platform", { exact: true }).selectOption("weibo");
  await cron.fill("*/30 * * * *");
  await expect(form.locator(".cron-preview li")).toHaveCount(5);
  await form.getByRole("button", { name: "Add account" }).click();
  await expect(url).toHaveAttribute("aria-invalid", "true");
  await expect(form.locator(".field-error").first()).toContainText(/unknown URL shape for a Weibo user/);

  await form.getByLabel("Platform", { exact: true }).selectOption("auto");
  await form.getByRole("button", { name: "Add account" }).click();
  await expect(page).toHaveURL(/\/accounts\?added=\d+/);
  ids.blog = Number(new URL(page.url()).searchParams.get("added"));
  const row = page.getByTestId(`account-${ids.blog}`);
  await expect(row).toContainText("E2E 校园博客");
  await expect(row).toContainText("Every 30 minutes");

  // The same URL again is a duplicate, reported on the URL field.
  await form.getByLabel("Account URL").fill(e.accounts.blog);
  await form.getByRole("button", { name: "Add account" }).click();
  await expect(form.getByLabel("Account URL")).toHaveAttribute("aria-invalid", "true");
  await expect(form).toContainText("already registered");
});

test("crawl now: the posts and the flagged ones appear", async ({ page }) => {
  const e = env();
  await signIn(page, E2E_USERS.admin);
  await crawlNow(page, ids.blog!, "E2E 校园博客");
  await page.goto(`/posts?account=${ids.blog}`);
  await expect(page.getByTestId("post-table").locator("tbody tr").first()).toBeVisible();
  await expect(page.getByTestId("post-table")).toContainText("期末考试有人作弊被抓了");

  await page.goto("/");
  const flagged = page.getByTestId("post-table");
  await expect(flagged).toContainText("期末考试有人作弊被抓了");
  await expect(flagged).toContainText("考试");
  await expect(flagged.locator(".badge.reason-sensitive").first()).toContainText("作弊");

  // More platforms for a realistic dashboard.
  ids.weibo = await addAccount(page, e.accounts.weibo, "E2E 微博");
  ids.tieba = await addAccount(page, e.accounts.tieba, "E2E 贴吧");
  ids.discuz = await addAccount(page, e.accounts.discuz, "E2E 论坛");
  await crawlNow(page, ids.weibo, "E2E 微博");
  await crawlNow(page, ids.tieba, "E2E 贴吧");
  await crawlNow(page, ids.discuz, "E2E 论坛");

  await page.goto("/");
  await shot(page, "flagged-posts");
  await page.goto("/posts");
  await shot(page, "posts");
  // Full-text search with a two-character Chinese word.
  await page.goto(`/posts?q=${encodeURIComponent("作弊")}`);
  await expect(page.getByTestId("post-table")).toContainText("作弊");
  await shot(page, "posts-search");
  await page.goto("/accounts");
  await shot(page, "accounts");
  await page.goto(`/accounts/${ids.blog}`);
  // The edit form shows the account's switches as stored; typing another URL asks what becomes of
  // the history marks, and typing the stored one back takes the question away (nothing is saved).
  const edit = page.getByRole("form", { name: "Edit account" });
  await expect(edit.getByLabel("Crawl on schedule")).toBeChecked();
  await expect(edit.getByLabel("Fetch mode")).toHaveValue("auto");
  const storedUrl = await edit.getByLabel("Account URL").inputValue();
  await expect(edit.getByTestId("url-marks")).toHaveCount(0);
  await edit.getByLabel("Account URL").fill(`${storedUrl}moved/`);
  await expect(edit.getByTestId("url-marks")).toBeVisible();
  await expect(edit.getByLabel("Keep the history marks")).toBeChecked();
  await edit.getByLabel("Account URL").fill(storedUrl);
  await expect(edit.getByTestId("url-marks")).toHaveCount(0);
  await shot(page, "account-detail");
  await page.goto("/runs");
  await expect(page.getByTestId("run-table")).toContainText("E2E 贴吧");
  await shot(page, "runs");
  await page.getByTestId("run-table").locator("tbody tr a").first().click();
  await expect(page.getByRole("heading", { name: /Crawl run #\d+/ })).toBeVisible();
  await shot(page, "run-detail");
});

test("reviewing a flag changes the counts and the charts, and the decision is recorded", async ({ page }) => {
  await signIn(page, E2E_USERS.admin);
  // Other specs review flags of this topic too (the API spec does, through its token): count from here.
  const samples = async () => {
    await page.goto("/topics");
    await page.getByTestId("topic-table").getByRole("link", { name: "考试" }).click();
    await expect(page.locator(".kv")).toContainText("samples from reviews");
    return Number(await page.locator(".kv div", { hasText: "samples from reviews" }).locator("b").textContent());
  };
  const samplesBefore = await samples();
  await page.goto("/charts");
  const rateTable = page.getByTestId("topic-rate-table");
  await expect(rateTable).toBeVisible();
  const rateRow = rateTable.locator("tr", { hasText: "考试" });
  const cell = (i: number) => rateRow.locator("td").nth(i);
  const openBefore = Number((await cell(1).textContent())!.replace(/,/g, ""));
  const confirmedBefore = Number((await cell(2).textContent())!.replace(/,/g, ""));
  await expect(page.getByTestId("chart-posts").locator(".recharts-surface").first()).toBeVisible();

  await page.goto("/?review=open");
  const stat = page.getByTestId("stat-open-flags").locator("b");
  const statBefore = Number((await stat.textContent())!.replace(/,/g, ""));
  const row = page.getByTestId("post-table").locator("tbody tr", { hasText: "期末考试有人作弊被抓了" });
  await row.getByRole("checkbox").check();
  await expect(page.locator(".bulk-count")).toHaveText("1 selected");
  await page.getByLabel("Note").fill("已转交学院处理");
  await page.getByRole("button", { name: "Confirm", exact: true }).click();
  await expect(page.getByRole("status")).toContainText("1 flag confirmed");
  await expect(stat).toHaveText(String(statBefore - 1));
  await expect(page.getByTestId("post-table")).not.toContainText("期末考试有人作弊被抓了");

  await page.goto("/charts");
  await expect(cell(1)).toHaveText(String(openBefore - 1));
  await expect(cell(2)).toHaveText(String(confirmedBefore + 1));
  await shot(page, "charts");

  // The detail shows who decided, when, and the note; the content is highlighted.
  await page.goto("/?review=confirmed");
  await page.getByTestId("post-table").getByRole("link", { name: "期末考试有人作弊被抓了" }).click();
  const topicPanel = page.getByTestId("topic-考试");
  await expect(topicPanel.locator(".review-history")).toContainText("confirmed by admin");
  await expect(topicPanel.locator(".review-history")).toContainText("已转交学院处理");
  await expect(page.getByTestId("post-content").locator("mark").first()).toBeVisible();
  await shot(page, "post-detail");

  // The decision became a training sample of the topic.
  expect(await samples()).toBe(samplesBefore + 1);
  await shot(page, "topic-detail");
});

test("a post with <script>, <img onerror> and javascript: links renders inert", async ({ page }) => {
  const e = env();
  await signIn(page, E2E_USERS.admin);
  const id = await addAccount(page, e.hostileBlog, "E2E 恶意博客");
  await crawlNow(page, id, "E2E 恶意博客");

  const dialogs: string[] = [];
  const outside: string[] = [];
  const base = new URL(page.url()).origin;
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  page.on("request", (r) => {
    if (!r.url().startsWith(base) && !r.url().startsWith("data:")) outside.push(r.url());
  });

  await page.goto(`/posts?account=${id}&q=${encodeURIComponent("恶意代码")}`);
  await page.getByTestId("post-table").getByRole("link", { name: "含有恶意代码的帖子" }).click();
  const content = page.getByTestId("post-content");
  await expect(content).toContainText("考试作弊的讨论");
  await page.waitForLoadState("networkidle");
  await page.waitForTimeout(500);

  expect(await content.locator("script, img, iframe, object, embed, svg").count()).toBe(0);
  expect(await content.locator("[onerror], [onclick], [onload], [style]").count()).toBe(0);
  const hrefs = await content.locator("a[href]").evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? ""));
  expect(hrefs.filter((h) => /^\s*javascript:/i.test(h))).toEqual([]);
  // The images are placeholders that load nothing; the link keeps its text but not its script.
  expect(await content.locator("a.img-placeholder").count()).toBeGreaterThan(0);
  await expect(content.getByText("点我")).toBeVisible();
  await content.getByText("点我").click();
  await page.waitForTimeout(300);
  expect(dialogs).toEqual([]);
  expect(outside).toEqual([]);
  await shot(page, "hostile-post");
});

test("a reviewer cannot reach or submit the admin forms", async ({ browser }) => {
  const admin = await newSession(browser, E2E_USERS.admin);
  const reviewer = await newSession(browser, E2E_USERS.reviewer);
  const { page } = reviewer;

  // No admin forms or controls are shown…
  await page.goto("/accounts");
  await expect(page.getByTestId("account-table")).toBeVisible();
  await expect(page.getByRole("form", { name: "Add account" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /Crawl .* now/ })).toHaveCount(0);
  await page.goto("/topics");
  await expect(page.getByRole("form", { name: "New topic" })).toHaveCount(0);
  await page.goto("/seeds");
  await expect(page.getByRole("form", { name: "New seed set" })).toHaveCount(0);
  await expect(page.getByRole("navigation", { name: "Main" })).not.toContainText("Users");
  await page.goto("/users");
  await expect(page).toHaveURL(/denied=manage-users/);
  await expect(page.getByRole("status")).toContainText("may not open that page");

  // …and the admin form, posted with the reviewer's session, is refused by the server: the
  // action checks the role itself. The same post with the admin's session works (the control).
  await admin.page.goto("/accounts");
  const hidden = await admin.page
    .getByRole("form", { name: "Add account" })
    .evaluate((f) => Object.fromEntries([...f.querySelectorAll<HTMLInputElement>("input[type=hidden]")].map((i) => [i.name, i.value])));
  const post = (p: Page, kw: string) =>
    p.request.post("/accounts", {
      multipart: { ...hidden, url: `https://tieba.baidu.com/f?kw=${kw}`, platform: "auto", name: kw, interval: "custom", cron: "*/5 * * * *" },
      headers: { origin: new URL(p.url()).origin },
      maxRedirects: 0,
    });
  const asAdmin = await post(admin.page, "admin-post");
  expect(asAdmin.status()).toBe(303);
  expect(asAdmin.headers()["location"]).toMatch(/\/accounts\?added=\d+/);
  await admin.context.close();

  const asReviewer = await post(page, "reviewer-post");
  expect(asReviewer.status()).toBe(200);
  await page.goto("/accounts");
  await expect(page.getByTestId("account-table")).toContainText("admin-post");
  await expect(page.getByTestId("account-table")).not.toContainText("reviewer-post");

  // Reviewers do review and export.
  await page.goto("/");
  await expect(page.getByRole("button", { name: "Confirm", exact: true })).toBeVisible();
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "CSV" }).click();
  const csv = fs.readFileSync(await (await download).path(), "utf8");
  expect(csv.split("\n")[0]).toContain("accountUrl,platform,platformId");
  await page.screenshot({ path: `${SHOTS}/reviewer-flagged.png`, fullPage: true });
  await reviewer.context.close();
});

test("topics, seeds and users pages work for an admin", async ({ page }) => {
  await signIn(page, E2E_USERS.admin);
  // Upload samples with a bad row: the bad row is reported, the good rows kept.
  await page.goto("/topics");
  await page.getByTestId("topic-table").getByRole("link", { name: "考试" }).click();
  const on = [
    "期末考试有人作弊被抓",
    "四六级考试替考广告",
    "考场上用手机作弊",
    "补考名单公布了",
    "期中考试泄题调查",
    "考试周图书馆通宵",
    "线代考试挂科太多",
    "监考老师抓到作弊",
    "英语考试作弊处分",
    "考试纪律通知",
    "高数考试安排",
    "考研考试报名",
  ];
  const off = [
    "食堂的饭菜不错",
    "周末一起去爬山",
    "篮球赛今晚开始",
    "快递点搬家了",
    "宿舍停水通知",
    "吉他社招新",
    "校车时刻表更新",
    "新开的咖啡店",
    "操场跑道翻新",
    "社团活动照片",
    "摄影社采风",
    "二手自行车出售",
  ];
  const lines = [
    ...on.map((text) => JSON.stringify({ label: "on-topic", text })),
    "not json",
    ...off.map((text) => JSON.stringify({ label: "off-topic", text })),
  ];
  await page.getByLabel("Samples file").setInputFiles({ name: "samples.jsonl", mimeType: "application/json", buffer: Buffer.from(lines.join("\n")) });
  await page.getByRole("button", { name: "Upload samples" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Kept 24 samples" })).toBeVisible();
  await expect(page.getByTestId("sample-errors")).toContainText("line 13");

  // Say which label is on-topic, then train in the background with progress, then the
  // evaluation and the model version.
  await page.getByLabel("On-topic labels").fill("on-topic");
  await page.getByRole("button", { name: "Save topic" }).click();
  await expect(page).toHaveURL(/saved=1/);
  await page.getByRole("button", { name: "Train model" }).click();
  // The 24 uploaded samples and those from reviews (other specs review flags of this topic too).
  await expect(page.getByTestId("topic-job")).toContainText(/model v1 trained on \d+ samples \(\d+ from reviews\)/, { timeout: 60_000 });
  const trained = /trained on (\d+) samples \((\d+) from reviews\)/.exec((await page.getByTestId("topic-job").textContent()) ?? "");
  expect(Number(trained![1]) - Number(trained![2])).toBe(24);
  await expect(page.locator(".kv div", { hasText: "model in use" }).locator("b")).toHaveText("v1");
  await expect(page.getByTestId("evaluation")).toBeVisible();
  await page.getByRole("button", { name: "Re-score stored posts" }).click();
  await expect(page.getByTestId("topic-job")).toContainText(/re-scored \d+ posts/, { timeout: 60_000 });
  await shot(page, "topic-trained");
  await page.goto("/topics");
  await shot(page, "topics");

  // Seeds: invalid lines reported, valid ones kept.
  await page.goto("/seeds");
  const form = page.getByRole("form", { name: "New seed set" });
  await form.getByLabel("Name").fill("高校论坛入口");
  await form.getByLabel("…or paste URLs").fill("https://bbs.example.edu.cn/\nnot a url\nhttps://tieba.baidu.com/f?kw=北江大学\n");
  await form.getByRole("button", { name: "Create and import" }).click();
  await expect(page.getByRole("status")).toContainText("Imported 2 URLs");
  await expect(page.getByTestId("seed-invalid")).toContainText("line 2: not a url");
  await expect(page.getByTestId("seed-urls").locator("tr")).toHaveCount(2);
  await shot(page, "seeds");

  await page.goto("/users");
  await expect(page.getByTestId("user-table")).toContainText("reviewer");
  await shot(page, "users");
});
