import { expect, test } from "@playwright/test";
import { appRoutes } from "./routes";
import { E2E_USERS, submitSignIn } from "./users";

test("an admin made by the CLI signs in and sees the dashboard", async ({ page, context }) => {
  await submitSignIn(page, E2E_USERS.admin);
  await expect(page.getByRole("heading", { name: "Flagged posts" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main" })).toContainText("Crawl runs");
  const cookie = (await context.cookies()).find((c) => c.name === "cw_session");
  expect(cookie?.httpOnly).toBe(true);
  expect(cookie?.sameSite).toBe("Lax");
  await page.screenshot({ path: "test-results/screenshots/flagged-posts.png", fullPage: true });
});

test("a wrong password is refused with a message and the username is kept", async ({ page }) => {
  await submitSignIn(page, { username: E2E_USERS.admin.username, password: "not-the-password" });
  await expect(page.locator(".form-error[role=alert]")).toHaveText("Wrong username or password.");
  await expect(page.getByLabel("Username")).toHaveValue(E2E_USERS.admin.username);
  await expect(page).toHaveURL(/\/sign-in/);
});

test("a reviewer cannot open the users page", async ({ page }) => {
  await submitSignIn(page, E2E_USERS.reviewer);
  await expect(page.getByRole("heading", { name: "Flagged posts" })).toBeVisible();
  await page.goto("/users");
  await expect(page).toHaveURL(/denied=manage-users/);
});

test("every page redirects anonymous visitors to sign-in and every API route answers 401", async ({ request }) => {
  const { pages, apis, methods } = appRoutes();
  expect(pages.length).toBeGreaterThan(5);
  // /sign-in and the one-time first-admin page (/setup, which checks its own token) are public.
  for (const p of pages.filter((p) => p !== "/sign-in" && p !== "/setup")) {
    const res = await request.get(p, { maxRedirects: 0 });
    expect(res.status(), p).toBeGreaterThanOrEqual(300);
    expect(res.status(), p).toBeLessThan(400);
    expect(res.headers()["location"], p).toMatch(/\/sign-in/);
  }
  expect(apis.length).toBeGreaterThan(0);
  // /api/csp-report takes the browser's CSP violation reports, which come without a session (it caps
  // and rate-limits them itself; test/e2e/csp.spec.ts covers it).
  // The versioned API (/api/v1) takes no session: each route checks its Bearer token itself and
  // answers 401 in the API's own shape; a method the route does not have is 405.
  for (const a of apis.filter((a) => a !== "/api/csp-report")) {
    for (const method of ["GET", "POST"] as const) {
      const res = await request.fetch(a, { method, maxRedirects: 0 });
      if (a.startsWith("/api/v1/")) {
        const has = methods.get(a)!.includes(method);
        expect(res.status(), `${method} ${a}`).toBe(has ? 401 : 405);
        if (has) expect(((await res.json()) as { error: { code: string } }).error.code, `${method} ${a}`).toBe("unauthenticated");
        continue;
      }
      expect(res.status(), `${method} ${a}`).toBe(401);
      expect(await res.json()).toEqual({ error: { message: "sign-in required", code: "unauthenticated" } });
    }
  }
});

test("a forged session cookie is not accepted", async ({ request }) => {
  const res = await request.get("/accounts", {
    maxRedirects: 0,
    headers: { cookie: "cw_session=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIiwicm9sZSI6ImFkbWluIn0.forged" },
  });
  expect(res.status()).toBe(307);
  expect(res.headers()["location"]).toMatch(/^(https?:\/\/[^/]+)?\/sign-in\?next=%2Faccounts$/);
});
