/**
 * The Chromium path. These tests run concurrently: each has its own server and fetchers, and most
 * of a browser test is waiting for the page to go quiet, which overlaps well.
 */
import fs from "node:fs";
import { afterAll, describe, expect, it, type TestContext } from "vitest";
import { BlockedError, FatalError } from "../../../crawler/errors";
import { closeSharedBrowser, type FetcherOptions } from "../../../crawler/fetch";
import { htmlPage, jsonBody, type RequestRecord, type ScriptedServer } from "../../support/scripted-server";
import { fetcher as testFetcher, server } from "./helpers";

const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const haveChromium = fs.existsSync(chromiumPath);
if (!haveChromium) {
  console.warn(`[browser tests] skipped: no Chromium at ${chromiumPath} (apt-get install chromium or set CHROMIUM_PATH)`);
}
const itBrowser = haveChromium ? it.concurrent : it.skip;

afterAll(closeSharedBrowser);

/** A fetcher in auto mode with a roomy timeout: a loaded CI machine can be slow to render. */
const fetcher = (ctx: TestContext, options: FetcherOptions = {}) => testFetcher({ mode: "auto", requestTimeoutMs: 15_000, ...options }, ctx);

/** A list that only exists once the page's script has run. */
const SCRIPTED_LIST = htmlPage(
  "校园论坛 - 最新帖子",
  `<ul id="list"></ul>
   <script>
     for (const t of ["食堂涨价", "宿舍停电", "期末安排"]) {
       const li = document.createElement("li");
       li.className = "thread";
       li.textContent = t;
       document.getElementById("list").appendChild(li);
     }
   </script>`,
);

/** Weibo-like: the API wants visitor cookies, which the home page sets by script. */
function visitorSite(s: ScriptedServer, apiAnswer: "432" | "-100"): void {
  const hasCookie = (req: RequestRecord) => req.headers.cookie?.includes("SUB=visitor") ?? false;
  s.route("/robots.txt", { status: 404 });
  s.route("/", htmlPage("微博", `<script>document.cookie = "SUB=visitor; path=/; max-age=3600";</script>`));
  s.route("/api/container/getIndex", (req) =>
    hasCookie(req) ? jsonBody({ ok: 1, data: { cards: [] } }) : apiAnswer === "432" ? { status: 432, body: "" } : jsonBody({ ok: -100 }),
  );
}

describe("browser", () => {
  it("fails with FatalError and a clear message when Chromium is missing", async () => {
    const s = await server();
    s.route("/", htmlPage("home"));
    const f = testFetcher({ mode: "auto", respectRobots: false, chromiumPath: "/nonexistent/chromium" });
    const err = await f.get(s.url("/"), { browser: true }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FatalError);
    expect((err as Error).message).toBe("Chromium not found at /nonexistent/chromium: apt-get install chromium or set CHROMIUM_PATH");
  });

  itBrowser("renders a page whose list is built by script (the HTTP path sees no items)", async (ctx) => {
    const s = await server(ctx);
    s.route("/robots.txt", { status: 404 });
    s.route("/forum", SCRIPTED_LIST);
    const f = fetcher(ctx, { userAgent: "CampusWatch-Test/1.0", hostDelayMs: 30 });

    const [plain, rendered] = await Promise.all([f.get(s.url("/forum"), { kind: "list" }), f.get(s.url("/forum"), { kind: "list", browser: true })]);

    expect(plain.viaBrowser).toBe(false);
    expect(plain.body).not.toContain('<li class="thread">');
    expect(rendered.viaBrowser).toBe(true);
    expect(rendered.status).toBe(200);
    expect(rendered.body.match(/<li class="thread">/g)).toHaveLength(3);
    expect(rendered.body).toContain("宿舍停电");
    // Same honest User-Agent on both paths, and the browser goes through the host queue too.
    expect(s.requestsTo("/forum").map((r) => r.headers["user-agent"])).toEqual(["CampusWatch-Test/1.0", "CampusWatch-Test/1.0"]);
    expect(s.maxInFlight()).toBe(1);
    expect(Math.min(...s.gaps())).toBeGreaterThanOrEqual(30 - 2);
    expect(f.stats()).toMatchObject({ viaBrowser: 1, byKind: { list: 2, item: 0, other: 0 } });
  });

  itBrowser("in browser mode renders every request and returns JSON as the server sent it", async (ctx) => {
    const s = await server(ctx);
    s.route("/robots.txt", { status: 404 });
    s.route("/api", jsonBody({ ok: 1, data: { total: 2 } }));
    const res = await fetcher(ctx, { mode: "browser" }).get(s.url("/api"), { json: true });
    expect(res.viaBrowser).toBe(true);
    expect(JSON.parse(res.body)).toEqual({ ok: 1, data: { total: 2 } });
  });

  itBrowser("detects a block page rendered in the browser", async (ctx) => {
    const s = await server(ctx);
    s.route("/robots.txt", { status: 404 });
    s.route("/f", htmlPage("百度安全验证"));
    await expect(fetcher(ctx, { mode: "browser" }).get(s.url("/f"))).rejects.toBeInstanceOf(BlockedError);
  });

  itBrowser("refreshCookiesViaBrowser copies the page's cookies into this account's jar only", async (ctx) => {
    const s = await server(ctx);
    visitorSite(s, "-100");
    const a = fetcher(ctx);
    const b = fetcher(ctx);

    expect(await a.refreshCookiesViaBrowser(s.url("/"))).toBeGreaterThanOrEqual(1);
    const res = await a.get(s.url("/api/container/getIndex?containerid=1"), { json: true });
    expect(res.viaBrowser).toBe(false);
    expect(s.requestsTo("/api/container/getIndex")[0]?.headers.cookie).toBe("SUB=visitor");

    // Another account's browser context starts without a's cookies.
    await b.get(s.url("/"), { browser: true });
    expect(s.requestsTo("/").map((r) => r.headers.cookie)).toEqual([undefined, undefined]);
  });

  itBrowser("hands cookies from the HTTP path to the browser: one visitor, two ways in", async (ctx) => {
    const s = await server(ctx);
    s.route("/robots.txt", { status: 404 });
    s.route("/login", { headers: { "set-cookie": "sid=from-http; Path=/" }, body: "ok" });
    s.route("/", htmlPage("home"));
    const f = fetcher(ctx);
    await f.get(s.url("/login"));
    await f.get(s.url("/"), { browser: true });
    expect(s.requestsTo("/")[0]?.headers.cookie).toBe("sid=from-http");
  });

  itBrowser.for(["432", "-100"] as const)("refreshes visitor cookies once by itself on %s and retries", async (answer, ctx) => {
    const s = await server(ctx);
    visitorSite(s, answer);
    const f = fetcher(ctx);

    const res = await f.get(s.url("/api/container/getIndex?containerid=1"), { json: true });

    expect(JSON.parse(res.body)).toMatchObject({ ok: 1 });
    expect(s.requestsTo("/").map((r) => r.headers.cookie)).toEqual([undefined]); // the browser's visit
    expect(s.requestsTo("/api/container/getIndex").map((r) => r.headers.cookie)).toEqual([undefined, "SUB=visitor"]);
    expect(f.stats()).toMatchObject({ viaBrowser: 1, retries: 1, blocks: 0 });
  });
});
