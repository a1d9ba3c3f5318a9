/**
 * The token API (issue 33) against the real server: tokens made on the tokens page (English and
 * Chinese), every /api/v1 route with its filters and cursor pagination, scopes, the one answer
 * shape, the review through the API reaching the audit log, the Atom feed's escaping, a revoked
 * and an expired token refused at once, and the rate limit per token (40 a minute on the test
 * server, test/e2e/server.ts).
 */
import fs from "node:fs";
import path from "node:path";
import { expect, test, type APIRequestContext, type APIResponse, type Page } from "@playwright/test";
import { E2E_USERS, signIn, signedIn } from "./users";

interface ApiIds {
  postId: number;
  reviewFlagId: number;
  openFlagId: number;
  incidentId: number;
  topicId: number;
}
const ids = (): ApiIds => (JSON.parse(fs.readFileSync(path.resolve("test-results/e2e-data/env.json"), "utf8")) as { api: ApiIds }).api;
const clockFile = path.resolve("test-results/e2e-data/clock-offset-ms");

/** Create a token on the tokens page and read it from the one place it is shown. */
async function createToken(page: Page, { name, scope, days }: { name: string; scope: "read" | "review"; days?: number }, zh = false): Promise<string> {
  await page.goto("/tokens");
  const form = page.getByRole("form", { name: zh ? "新建令牌" : "New token" });
  await form.getByLabel(zh ? "名称（用途）" : "Name (what uses it)").fill(name);
  await form.getByLabel(zh ? "权限范围" : "Scope").selectOption(scope);
  if (days) await form.getByLabel(zh ? "有效期（天，留空为永不过期）" : "Expires after (days, empty: never)").fill(String(days));
  await form.getByRole("button", { name: zh ? "创建令牌" : "Create token" }).click();
  const shown = page.getByTestId("new-token");
  await expect(shown).toBeVisible();
  const token = await shown.locator("input").inputValue();
  expect(token).toMatch(/^cwt_[A-Za-z0-9_-]{43}$/);
  return token;
}

