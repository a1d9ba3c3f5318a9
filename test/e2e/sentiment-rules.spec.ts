/**
 * Sentiment and keyword rules in the browser (issue 32, item 8), in both languages: the posts
 * filter by sentiment keeps only the posts the classifier judged so, each with its badge, and the
 * post page shows it; the topic form refuses a bad keyword rule with its line and position and
 * stores good rules. The posts are seeded by seed-sentiment.ts (texts written for the test).
 */
import { expect, test, type Page } from "@playwright/test";
import { SENTIMENT_TITLES } from "./seed-sentiment";
import { E2E_USERS, signIn } from "./users";

const LOCALES = [
  {
    locale: "en-US",
    sentiment: "Sentiment",
    negative: "Negative",
    badge: { negative: "negative", positive: "positive" },
    apply: "Apply",
    newTopic: "New topic",
    name: "Name",
    keywords: "Keywords",
    create: "Create topic",
    refusal: "line 2, position 5: unbounded repeats (*, +, {n,}) are refused",
  },
  {
    locale: "zh-CN",
    sentiment: "情感",
    negative: "负面",
    badge: { negative: "负面", positive: "正面" },
    apply: "筛选",
    newTopic: "新建主题",
    name: "名称",
    keywords: "关键词",
    create: "创建主题",
    refusal: "第 2 条，第 5 个字符：不接受无上限的重复",
  },
] as const;

async function filterBySentiment(page: Page, l: (typeof LOCALES)[number]) {
  await page.goto(`/posts?q=${encodeURIComponent("情感测试")}`);
  const table = page.getByTestId("post-table");
  await expect(table.getByRole("link", { name: SENTIMENT_TITLES.positive })).toBeVisible();
  await expect(table.locator(`[data-testid="sentiment-mark"][data-sentiment="positive"]`)).toHaveText(l.badge.positive);
  const filters = page.getByRole("search");
  await filters.getByLabel(l.sentiment).selectOption({ label: l.negative });
  await filters.getByRole("button", { name: l.apply }).click();
  await expect(page).toHaveURL(/sentiment=negative/);
  await expect(table.getByRole("link", { name: SENTIMENT_TITLES.negative })).toBeVisible();
  await expect(table.getByRole("link", { name: SENTIMENT_TITLES.positive })).toHaveCount(0);
  await expect(table.getByRole("link", { name: SENTIMENT_TITLES.neutral })).toHaveCount(0);
  await table.getByRole("link", { name: SENTIMENT_TITLES.negative }).click();
  await expect(page.getByTestId("sentiment-mark")).toHaveText(l.badge.negative);
}

for (const l of LOCALES) {
  test(`${l.locale}: posts filter by sentiment; the topic form refuses a bad keyword rule where it is`, async ({ browser, baseURL }) => {
    const context = await browser.newContext({ locale: l.locale });
    const page = await context.newPage();
    // Signed in through the English form (users.ts), then the language the sidebar's switch sets.
    await context.addCookies([{ name: "NEXT_LOCALE", value: "en", url: baseURL! }]);
    await signIn(page, E2E_USERS.admin);
    await context.addCookies([{ name: "NEXT_LOCALE", value: l.locale === "zh-CN" ? "zh-CN" : "en", url: baseURL! }]);
    await filterBySentiment(page, l);

    await page.goto("/topics");
    const form = page.getByRole("form", { name: l.newTopic });
    const name = `规则测试 ${l.locale}`;
    // A bad second rule: refused where it is, nothing created.
    await form.getByLabel(l.name).fill(name);
    await form.getByLabel(l.keywords).fill("(食堂|饭堂) 中毒\n/食堂.*中毒/");
    await form.getByRole("button", { name: l.create }).click();
    await expect(form).toContainText(l.refusal);
    await expect(form.getByLabel(l.keywords)).toHaveAttribute("aria-invalid", "true");

    await form.getByLabel(l.keywords).fill("(食堂|饭堂) 中毒\n/食堂.{0,10}中毒/\n!广告");
    await form.getByRole("button", { name: l.create }).click();
    await expect(page).toHaveURL(/\/topics\/\d+\?created=1/);
    await expect(page.locator("body")).toContainText("/食堂.{0,10}中毒/");
    await context.close();
  });
}
