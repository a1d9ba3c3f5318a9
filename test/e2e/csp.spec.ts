import { expect, test, type Page } from "@playwright/test";
import { appRoutes } from "./routes";
import { E2E_USERS, submitSignIn } from "./users";

/**
 * The Content-Security-Policy is enforced (lib/security-headers.ts, set per request by proxy.ts):
 * every page still runs Next.js's scripts (they carry the request's nonce), and a script injected
 * into a page does not run and is reported.
 */

const { pageInfo } = appRoutes();
const isParam = (segment: string) => segment.startsWith("[");
/** Every dashboard page without a parameter, found on disk (test/e2e/routes.ts): a new page is walked without being listed here. */
const LIST_ROUTES = pageInfo.filter((p) => p.dashboard && !p.segments.some(isParam)).map((p) => p.url);
/** The detail pages the e2e database always has one of (others are walked when a link to one is shown). */
const REQUIRED_DETAILS = new Set(["/posts/[id]", "/accounts/[id]", "/runs/[id]", "/seeds/[id]", "/topics/[id]"]);
/**
 * Every dashboard page with a parameter, found through the first link to one on the list page above
 * it (or, when no list page sits above it, such as an author page, on the posts list).
 */
const DETAIL_ROUTES: { list: string; pattern: RegExp; required: boolean }[] = pageInfo
  .filter((p) => p.dashboard && p.segments.some(isParam))
  .map((p) => {
    const parent = "/" + p.segments.slice(0, p.segments.findIndex(isParam)).join("/");
    const pattern = new RegExp("^/" + p.segments.map((s) => (isParam(s) ? "[^/?#]+" : s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))).join("/") + "$");
    return { list: LIST_ROUTES.includes(parent) ? parent : "/posts", pattern, required: REQUIRED_DETAILS.has("/" + p.segments.join("/")) };
  });

/** Sign in and wait for the home page; the first sign-in after the server starts may take a while on a busy machine. */
async function signIn(page: Page, user: { username: string; password: string }) {
  await submitSignIn(page, user);
  await expect(page.getByRole("heading", { name: "Flagged posts" })).toBeVisible({ timeout: 30_000 });
}

