/**
 * 事件 in the browser, in English and in Chinese (issue 32 item 4): the home page's rising
 * incidents, the list (hostile titles as text, the candidate hidden until asked for), an incident
 * page (figures, representative post, why each post is a member, one click to its post page), and
 * a reviewer's rename, split, merge and mark handled, each seen in the page and its history.
 * Each locale works on its own seeded set (test/support/incidents-seed.ts via server.ts).
 * Screenshots of the list and an incident page at desktop and 390 px go to CW_SHOTS_DIR
 * (test-results/screenshots by default).
 */
import fs from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import type { SeededIncidents } from "../support/incidents-seed";
import { E2E_USERS, signedIn } from "./users";

const SHOTS = process.env.CW_SHOTS_DIR ?? "test-results/screenshots";
const seeded = (): { en: SeededIncidents; zh: SeededIncidents } =>
  (JSON.parse(fs.readFileSync(path.resolve("test-results/e2e-data/env.json"), "utf8")) as { incidents: { en: SeededIncidents; zh: SeededIncidents } })
    .incidents;

const LABELS = {
  en: {
    username: "Username",
    password: "Password",
    signIn: "Sign in",
    nav: "Main",
    incidents: "Incidents",
    rising: "Rising incidents",
    renameForm: "Rename",
    title: "Title",
    renamed: "Renamed.",
    splitForm: "Split",
    selectPost: (id: number) => `Select post #${id}`,
    splitTitle: "Title of the new incident (optional)",
    splitButton: "Split the chosen posts",
    splitDone: "Split: the chosen posts are now a new incident.",
    newIncident: /^Open the new incident #\d+$/,
    mergeForm: "Merge",
    other: "Other incident",
    merged: "Merged.",
    mergedInto: "This incident was merged into",
    handle: "Mark handled",
    handledDone: "Marked handled.",
    handled: "Handled",
    reopen: "Reopen",
    linkReason: "linked (repost, 【转】 or quoted URL)",
    statusFilter: "Status",
    apply: "Apply",
    renameHistory: (a: string, b: string) => `Renamed “${a}” to “${b}”`,
  },
  zh: {
    username: "用户名",
    password: "密码",
    signIn: "登录",
    nav: "主导航",
    incidents: "事件",
    rising: "上升中的事件",
    renameForm: "重命名",
    title: "标题",
    renamed: "已重命名。",
    splitForm: "拆分",
    selectPost: (id: number) => `选择帖子 #${id}`,
    splitTitle: "新事件标题（可选）",
    splitButton: "拆分所选帖子",
    splitDone: "已拆分：所选帖子成为新事件。",
    newIncident: /^打开新事件 #\d+$/,
    mergeForm: "合并",
    other: "另一个事件",
    merged: "已合并。",
    mergedInto: "该事件已并入",
    handle: "标为已处理",
    handledDone: "已标为已处理。",
    handled: "已处理",
    reopen: "重新打开",
    linkReason: "明确关联（转发、【转】或引用链接）",
    statusFilter: "状态",
    apply: "筛选",
    renameHistory: (a: string, b: string) => `将“${a}”改名为“${b}”`,
  },
} as const;

