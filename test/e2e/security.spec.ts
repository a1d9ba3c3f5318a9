import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { E2E_USERS, signedIn, signIn, submitSignIn } from "./users";

/** The test server's clock file (bin/test-clock.mjs): milliseconds added to the server's time. */
const clockFile = path.resolve("test-results/e2e-data/clock-offset-ms");
function shiftServerClock(ms: number) {
  fs.writeFileSync(clockFile, String(ms));
}

test("11 wrong passwords lock a username for the cool-off, even with the right password; after it, sign-in works", async ({ page }) => {
  const user = E2E_USERS.lockout;
  try {
    for (let i = 1; i <= 10; i++) {
      await submitSignIn(page, { username: user.username, password: `wrong-password-${i}` });
      await expect(page.locator(".form-error[role=alert]")).toHaveText("Wrong username or password.");
    }
    await submitSignIn(page, { username: user.username, password: "wrong-password-11" });
    await expect(page.locator(".form-error[role=alert]")).toContainText("Too many failed sign-ins for this username");
    // The right password is refused too while the cool-off lasts.
    await submitSignIn(page, user);
    await expect(page.locator(".form-error[role=alert]")).toContainText("Sign-in is paused for 15 minutes");
    await expect(page).toHaveURL(/\/sign-in/);
    // Sixteen minutes later (server clock), the right password works.
    shiftServerClock(16 * 60_000);
    await signIn(page, user);
  } finally {
    shiftServerClock(0);
  }
});

test("a session cookie captured before sign-out is refused after it, by pages and API routes", async ({ page, context, playwright }) => {
  await signIn(page, E2E_USERS.leaver);
  const captured = (await context.cookies()).find((c) => c.name === "cw_session");
  expect(captured).toBeTruthy();
  const baseURL = test.info().project.use.baseURL!;
  const replay = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { cookie: `cw_session=${captured!.value}` } });
  // Before sign-out the copy works.
  expect((await replay.get("/api/runs/live", { maxRedirects: 0 })).status()).toBe(200);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  const api = await replay.get("/api/runs/live", { maxRedirects: 0 });
  expect(api.status()).toBe(401);
  const pageRes = await replay.get("/posts", { maxRedirects: 0 });
  expect(pageRes.status()).toBeGreaterThanOrEqual(300);
  expect(pageRes.headers()["location"]).toMatch(/\/sign-in/);
  await replay.dispose();
});