/** Console messages about the CSP or the Permissions-Policy, and uncaught page errors. */
function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy|Permissions-Policy|Refused to/i.test(m.text())) problems.push(`${page.url()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`${page.url()}: ${e.message}`));
  return problems;
}

/** React has hydrated the page: its fibers hang off the DOM (only Next.js's scripts, run, put them there). */
async function expectHydrated(page: Page, route: string) {
  await expect
    .poll(() => page.evaluate(() => Object.keys(document.querySelector("nav.nav") ?? document.body).some((k) => k.startsWith("__reactFiber"))), {
      message: route,
    })
    .toBe(true);
}

/** A nav link click is a client-side navigation (no full reload): the client router runs. */
async function expectClientNavigation(page: Page, from: string) {
  const target = from === "/charts" ? "/posts" : "/charts";
  await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
  await page.locator(`nav.nav a[href="${target}"]`).click();
  await expect(page).toHaveURL(new RegExp(`${target}$`));
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument), `${from} → ${target}`).toBe(true);
}

test("with the CSP enforced, every dashboard page runs its scripts, without a CSP error", async ({ page }) => {
  test.setTimeout(240_000);
  const problems = watchConsole(page);
  await signIn(page, E2E_USERS.admin);
  const routes = [...LIST_ROUTES];
  for (const { list, pattern, required } of DETAIL_ROUTES) {
    await page.goto(list);
    const find = async () => {
      const hrefs = await page.locator("main a[href]").evaluateAll((links) => links.map((a) => a.getAttribute("href") ?? ""));
      return hrefs.find((h) => pattern.test(h));
    };
    // Parts of a list page stream in after the first bytes.
    if (required) await expect.poll(find, { message: `a link matching ${pattern} on ${list}` }).toBeTruthy();
    const href = await find();
    if (href) routes.push(href);
  }
  expect(routes.length).toBeGreaterThanOrEqual(LIST_ROUTES.length + REQUIRED_DETAILS.size);
  for (const route of routes) {
    const response = await page.goto(route);
    expect(response?.status(), route).toBe(200);
    const csp = response!.headers()["content-security-policy"] ?? "";
    expect(csp, route).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/]+=*' 'strict-dynamic'/);
    // Next.js put the response's nonce on its scripts (the browser hides it from getAttribute; the property keeps it).
    const nonce = /'nonce-([^']+)'/.exec(csp)![1];
    const nonces = await page.locator("script").evaluateAll((scripts) => scripts.map((s) => (s as HTMLScriptElement).nonce));
    expect(nonces.length, route).toBeGreaterThan(0);
    expect(new Set(nonces), route).toEqual(new Set([nonce]));
    await expectHydrated(page, route);
    await expectClientNavigation(page, route);
  }
  expect(problems).toEqual([]);
});

test("the sign-in page runs its scripts under the CSP too", async ({ page }) => {
  const problems = watchConsole(page);
  await page.goto("/sign-in");
  await expect
    .poll(() => page.evaluate(() => Object.keys(document.querySelector("form") ?? document.body).some((k) => k.startsWith("__reactFiber"))))
    .toBe(true);
  // The sign-in form is a client component: submitting it through its action signs in.
  await signIn(page, E2E_USERS.reviewer);
  expect(problems).toEqual([]);
});

test("a script or event handler smuggled into a page's HTML does not run, and the violation is reported", async ({ page }) => {
  await signIn(page, E2E_USERS.reviewer);
  // As if the sanitizer had let a crafted post through: the dashboard's real answer for /posts,
  // headers (the CSP) untouched, with markup added to its HTML — an inline <script>, one carrying
  // the nonce of an earlier response, and an inline event handler. (Scripts a page's own
  // JavaScript inserts are trusted by 'strict-dynamic' by design: that needs script running already.)
  const earlier = (await page.request.get("/posts")).headers()["content-security-policy"] ?? "";
  const staleNonce = /'nonce-([^']+)'/.exec(earlier)![1];
  const smuggled =
    `<script>window.__injected = "inline script ran"</script>` +
    `<script nonce="${staleNonce}">window.__injectedStale = "stale nonce ran"</script>` +
    `<img src="data:image/png;base64,AAAA" onerror="window.__injectedHandler = 'handler ran'">`;
  await page.route("**/posts", async (route) => {
    if (route.request().resourceType() !== "document") return route.continue();
    const response = await route.fetch();
    const html = await response.text();
    expect(html).toContain("</body>");
    await route.fulfill({ response, body: html.replace("</body>", `${smuggled}</body>`) });
  });
  // Listen as the page would (an init script is the debugger's, not subject to the page's CSP).
  await page.addInitScript(() => {
    const w = window as unknown as { __violations: string[] };
    w.__violations = [];
    document.addEventListener("securitypolicyviolation", (e) => w.__violations.push(`${e.effectiveDirective} ${e.blockedURI} ${e.disposition}`));
  });
  const report = page.waitForRequest((r) => new URL(r.url()).pathname === "/api/csp-report" && r.method() === "POST");
  const problems = watchConsole(page);
  const response = await page.goto("/posts");
  expect(response?.headers()["content-security-policy"]).not.toContain(staleNonce);
  await expectHydrated(page, "/posts");
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { __violations: string[] }).__violations))
    .toEqual(["script-src-elem inline enforce", "script-src-elem inline enforce", "script-src-attr inline enforce"]);
  const flags = await page.evaluate(() => {
    const w = window as unknown as Record<string, unknown>;
    return [w.__injected, w.__injectedStale, w.__injectedHandler];
  });
  expect(flags).toEqual([undefined, undefined, undefined]);
  expect(problems.filter((p) => /Content Security Policy/.test(p))).toHaveLength(3);
  // The browser sent a report to the dashboard, which took it without a session's help.
  const sent = await report;
  const body = JSON.parse(sent.postData() ?? "{}") as { "csp-report"?: Record<string, unknown> };
  expect(body["csp-report"]?.["blocked-uri"]).toBe("inline");
  expect(body["csp-report"]?.["document-uri"]).toMatch(/\/posts$/);
  expect((await sent.response())?.status()).toBe(204);
});

test("every response carries the headers: a fresh nonce, Permissions-Policy, no HSTS on http; CSP reports are capped", async ({ playwright }) => {
  const baseURL = test.info().project.use.baseURL!;
  const anonymous = await playwright.request.newContext({ baseURL });
  const responses = {
    signIn: await anonymous.get("/sign-in"),
    signInAgain: await anonymous.get("/sign-in"),
    setup: await anonymous.get("/setup?token=nope"),
    redirect: await anonymous.get("/posts", { maxRedirects: 0 }),
    api401: await anonymous.get("/api/health"),
    notFound: await anonymous.get("/_next/static/no-such-file.js"),
  };
  expect(responses.redirect.status()).toBeGreaterThanOrEqual(300);
  expect(responses.redirect.status()).toBeLessThan(400);
  expect(responses.api401.status()).toBe(401);
  expect(responses.notFound.status()).toBe(404);
  const nonces = new Set<string>();
  for (const [name, res] of Object.entries(responses)) {
    const headers = res.headers();
    const csp = headers["content-security-policy"] ?? "";
    expect(csp, name).toContain("object-src 'none'");
    expect(csp, name).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(headers["permissions-policy"], name).toMatch(/(^|, )camera=\(\)/);
    expect(headers["permissions-policy"], name).toMatch(/microphone=\(\)/);
    expect(headers["permissions-policy"], name).toMatch(/geolocation=\(\)/);
    expect(headers["x-frame-options"], name).toBe("DENY");
    expect(headers["strict-transport-security"], name).toBeUndefined();
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    if (name !== "notFound") {
      expect(nonce, name).toBeTruthy();
      nonces.add(nonce!);
    } else {
      expect(csp).toContain("script-src 'none'");
    }
  }
  // A nonce is never used twice.
  expect(nonces.size).toBe(Object.keys(responses).length - 1);
  // Reports need no session, but a large body is refused.
  const report = { "csp-report": { "document-uri": `${baseURL}/`, "effective-directive": "script-src-elem", "blocked-uri": "inline" } };
  expect((await anonymous.post("/api/csp-report", { data: report, headers: { "content-type": "application/csp-report" } })).status()).toBe(204);
  const big = await anonymous.post("/api/csp-report", { data: "x".repeat(17 * 1024), headers: { "content-type": "application/csp-report" } });
  expect(big.status()).toBe(413);
  await anonymous.dispose();
});