async function shot(page: Page, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

for (const lang of ["en", "zh"] as const) {
  test(`incidents (${lang}): list, open, rename, split, merge and mark handled`, async ({ browser }) => {
    test.setTimeout(150_000);
    const L = LABELS[lang];
    const s = seeded()[lang];
    const context = await browser.newContext({ locale: lang === "en" ? "en-US" : "zh-CN" });
    const page = await context.newPage();
    const dialogs: string[] = [];
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });

    await page.goto("/sign-in");
    await page.getByLabel(L.username).fill(E2E_USERS.reviewer.username);
    await page.getByLabel(L.password).fill(E2E_USERS.reviewer.password);
    await page.getByRole("button", { name: L.signIn, exact: true }).click();
    await signedIn(page);

    // Home: the rising incidents beside the flagged list, the bursting one among them.
    const rising = page.getByTestId("rising-incidents");
    await expect(rising.getByRole("heading", { name: L.rising })).toBeVisible();
    await expect(rising.getByRole("link", { name: s.canteen.title })).toBeVisible();
    if (lang === "en") await shot(page, "home-rising-desktop");

    // The list, from the nav: by heat; the candidate only with its status filter; hostile text as text.
    await page.getByRole("navigation", { name: L.nav }).getByRole("link", { name: L.incidents, exact: true }).click();
    await expect(page.getByRole("heading", { name: L.incidents, level: 1 })).toBeVisible();
    const table = page.getByTestId("incident-table");
    const row = (title: string) => table.getByTestId("incident-row").filter({ has: page.getByRole("link", { name: title, exact: true }) });
    await expect(row(s.canteen.title)).toBeVisible();
    await expect(row(s.canteen.title).getByTestId("sparkline")).toBeVisible();
    await expect(row(s.hostile.title)).toBeVisible();
    await expect(table.getByRole("link", { name: s.candidate.title })).toHaveCount(0);
    const ids = await table.getByTestId("incident-row").evaluateAll((rows) => rows.map((r) => Number(r.getAttribute("data-incident-id"))));
    // All listed. Their order is the heat model's: it recomputes the seeded heats after other
    // specs' crawl runs, so the seeded order does not hold in a whole run; the list's order by heat
    // is tested on both databases in test/integration/incidents/review.test.ts.
    const order = [s.canteen.id, s.exam.id, s.canteen2.id, s.hostile.id].map((id) => ids.indexOf(id));
    expect(order.every((i) => i >= 0)).toBe(true);
    if (lang === "en") {
      await page.setViewportSize({ width: 1280, height: 900 });
      await shot(page, "incidents-list-desktop");
      await page.setViewportSize({ width: 390, height: 844 });
      await shot(page, "incidents-list-390");
      await page.setViewportSize({ width: 1280, height: 900 });
    }
    await page.getByLabel(L.statusFilter).selectOption("candidate");
    await page.getByRole("button", { name: L.apply }).click();
    await expect(page).toHaveURL(/status=candidate/);
    await expect(table.getByRole("link", { name: s.candidate.title })).toBeVisible();
    await page.goBack();

    // An incident page: figures, the member that came by a link, one click to its post page.
    await row(s.canteen.title).getByRole("link", { name: s.canteen.title, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/incidents/${s.canteen.id}$`));
    await expect(page.getByRole("heading", { name: s.canteen.title, level: 1 })).toBeVisible();
    await expect(page.getByTestId("figure-posts")).toContainText("6");
    await expect(page.getByTestId("representative")).toBeVisible();
    await expect(page.getByTestId("incident-timeline").locator(".recharts-surface").first()).toBeVisible();
    const members = page.getByTestId("member-row");
    await expect(members).toHaveCount(6);
    const repost = page.locator(`tr[data-post-id="${s.canteen.posts[1]}"]`);
    await expect(repost).toContainText(L.linkReason);
    if (lang === "en") {
      await shot(page, "incident-desktop");
      await page.setViewportSize({ width: 390, height: 844 });
      await shot(page, "incident-390");
      await page.setViewportSize({ width: 1280, height: 900 });
    }
    await repost.locator(".post-title").click();
    await expect(page).toHaveURL(new RegExp(`/posts/${s.canteen.posts[1]}$`));
    await page.goBack();
    await expect(members).toHaveCount(6);

    // Rename: the new title, locked, in the heading and the history.
    const newTitle = `${lang} 二食堂集体腹泻`;
    const renameForm = page.getByRole("form", { name: L.renameForm, exact: true });
    await renameForm.getByLabel(L.title, { exact: true }).fill(newTitle);
    await renameForm.getByRole("button", { name: L.renameForm, exact: true }).click();
    await expect(page.getByRole("status").filter({ hasText: L.renamed })).toBeVisible();
    await expect(page.getByRole("heading", { name: newTitle, level: 1 })).toBeVisible();
    await expect(page.getByTestId("history-item").first()).toHaveText(new RegExp(L.renameHistory(s.canteen.title, newTitle)));

    // Split the forum post off into a new incident.
    const forumPost = s.canteen.posts[5]!;
    const splitForm = page.getByRole("form", { name: L.splitForm, exact: true });
    await splitForm.getByRole("checkbox", { name: L.selectPost(forumPost) }).check();
    await splitForm.getByLabel(L.splitTitle).fill(`${lang} 后勤处调查`);
    await splitForm.getByRole("button", { name: L.splitButton }).click();
    await expect(page.getByRole("status").filter({ hasText: L.splitDone })).toBeVisible();
    await expect(page.getByTestId("figure-posts")).toContainText("5");
    await expect(members).toHaveCount(5);
    const newLink = page.getByRole("link", { name: L.newIncident });
    await newLink.click();
    await expect(page.getByRole("heading", { name: `${lang} 后勤处调查`, level: 1 })).toBeVisible();
    await expect(members).toHaveCount(1);
    await expect(page.locator(`tr[data-post-id="${forumPost}"]`)).toBeVisible();
    await expect(page.getByTestId("history-item").first()).toHaveAttribute("data-kind", "split");

    // Merge the second canteen incident into the first.
    await page.goto(`/incidents/${s.canteen.id}`);
    const mergeForm = page.getByRole("form", { name: L.mergeForm, exact: true });
    const other = mergeForm.getByLabel(L.other);
    const option = other.locator("option", { hasText: s.canteen2.title });
    const value = await option.getAttribute("value");
    expect(value).toBe(String(s.canteen2.id));
    await other.selectOption(String(value));
    await mergeForm.getByRole("button", { name: L.mergeForm, exact: true }).click();
    await expect(page.getByRole("status").filter({ hasText: L.merged })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/incidents/${s.canteen.id}\\?done=merge`));
    await expect(page.getByTestId("figure-posts")).toContainText("7");
    await expect(page.locator(`tr[data-post-id="${s.canteen2.posts[0]}"]`)).toBeVisible();
    await expect(page.getByTestId("history-item").first()).toHaveAttribute("data-kind", "merge");
    await page.goto(`/incidents/${s.canteen2.id}`);
    await expect(page.getByRole("status").filter({ hasText: L.mergedInto })).toBeVisible();
    await page.getByRole("status").getByRole("link").click();
    await expect(page).toHaveURL(new RegExp(`/incidents/${s.canteen.id}$`));

    // Mark handled: the status and the buttons change.
    await page.getByRole("button", { name: L.handle, exact: true }).click();
    await expect(page.getByRole("status").filter({ hasText: L.handledDone })).toBeVisible();
    await expect(page.locator(".incident-sub .badge").first()).toHaveText(L.handled);
    await expect(page.getByRole("button", { name: L.reopen, exact: true })).toBeVisible();
    await expect(page.getByTestId("history-item")).toHaveCount(4);

    // The hostile incident: its title and texts are text, nothing ran.
    await page.goto(`/incidents/${s.hostile.id}`);
    await expect(page.getByRole("heading", { name: s.hostile.title, level: 1 })).toBeVisible();
    await expect(page.getByTestId("member-table")).toContainText(`<script>alert("incident-xss")</script>`);
    expect(dialogs).toEqual([]);
    await context.close();
  });
}