/** Sign in on the Chinese sign-in page (a zh-CN context) and wait for the Chinese dashboard. */
async function signInZh(page: Page, user: { username: string; password: string }) {
  await page.goto("/sign-in");
  await page.getByLabel("用户名").fill(user.username);
  await page.getByLabel("密码").fill(user.password);
  await page.getByRole("button", { name: "登录", exact: true }).click();
  await signedIn(page);
  await expect(page.getByRole("navigation", { name: "主导航" })).toBeVisible();
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A JSON answer: its status and body, checked to have the one shape. */
async function json(
  res: APIResponse,
): Promise<{ status: number; body: { data?: unknown; nextCursor?: string | null; error?: { code: string; message: string } } }> {
  const body = (await res.json()) as { data?: unknown; nextCursor?: string | null; error?: { code: string; message: string } };
  if (res.status() < 400) expect(Object.keys(body).sort()).toEqual(["data", "nextCursor"]);
  else {
    expect(Object.keys(body)).toEqual(["error"]);
    expect(Object.keys(body.error!).sort()).toEqual(["code", "message"]);
  }
  return { status: res.status(), body };
}

let adminReview: string;
let reviewerRead: string;

test.describe.configure({ mode: "serial" });

test("tokens are made on the tokens page in both languages and shown once", async ({ page, browser }) => {
  await signIn(page, E2E_USERS.admin);
  adminReview = await createToken(page, { name: "OA system", scope: "review" });
  const row = page.getByTestId("token-table").getByRole("row").filter({ hasText: "OA system" });
  await expect(row).toContainText(adminReview.slice(0, 10));
  await expect(row).toContainText("active");
  // Shown once: a reload has the prefix only.
  await page.reload();
  expect(await page.content()).not.toContain(adminReview);

  const zh = await browser.newContext({ locale: "zh-CN" });
  const zhPage = await zh.newPage();
  await signInZh(zhPage, E2E_USERS.reviewer);
  await expect(zhPage.getByRole("link", { name: "API 令牌" })).toBeVisible();
  reviewerRead = await createToken(zhPage, { name: "学院看板", scope: "read" }, true);
  await expect(zhPage.getByTestId("token-table")).toContainText("有效");
  // A reviewer's list is their own; the audit log is not theirs to read.
  await expect(zhPage.getByTestId("token-table")).not.toContainText("OA system");
  await zhPage.goto("/audit");
  await expect(zhPage).not.toHaveURL(/\/audit/);
  await zh.close();
});

test("no token, a wrong token, a session cookie or a token in the query of a JSON route: 401 in the one error shape", async ({ page, request }) => {
  expect(await json(await request.get("/api/v1/flags"))).toMatchObject({ status: 401, body: { error: { code: "unauthenticated" } } });
  expect(await json(await request.get("/api/v1/flags", { headers: bearer("cwt_" + "A".repeat(43)) }))).toMatchObject({
    status: 401,
    body: { error: { code: "token-unknown" } },
  });
  expect(await json(await request.get("/api/v1/flags", { headers: { authorization: `Basic ${adminReview}` } }))).toMatchObject({ status: 401 });
  expect(await json(await request.get(`/api/v1/flags?token=${reviewerRead}`))).toMatchObject({ status: 401, body: { error: { code: "unauthenticated" } } });
  await signIn(page, E2E_USERS.admin);
  expect((await page.request.get("/api/v1/flags")).status()).toBe(401);
});

test("flags, incidents and posts: filters and cursor pagination", async ({ request }) => {
  const { topicId, reviewFlagId, openFlagId, incidentId, postId } = ids();
  const h = { headers: bearer(reviewerRead) };
  const all = await json(await request.get(`/api/v1/flags?topic=${topicId}&status=open&limit=200`, h));
  expect(all.status).toBe(200);
  const flags = all.body.data as { id: number; status: string; topic: string; post: { id: number; title: string } }[];
  expect(flags.map((f) => f.id)).toEqual(expect.arrayContaining([reviewFlagId, openFlagId]));
  expect(flags.every((f) => f.status === "open" && f.topic === "考试")).toBe(true);
  // Newest first, one at a time: each page's cursor leads to the next, no flag twice.
  const seen: number[] = [];
  let cursor: string | null | undefined = null;
  do {
    const p = await json(await request.get(`/api/v1/flags?topic=${topicId}&status=open&limit=1${cursor ? `&cursor=${cursor}` : ""}`, h));
    seen.push(...(p.body.data as { id: number }[]).map((f) => f.id));
    cursor = p.body.nextCursor;
  } while (cursor && seen.length < 100);
  expect(seen).toEqual(flags.map((f) => f.id));
  expect(await json(await request.get("/api/v1/flags?cursor=bm9wZQ", h))).toMatchObject({ status: 400, body: { error: { code: "invalid" } } });
  expect(await json(await request.get("/api/v1/flags?status=maybe", h))).toMatchObject({ status: 400, body: { error: { code: "invalid" } } });

  const incidents = await json(await request.get(`/api/v1/incidents?status=open&topic=${topicId}`, h));
  expect((incidents.body.data as { id: number; title: string }[]).find((i) => i.id === incidentId)).toMatchObject({ title: "期末考试作弊", topic: "考试" });

  const posts = await json(await request.get("/api/v1/posts?flagged=1&limit=200", h));
  expect((posts.body.data as { id: number }[]).map((p) => p.id)).toContain(postId);
  const post = await json(await request.get(`/api/v1/posts/${postId}`, h));
  expect(post.body.data).toMatchObject({ id: postId, version: 2, versions: [{ version: 1, title: "旧标题", text: "旧正文" }], incidentId: null });
  expect(await json(await request.get("/api/v1/posts/999999", h))).toMatchObject({ status: 404, body: { error: { code: "not-found" } } });
});

test("a review needs the review scope; through the API it closes the flag and is audited under the token's owner", async ({ page, request }) => {
  const { reviewFlagId } = ids();
  const body = { decision: "confirm", note: "API 复核" };
  expect(await json(await request.post(`/api/v1/flags/${reviewFlagId}/review`, { headers: bearer(reviewerRead), data: body }))).toMatchObject({
    status: 403,
    body: { error: { code: "scope" } },
  });
  expect(await json(await request.post(`/api/v1/flags/${reviewFlagId}/review`, { headers: bearer(adminReview), data: { decision: "maybe" } }))).toMatchObject({
    status: 400,
  });
  const done = await json(await request.post(`/api/v1/flags/${reviewFlagId}/review`, { headers: bearer(adminReview), data: body }));
  expect(done).toMatchObject({ status: 200, body: { data: { id: reviewFlagId, status: "confirmed" } } });
  expect(await json(await request.post("/api/v1/flags/999999/review", { headers: bearer(adminReview), data: body }))).toMatchObject({ status: 404 });

  await signIn(page, E2E_USERS.admin);
  await page.goto("/audit?kind=review");
  const row = page.getByTestId("audit-table").getByRole("row").filter({ hasText: "API 复核" });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("admin");
  await expect(row).toContainText("confirm");
  // The token's creation is in the log too, without the token.
  await page.goto("/audit?kind=token");
  await expect(page.getByTestId("audit-table")).toContainText("OA system");
  expect(await page.content()).not.toContain(adminReview);
  const csv = await page.request.get("/api/audit/export?kind=review");
  expect(csv.headers()["content-type"]).toContain("text/csv");
  expect(await csv.text()).toContain("API 复核");
});

test("the topic feed is Atom with every crawled value escaped; it takes a read token in the URL", async ({ request }) => {
  const { topicId, incidentId } = ids();
  const res = await request.get(`/api/v1/topics/${topicId}/feed.atom?token=${reviewerRead}`);
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toContain("application/atom+xml");
  const xml = await res.text();
  expect(xml).toContain("&lt;script&gt;alert(&quot;feed&quot;)&lt;/script&gt; ]]&gt; &amp;");
  expect(xml).not.toContain("<script>");
  expect(xml).not.toContain("\u0001");
  expect(xml).toContain(`/incidents/${incidentId}</id>`);
  expect(await json(await request.get(`/api/v1/topics/${topicId}/feed.atom`))).toMatchObject({ status: 401 });
  expect(await json(await request.get(`/api/v1/topics/999999/feed.atom?token=${reviewerRead}`))).toMatchObject({ status: 404 });
});

test("a revoked token is refused at once", async ({ browser, request }) => {
  const zh = await browser.newContext({ locale: "zh-CN" });
  const page = await zh.newPage();
  await signInZh(page, E2E_USERS.reviewer);
  await page.goto("/tokens");
  expect((await request.get("/api/v1/incidents", { headers: bearer(reviewerRead) })).status()).toBe(200);
  page.once("dialog", (d) => void d.accept());
  const row = page.getByTestId("token-table").getByRole("row").filter({ hasText: "学院看板" });
  await row.getByRole("button", { name: /吊销/ }).click();
  // The row turns 已吊销 and loses its button.
  await expect(row).toContainText("已吊销");
  await expect(row.getByRole("button")).toHaveCount(0);
  expect(await json(await request.get("/api/v1/incidents", { headers: bearer(reviewerRead) }))).toMatchObject({
    status: 401,
    body: { error: { code: "token-revoked" } },
  });
  await zh.close();
});

test("an expired token is refused at once; the rate limit holds per token", async ({ page, request }: { page: Page; request: APIRequestContext }) => {
  await signIn(page, E2E_USERS.admin);
  const shortLived = await createToken(page, { name: "one day", scope: "read", days: 1 });
  expect((await request.get("/api/v1/posts?limit=1", { headers: bearer(shortLived) })).status()).toBe(200);
  try {
    fs.writeFileSync(clockFile, String(2 * 86_400_000));
    expect(await json(await request.get("/api/v1/posts?limit=1", { headers: bearer(shortLived) }))).toMatchObject({
      status: 401,
      body: { error: { code: "token-expired" } },
    });
  } finally {
    fs.writeFileSync(clockFile, "0");
  }
  // 40 a minute per token: the 41st in a row is refused, another token is not.
  await signIn(page, E2E_USERS.admin);
  const busy = await createToken(page, { name: "busy", scope: "read" });
  const statuses: number[] = [];
  for (let i = 0; i < 41; i++) statuses.push((await request.get("/api/v1/incidents?limit=1", { headers: bearer(busy) })).status());
  expect(statuses.slice(0, 40).every((s) => s === 200)).toBe(true);
  const limited = await request.get("/api/v1/incidents?limit=1", { headers: bearer(busy) });
  expect(await json(limited)).toMatchObject({ status: 429, body: { error: { code: "rate-limited" } } });
  expect(Number(limited.headers()["retry-after"])).toBeGreaterThan(0);
  expect((await request.get("/api/v1/incidents?limit=1", { headers: bearer(adminReview) })).status()).toBe(200);
});
