/**
 * Chromium behind the operator's proxy: the browser's own gate (SSRF confinement) opens every
 * connection through the upstream proxy, so a rendered page, its scripts' requests and robots.txt
 * all pass through it; a dead proxy or refused credentials are ProxyErrors naming the proxy.
 */
import fs from "node:fs";
import { afterAll, afterEach, describe, expect, it, type TestContext } from "vitest";
import { closeSharedBrowser, createAddressPolicy, ProxyError, type FetcherOptions } from "../../../crawler/fetch";
import { deadPort, startHttpProxy, startSocksProxy, type TestProxy } from "../../support/proxies";
import { htmlPage, jsonBody } from "../../support/scripted-server";
import { fetcher as testFetcher, server } from "./helpers";

const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const haveChromium = fs.existsSync(chromiumPath);
if (!haveChromium) console.warn(`[proxy browser tests] skipped: no Chromium at ${chromiumPath}`);
const itBrowser = haveChromium ? it : it.skip;

afterAll(closeSharedBrowser);
const proxies: TestProxy[] = [];
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((p) => p.close()));
});

const fetcher = (ctx: TestContext, options: FetcherOptions = {}) => testFetcher({ mode: "browser", requestTimeoutMs: 15_000, retries: 0, ...options }, ctx);

/** A page whose list its script fetches from the same site. */
async function scriptedSite(ctx: TestContext) {
  const s = await server(ctx);
  s.route("/robots.txt", { status: 404 });
  s.route("/api/list", jsonBody({ items: ["宿舍停电通知", "期末考试安排"] }));
  s.route(
    "/board",
    htmlPage(
      "校园论坛",
      `<ul id="list"></ul>
       <script>
         fetch("/api/list").then((r) => r.json()).then((d) => {
           for (const t of d.items) {
             const li = document.createElement("li");
             li.textContent = t;
             document.getElementById("list").appendChild(li);
           }
         });
       </script>`,
    ),
  );
  return s;
}

describe("Chromium through a proxy", () => {
  itBrowser("renders through an HTTP proxy with credentials: the page and its script's request pass through it", async (ctx) => {
    const s = await scriptedSite(ctx);
    const proxy = await startHttpProxy({ username: "ops", password: "pw" });
    proxies.push(proxy);
    const f = fetcher(ctx, { proxy: proxy.url(), addressPolicy: createAddressPolicy({ trustedHosts: [s.origin] }) });

    const page = await f.get(s.url("/board"));

    expect(page.viaBrowser).toBe(true);
    expect(page.body).toContain("期末考试安排");
    expect(s.requests.map((r) => r.path)).toEqual(expect.arrayContaining(["/robots.txt", "/board", "/api/list"]));
    expect(proxy.attempts.length).toBeGreaterThanOrEqual(1);
    expect(proxy.attempts.every((a) => a.authorized && a.target === `127.0.0.1:${s.port}`)).toBe(true);
    // Everything the browser received came through the proxy.
    expect(proxy.bytesRelayed()).toBeGreaterThan(page.bytes / 2);
  });

  itBrowser("renders through a SOCKS5 proxy with credentials", async (ctx) => {
    const s = await scriptedSite(ctx);
    const proxy = await startSocksProxy({ username: "ops", password: "pw" });
    proxies.push(proxy);
    const f = fetcher(ctx, { proxy: proxy.url(), respectRobots: false, addressPolicy: createAddressPolicy({ trustedHosts: [s.origin] }) });

    const page = await f.get(s.url("/board"));

    expect(page.body).toContain("宿舍停电通知");
    const passed = proxy.passed();
    expect(passed.length).toBeGreaterThanOrEqual(1);
    expect(passed.every((a) => a.target === `127.0.0.1:${s.port}`)).toBe(true);
    expect(s.requests.map((r) => r.path)).toEqual(expect.arrayContaining(["/board", "/api/list"]));
  });

  itBrowser("a dead proxy is a ProxyError naming the proxy, with its password masked", async (ctx) => {
    const s = await scriptedSite(ctx);
    const port = await deadPort();
    const f = fetcher(ctx, { proxy: `http://ops:hunter2@127.0.0.1:${port}`, respectRobots: false });

    const err = await f.get(s.url("/board")).catch((e: unknown) => e);

    expect(err).toBeInstanceOf(ProxyError);
    expect(err).toMatchObject({ failure: "connect", url: s.url("/board") });
    expect((err as Error).message).toBe(`proxy http://ops:***@127.0.0.1:${port} could not be reached: connection refused (ECONNREFUSED)`);
    expect(s.requests).toHaveLength(0);
  });

  itBrowser("refused SOCKS credentials are a ProxyError in the browser too", async (ctx) => {
    const s = await scriptedSite(ctx);
    const proxy = await startSocksProxy({ username: "ops", password: "pw" });
    proxies.push(proxy);
    const f = fetcher(ctx, { proxy: proxy.url({ username: "ops", password: "bad" }), respectRobots: false });
    await expect(f.get(s.url("/board"))).rejects.toMatchObject({ name: "ProxyError", failure: "auth" });
    expect(s.requests).toHaveLength(0);
  });
});
