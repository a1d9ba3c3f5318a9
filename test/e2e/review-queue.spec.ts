/**
 * The 待复核 queue in the browser (issue 16 item 2): a trained topic lists the stored posts its
 * model is least sure about; two cards are answered with the keyboard alone (r, j / ↑, x),
 * each leaves the list and focus moves on; the scheduler's learn job folds both answers into the
 * model, which the topic page's learning panel shows.
 */
import { expect, test } from "@playwright/test";
import { E2E_USERS, signIn } from "./users";

const ON = [
  "期末考试有人作弊被抓",
  "四六级考试替考广告",
  "考场上用手机作弊",
  "补考名单公布了",
  "期中考试泄题调查",
  "考试周图书馆通宵",
  "线代考试挂科太多",
  "监考老师抓到作弊",
];
const OFF = ["食堂的饭菜不错", "周末一起去爬山", "篮球赛今晚开始", "快递点搬家了", "宿舍停水通知", "吉他社招新", "校车时刻表更新", "新开的咖啡店"];

test("a reviewer answers two queue cards with the keyboard and the topic learns from them", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, E2E_USERS.admin);

  // A topic of its own, trained and scored on the stored posts (through the pages, as an admin would).
  await page.goto("/topics");
  const form = page.getByRole("form", { name: "New topic" });
  await form.getByLabel("Name").fill("复核队列");
  await form.getByRole("button", { name: "Create topic" }).click();
  await expect(page).toHaveURL(/\/topics\/\d+\?created=1/);
  const topicUrl = new URL(page.url()).pathname;
  const lines = [...ON.map((text) => JSON.stringify({ label: "on-topic", text })), ...OFF.map((text) => JSON.stringify({ label: "off-topic", text }))];
  await page.getByLabel("Samples file").setInputFiles({ name: "samples.jsonl", mimeType: "application/json", buffer: Buffer.from(lines.join("\n")) });
  await page.getByRole("button", { name: "Upload samples" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Kept 16 samples" })).toBeVisible();
  await page.getByRole("button", { name: "Train model" }).click();
  await expect(page.getByTestId("topic-job")).toContainText(/model v1 trained on 16 samples/, { timeout: 60_000 });
  await page.getByRole("button", { name: "Re-score stored posts" }).click();
  await expect(page.getByTestId("topic-job")).toContainText(/re-scored \d+ posts/, { timeout: 60_000 });
  await page.reload();
  const learning = page.getByTestId("topic-learning");
  await expect(learning.getByTestId("learning-learned")).toHaveText(/^0 /);

  // The queue, from the topic page's link.
  await learning.getByRole("link", { name: /^Review queue \(\d+\)$/ }).click();
  await expect(page.getByRole("heading", { name: "Review queue: 复核队列" })).toBeVisible();
  await expect(page.getByText("Keys: j / k or ↑ / ↓ move, r relevant, i or x not relevant.")).toBeVisible();
  const cards = page.getByTestId("queue-card");
  await expect(cards.first()).toBeVisible();
  const before = await cards.count();
  expect(before).toBeGreaterThanOrEqual(2);
  const firstId = await cards.nth(0).getAttribute("data-post-id");
  const firstName = (await cards.nth(0).locator("h3").textContent()) ?? "";
  await expect(cards.nth(0).getByRole("button", { name: `Relevant: ${firstName}`, exact: true })).toBeVisible();
  await expect(cards.nth(0).getByRole("button", { name: `Not relevant: ${firstName}`, exact: true })).toBeVisible();

  // r answers the current (first) card: it leaves and focus moves to the next one.
  await page.keyboard.press("r");
  await expect(cards).toHaveCount(before - 1);
  await expect(page.locator(`[data-post-id="${firstId}"]`)).toHaveCount(0);
  await expect(cards.nth(0)).toBeFocused();
  if (before >= 3) {
    // j moves down, k back up.
    await page.keyboard.press("j");
    await expect(cards.nth(1)).toBeFocused();
    await page.keyboard.press("ArrowUp");
    await expect(cards.nth(0)).toBeFocused();
  }
  // x answers the card under focus: not relevant.
  const secondId = await cards.nth(0).getAttribute("data-post-id");
  await page.keyboard.press("x");
  await expect(cards).toHaveCount(before - 2);
  await expect(page.locator(`[data-post-id="${secondId}"]`)).toHaveCount(0);
  await expect(page.getByRole("status").filter({ hasText: "2 answers sent" })).toBeVisible();

  // The scheduler's learn job folds both answers in within seconds: the learning panel says so.
  await page.goto(topicUrl);
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId("learning-learned")).toHaveText(/^2 /, { timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  await expect(page.getByTestId("learning-waiting")).toHaveText("0");
  await expect(page.getByTestId("learning-version")).not.toHaveText("v1");
  await expect(page.getByTestId("topic-job")).toContainText("Learning from reviews");
});