test("after sign-in, `next` only leads to a path on this site", async ({ browser }) => {
  const baseURL = test.info().project.use.baseURL!;
  // The last two look like paths but resolve to `//host/x` (issue 29): 127.0.0.2 is loopback, so a
  // redirect that escaped would stay on this machine — and fail the origin check below.
  for (const next of [
    "/\t/evil.example",
    "//evil.example",
    "/\\evil.example",
    "https://evil.example/",
    "/.//127.0.0.2:20001/x",
    "/a/%2e%2e//127.0.0.2:20001/x",
  ]) {
    const context = await browser.newContext({ baseURL });
    const page = await context.newPage();
    await page.goto(`/sign-in?next=${encodeURIComponent(next)}`);
    await page.getByLabel("Username").fill(E2E_USERS.reviewer.username);
    await page.getByLabel("Password").fill(E2E_USERS.reviewer.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await signedIn(page);
    await expect(page.getByRole("heading", { name: "Flagged posts" }), next).toBeVisible();
    expect(new URL(page.url()).origin, next).toBe(new URL(baseURL).origin);
    expect(new URL(page.url()).pathname, next).toBe("/");
    await context.close();
  }
});

test("an upload within the limit the form states reaches the action (above Next's 1 MB default); a larger one gets the form's message", async ({ page }) => {
  await signIn(page, E2E_USERS.admin);
  await page.goto("/topics");
  await page.getByRole("link", { name: "考试" }).first().click();
  const form = page.getByRole("form", { name: "Upload samples" });
  // 3 MB of rows without a label: every row is refused by the parser, so nothing is stored, but the
  // answer proves the whole body reached the server action.
  const rows = `${JSON.stringify({ text: "没有标签的一行".repeat(20) })}\n`;
  const body = rows.repeat(Math.ceil((3 * 1024 * 1024) / Buffer.byteLength(rows)));
  await form.getByLabel("Samples file").setInputFiles({ name: "big.jsonl", mimeType: "application/json", buffer: Buffer.from(body) });
  await form.getByRole("button", { name: "Upload samples" }).click();
  await expect(form.getByRole("alert")).toContainText("bad rows, none kept");
  await form.getByLabel("Samples file").setInputFiles({ name: "huge.jsonl", mimeType: "application/json", buffer: Buffer.alloc(5 * 1024 * 1024 + 10, "a") });
  await form.getByRole("button", { name: "Upload samples" }).click();
  await expect(form.locator("#samples-file-error")).toHaveText("The file is larger than 5 MB; split it");
});

test("a robot URL is write-only: the topic page never carries its token; empty keeps it, the box removes it", async ({ page }) => {
  await signIn(page, E2E_USERS.admin);
  await page.goto("/topics");
  const create = page.getByRole("form", { name: "New topic" });
  await create.getByLabel("Name").fill("机器人通知");
  await create.getByRole("button", { name: "Create topic" }).click();
  await expect(page).toHaveURL(/\/topics\/\d+\?created=1/);
  const topicPath = new URL(page.url()).pathname;

  // A DingTalk robot on loopback (nothing is sent here: saving only stores it).
  const token = "e2etoken0f1e2d3c4b5a69788796a5b4c3d2e1f0";
  const settings = page.getByRole("form", { name: "Topic settings" });
  await settings.getByLabel("钉钉 DingTalk robot webhook").fill(`http://127.0.0.1:9/robot/send?access_token=${token}`);
  await settings.getByRole("button", { name: "Save topic" }).click();
  await expect(page).toHaveURL(/\?saved=1$/);

  /** The page as the server sends it (HTML and the React payload inside it), and as the browser holds it. */
  const everything = async () => {
    const raw = await (await page.request.get(topicPath)).text();
    return raw + (await page.content());
  };
  await page.goto(topicPath);
  const field = page.getByRole("form", { name: "Topic settings" }).getByLabel("钉钉 DingTalk robot webhook");
  await expect(field).toHaveValue("");
  await expect(field).toHaveAttribute("placeholder", /^Stored: http:\/\/127\.0\.0\.1:9\/… — leave empty to keep it/);
  await expect(page.getByRole("list", { name: "Notification channels" })).toContainText("http://127.0.0.1:9/…");
  let html = await everything();
  expect(html).not.toContain(token);
  // Nor the URL's path (the page's messages do carry the example "…/robot/send?access_token=…").
  expect(html).not.toContain("127.0.0.1:9/robot");

  // Saved again with the field empty: the stored URL stays.
  await page.getByRole("form", { name: "Topic settings" }).getByRole("button", { name: "Save topic" }).click();
  await expect(page).toHaveURL(/\?saved=1$/);
  await page.goto(topicPath);
  await expect(page.getByRole("form", { name: "Topic settings" }).getByLabel("钉钉 DingTalk robot webhook")).toHaveAttribute("placeholder", /^Stored:/);
  html = await everything();
  expect(html).not.toContain(token);

  // The box removes the channel.
  await page.getByRole("form", { name: "Topic settings" }).getByLabel("Remove this channel (its URL and secret)").check();
  await page.getByRole("form", { name: "Topic settings" }).getByRole("button", { name: "Save topic" }).click();
  await expect(page).toHaveURL(/\?saved=1$/);
  await page.goto(topicPath);
  await expect(page.getByRole("form", { name: "Topic settings" }).getByLabel("钉钉 DingTalk robot webhook")).toHaveAttribute(
    "placeholder",
    "https://oapi.dingtalk.com/robot/send?access_token=…",
  );
});
