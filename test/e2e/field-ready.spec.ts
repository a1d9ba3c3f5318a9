/**
 * Issue 13 in the browser, on the rows seed-threads.ts wrote: replies threaded under what they
 * answer (a 楼中楼 under its floor), deleted posts filtered and marked (a deleted flagged post
 * highlighted for reviewers), the author's id next to the shown name, a Weibo post whose full
 * text is missing, and a run's unreadable fields rendered as text.
 */
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { E2E_USERS, signIn } from "./users";
import type { ThreadIds } from "./seed-threads";

const SHOTS = "test-results/screenshots";
const threads = (): ThreadIds => (JSON.parse(fs.readFileSync(path.resolve("test-results/e2e-data/env.json"), "utf8")) as { threads: ThreadIds }).threads;

test("a thread's replies are a tree: the 楼中楼 sits under the floor it answers", async ({ page }) => {
  const ids = threads();
  await signIn(page, E2E_USERS.reviewer);
  await page.goto(`/posts/${ids.thread}`);
  await expect(page.locator(".post-meta")).toContainText("发帖人");
  await expect(page.locator(".post-meta").getByTestId("author-id")).toContainText("tb.1.owner");
  const tree = page.getByTestId("reply-tree");
  const floor = tree.getByTestId(`reply-${ids.floor}`);
  // The sub-floor reply is nested inside its floor's item, not a sibling of it.
  await expect(floor.locator("ol.replies.nested").getByTestId(`reply-${ids.sub}`)).toContainText("楼中楼的回复");
  await expect(tree.locator(":scope > li")).toHaveCount(2);
  const deleted = tree.getByTestId(`reply-${ids.deletedFloor}`);
  await expect(deleted.getByTestId("deleted-mark")).toContainText(/deleted · noticed/);
  await page.screenshot({ path: `${SHOTS}/thread-replies.png`, fullPage: true });

  // The sub-floor reply's page: what it answers, up to the thread.
  await floor.locator("ol.replies.nested").getByRole("link", { name: "detail" }).click();
  await expect(page).toHaveURL(new RegExp(`/posts/${ids.sub}$`));
  const chain = page.getByTestId("in-reply-to");
  // Each step links to its post (and its author, issue 33 item 5).
  await expect(chain.locator("a:not([data-testid=author-link])")).toHaveText(["E2E 楼中楼测试帖", "二楼的回帖"]);
  await expect(chain.getByTestId("author-link")).toHaveText(["发帖人", "二楼"]);

  // An author's name opens their page (issue 33 item 5): what they wrote, by their platform id.
  await page.goto(`/posts/${ids.thread}`);
  await page.locator(".post-meta").getByTestId("author-link").click();
  await expect(page).toHaveURL(/\/authors\/tieba\/tb\.1\.owner$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("发帖人");
  await expect(page.getByTestId("post-table")).toContainText("E2E 楼中楼测试帖");
});

test("deleted posts: the filter, the marks, and a deleted flagged post stands out in the flagged list", async ({ page }) => {
  const ids = threads();
  await signIn(page, E2E_USERS.reviewer);
  await page.goto(`/posts?account=${ids.accountId}`);
  await page.getByLabel("Deleted", { exact: true }).selectOption("yes");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/deleted=yes/);
  const rows = page.getByTestId("post-table").locator("tbody tr");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("三楼说考试作弊");
  await expect(rows.first().getByTestId("deleted-mark")).toBeVisible();

  // The flagged list, deleted only: the flag is highlighted as a signal.
  await page.goto("/?deleted=yes");
  const flagged = page.getByTestId("post-table").locator("tbody tr", { hasText: "三楼说考试作弊" });
  await expect(flagged).toHaveClass(/deleted-flagged/);
  await expect(flagged.getByTestId("deleted-flagged")).toHaveText("deleted after flagging");
  await page.screenshot({ path: `${SHOTS}/flagged-deleted.png`, fullPage: true });

  // Its own page says when the deletion was noticed.
  await page.goto(`/posts/${ids.deletedFloor}`);
  await expect(page.locator(".post-meta").getByTestId("deleted-mark")).toContainText(/deleted · noticed \d/);

  // The long Weibo post whose full text is missing says so.
  await page.goto(`/posts/${ids.longPost}`);
  await expect(page.locator(".post-meta").getByTestId("incomplete-mark")).toHaveText("text incomplete");

  // The export has the author id and the deletion time.
  const csv = await (await page.request.get(`/api/export?format=csv&account=${ids.accountId}&deleted=yes`)).text();
  const [header, row] = csv.replace(/^\ufeff/, "").split("\r\n");
  expect(header).toContain("author,authorId,");
  expect(header).toContain(",deletedAt,");
  expect(row).toMatch(/,三楼,,.*\d{4}-\d\d-\d\dT/);
});

test("a run's unreadable fields are listed with their URL, the raw text shown as text", async ({ page }) => {
  const ids = threads();
  const dialogs: string[] = [];
  page.on("dialog", async (d) => {
    dialogs.push(d.message());
    await d.dismiss();
  });
  await signIn(page, E2E_USERS.reviewer);
  await page.goto(`/runs?account=${ids.accountId}`);
  await expect(page.getByTestId(`run-warnings-${ids.run}`)).toHaveText("1");
  await page.getByTestId(`run-warnings-${ids.run}`).getByRole("link").click();
  const section = page.getByTestId("run-warnings");
  await expect(section).toContainText("https://tieba.baidu.com/p/7001?pn=3");
  await expect(section.locator(".warning-raw")).toHaveText(`<img src=x onerror="alert('xss-warning')">楼主 … 25:61`);
  await expect(section.locator("img")).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/run-warnings.png`, fullPage: true });
  expect(dialogs).toEqual([]);
});
