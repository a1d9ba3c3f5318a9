/**
 * The Chromium side of the fetcher: one navigation as an {@link Exchange}, and the visitor-cookie
 * refresh. Both pass the same checks as plain HTTP (address policy, robots.txt), take the same
 * host slot, and share the fetcher's cookie jar, so both paths act as the same visitor.
 */
import type { BrowserContext, Page } from "playwright-core";
import { RetryableError } from "../errors";
import type { FetchOptions } from "../types";
import type { BrowserSession } from "./browser";
import type { Cookie } from "./cookies";
import type { Exchange, ExchangeContext, Trace } from "./exchange";
import { BodyTooLargeError } from "./http";
import { hostKey } from "./politeness";
import { describeError } from "./retry-policy";

/**
 * After `load`, how long a rendered page may keep fetching (lists built from XHR) before we read
 * it. Bounded so a page that polls forever still returns.
 */
const BROWSER_SETTLE_MS = 3_000;

/** One navigation in Chromium, in the host queue like an HTTP request. */
export async function browserExchange(ctx: ExchangeContext, browser: BrowserSession, url: string, opts: FetchOptions, trace: Trace): Promise<Exchange> {
  const target = new URL(url);
  const delay = await ctx.admit(url);
  // The browser (and this fetcher's context) is made ready before taking the host slot, so a
  // cold launch does not count against the host.
  return browser.withPage(async (page, context) => {
    await syncCookiesInto(ctx, context);
    const extra = Object.fromEntries(Object.entries(opts.headers ?? {}).filter(([name]) => name.toLowerCase() !== "user-agent"));
    if (Object.keys(extra).length > 0) await page.setExtraHTTPHeaders(extra);
    return ctx.scheduler.run(hostKey(target), delay, async () => {
      ctx.counters.requests++;
      ctx.counters.viaBrowser++;
      trace.viaBrowser = true;
      const deadline = Date.now() + ctx.timeoutMs;
      const response = await page.goto(url, { waitUntil: "load", timeout: ctx.timeoutMs });
      if (!response) throw new Error(`Chromium got no response for ${url}`);
      const headers = await response.allHeaders();
      const contentType = headers["content-type"] ?? "";
      let text: string;
      if (opts.json || /[/+]json\b/i.test(contentType)) {
        // JSON is wanted as the server sent it, not as Chromium's viewer wraps it in HTML.
        text = await response.text();
      } else {
        await settle(page, deadline);
        text = await page.content();
      }
      ctx.jar.importBrowserCookies(await context.cookies());
      const bytes = Buffer.byteLength(text);
      ctx.counters.bytes += bytes;
      trace.bytes += bytes;
      if (bytes > ctx.maxBodyBytes) throw new BodyTooLargeError(ctx.maxBodyBytes);
      return { url: page.url(), status: response.status(), headers, contentType, bytes, text, viaBrowser: true };
    });
  });
}

/**
 * Open `target` in Chromium (politely, like any request) and copy the browser's cookies into the
 * jar: how visitor cookies set by script (Weibo's) reach plain HTTP requests. Resolves to the
 * number of cookies copied. `target` is an already normalized http(s) URL.
 */
export async function refreshCookiesInBrowser(ctx: ExchangeContext, browser: BrowserSession, target: URL): Promise<number> {
  const delay = await ctx.admit(target.href);
  return browser.withPage(async (page, context) => {
    await syncCookiesInto(ctx, context);
    await ctx.scheduler.run(hostKey(target), delay, async () => {
      ctx.counters.requests++;
      ctx.counters.viaBrowser++;
      const deadline = Date.now() + ctx.timeoutMs;
      try {
        // The status does not matter: a visitor wall answers 432 and sets cookies by script.
        await page.goto(target.href, { waitUntil: "load", timeout: ctx.timeoutMs });
      } catch (err) {
        throw new RetryableError(`Chromium could not open ${target.href}: ${describeError(err)}`, target.href);
      }
      await settle(page, deadline);
    });
    const copied = ctx.jar.importBrowserCookies(await context.cookies());
    ctx.log(`copied ${copied} cookies from Chromium after opening ${target.href}`);
    return copied;
  });
}

/** Give the jar's cookies to the browser, so both paths act as the same visitor. */
async function syncCookiesInto(ctx: ExchangeContext, context: BrowserContext): Promise<void> {
  const cookies = ctx.jar.all();
  if (cookies.length > 0) await context.addCookies(cookies.map(toBrowserCookie));
}

/** Wait (bounded) for a rendered page to stop fetching, so script-built lists are in the DOM. */
async function settle(page: Page, deadline: number): Promise<void> {
  const budget = Math.min(BROWSER_SETTLE_MS, deadline - Date.now());
  // Playwright reads a timeout of 0 as "no timeout": skip instead.
  if (budget <= 0) return;
  await page.waitForLoadState("networkidle", { timeout: budget }).catch(() => undefined);
}

function toBrowserCookie(c: Cookie) {
  return {
    name: c.name,
    value: c.value,
    // Playwright's convention: a leading dot means "and subdomains".
    domain: c.hostOnly ? c.domain : `.${c.domain}`,
    path: c.path,
    expires: c.expires === undefined ? -1 : Math.floor(c.expires / 1000),
    secure: c.secure,
    httpOnly: c.httpOnly ?? false,
  };
}
