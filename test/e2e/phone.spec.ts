/**
 * The dashboard on a phone (issue 33 item 6): a reviewer's day at 390 px in Chinese, in Chromium's
 * device emulation (touch, a device scale of 3). A link from a chat message, opened signed out,
 * survives sign-in; then the flagged list, a review, the incident list, an incident page and a
 * post page. On each page: nothing scrolls sideways, the tap targets are at least 40 px high and
 * the headings are Chinese. Screenshots go to test-results/screenshots/phone-*.png.
 */
import fs from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import type { SeededIncidents } from "../support/incidents-seed";
import { E2E_USERS, signedIn } from "./users";

const shots = "test-results/screenshots";
/** The smallest tap target height this spec accepts (issue 33 item 6). */
const MIN_TAP = 40;

test.use({
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 3,
  isMobile: true,
  hasTouch: true,
  locale: "zh-CN",
});

const seeded = (): SeededIncidents =>
  (JSON.parse(fs.readFileSync(path.resolve("test-results/e2e-data/env.json"), "utf8")) as { incidents: { phone: SeededIncidents } }).incidents.phone;

/**
 * What a phone needs of every page: Chinese, no sideways scrolling (neither the page nor a table's
 * scroller), and the controls a thumb uses (nav links, buttons, the rows' primary links, pager
 * links, form fields) at least MIN_TAP px high. The checks are soft: a run lists every page's
 * offenders by name, and the walk goes on.
 */
async function checkPhonePage(page: Page, name: string) {
  await page.screenshot({ path: `${shots}/phone-${name}.png`, fullPage: true });
  await expect.soft(page.locator("html")).toHaveAttribute("lang", "zh-CN");
  const width = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
  expect.soft(width.scroll, `${name}: page wider than the screen`).toBeLessThanOrEqual(width.inner);
  const scrollers = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>("main .table-wrap")]
      .filter((el) => el.scrollWidth > el.clientWidth)
      .map((el) => el.querySelector("table")?.className),
  );
  expect.soft(scrollers, `${name}: tables that scroll sideways`).toEqual([]);
  const small = await page.evaluate((min) => {
    const selector = [
      ".nav a",
      ".sidebar-foot button",
      ".locale-switch button",
      "main button",
      // Check boxes and radio buttons are left out: their row or label is the target.
      "main input:not([type=hidden]):not([type=checkbox]):not([type=radio])",
      "main select",
      "main textarea",
      "main .post-title",
      "main .incident-title",
      "main .pager a",
      "main .crumbs a",
      "main .page-actions a",
      "main .rising-head a",
      "main .post-meta a.external",
      "main .ancestors .post-title",
      "main .filter-actions a",
    ].join(",");
    return [...document.querySelectorAll<HTMLElement>(selector)]
      .filter((el) => el.offsetParent !== null)
      .map((el) => ({
        target: `${el.tagName.toLowerCase()} ${el.getAttribute("aria-label") || el.textContent?.trim() || el.getAttribute("name") || ""}`.slice(0, 40),
        height: el.getBoundingClientRect().height,
      }))
      .filter((el) => el.height < min);
  }, MIN_TAP);
  expect.soft(small, `${name}: tap targets under ${MIN_TAP} px`).toEqual([]);
}

/**
 * A table shown as cards: no header row, and each cell that is not obvious carries its column's
 * name (the data-label the stylesheet shows before it).
 */
async function expectCards(page: Page, testId: string, labels: string[]) {
  const table = page.getByTestId(testId);
  await expect(table.locator("thead")).toBeHidden();
  const shown = await table
    .locator("tbody tr")
    .first()
    .evaluate((row) => [...row.querySelectorAll("td[data-label]")].map((td) => getComputedStyle(td, "::before").content));
  expect(shown).toEqual(expect.arrayContaining(labels.map((l) => JSON.stringify(l))));
}

test("a reviewer's day on a 390 px phone, in Chinese", async ({ page }) => {
  test.setTimeout(120_000);
  const s = seeded();
  const nav = page.getByRole("navigation", { name: "主导航" });

  // A chat message's link, opened signed out: the sign-in page keeps it and returns to it.
  await page.goto(`/incidents/${s.canteen.id}`);
  await expect(page).toHaveURL(new RegExp(`/sign-in\\?next=${encodeURIComponent(`/incidents/${s.canteen.id}`)}$`));
  await expect(page.getByRole("heading", { name: "CampusWatch", level: 1 })).toBeVisible();
  await checkPhonePage(page, "sign-in");
  await page.getByLabel("用户名").fill(E2E_USERS.reviewer.username);
  await page.getByLabel("密码").fill(E2E_USERS.reviewer.password);
  await page.getByRole("button", { name: "登录", exact: true }).tap();
  await signedIn(page);
  await expect(page).toHaveURL(new RegExp(`/incidents/${s.canteen.id}$`));
  await expect(page.getByRole("heading", { name: s.canteen.title, level: 1 })).toBeVisible();
  await expect(page.getByTestId("member-row")).toHaveCount(6);
  await expectCards(page, "member-table", ["归入原因", "标记", "情感"]);
  // The timeline draws once scrolled into view; it must fit the screen too.
  const timeline = page.getByTestId("incident-timeline");
  await timeline.scrollIntoViewIfNeeded();
  await expect(timeline.locator(".recharts-surface").first()).toBeVisible();
  await checkPhonePage(page, "incident");

  // The flagged list, narrowed to the incident's topic: the flagged Weibo post, a card with its link.
  await nav.getByRole("link", { name: /^预警帖子/ }).tap();
  await expect(page.getByRole("heading", { name: "预警帖子", level: 1 })).toBeVisible();
  await page.getByRole("search").getByLabel("主题").selectOption({ label: "事件测试-phone" });
  await page.getByRole("search").getByRole("button", { name: "筛选" }).tap();
  await expect(page).toHaveURL(new RegExp(`topic=${s.topicId}`));
  await expectCards(page, "post-table", ["主题 · 分数", "预警原因"]);
  const flagged = page.getByTestId("post-table").getByRole("link", { name: /phone 二食堂的饭菜吃完拉肚子/ });
  await expect(flagged).toBeVisible();
  await checkPhonePage(page, "flagged");

  // Review its flag on the post page.
  await flagged.tap();
  await expect(page).toHaveURL(new RegExp(`/posts/${s.canteen.posts[0]}`));
  await expect(page.getByRole("heading", { name: /^phone 二食堂的饭菜吃完拉肚子/, level: 1 })).toBeVisible();
  await checkPhonePage(page, "post");
  const review = page.getByRole("form", { name: `复核主题“事件测试-phone”的预警` });
  await review.getByLabel("备注").fill("已转交后勤处");
  await review.getByRole("button", { name: "确认", exact: true }).tap();
  await expect(page.getByRole("status").filter({ hasText: "预警已确认" })).toBeVisible();
  await checkPhonePage(page, "post-reviewed");

  // The incident list: rows become cards, each title a link to its page.
  await nav.getByRole("link", { name: "事件", exact: true }).tap();
  await expect(page.getByRole("heading", { name: "事件", level: 1 })).toBeVisible();
  const title = page.getByTestId("incident-table").getByRole("link", { name: s.exam.title, exact: true });
  await expect(title).toBeVisible();
  await expectCards(page, "incident-table", ["首次 / 最近出现", "标记"]);
  await checkPhonePage(page, "incidents");
  await title.tap();
  await expect(page.getByRole("heading", { name: s.exam.title, level: 1 })).toBeVisible();
  await checkPhonePage(page, "incident-handled");

  // A reply's post page (the Tieba thread's second reply): the thread around it fits too.
  await page.goto(`/posts/${s.canteen.posts[4]}`);
  await expect(page.getByRole("heading", { name: "回帖", level: 1 })).toBeVisible();
  await checkPhonePage(page, "reply");
});
