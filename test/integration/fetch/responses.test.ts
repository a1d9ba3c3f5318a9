import zlib from "node:zlib";
import { describe, expect, it, vi } from "vitest";
import { BlockedError, NonRetryableError } from "../../../crawler/errors";
import type { RequestInfo } from "../../../crawler/fetch";
import { htmlPage, jsonBody, redirect } from "../../support/scripted-server";
import { fetcher, server } from "./helpers";

const TEXT = "关于食堂涨价的讨论";

describe("size caps", () => {
  it.each([
    ["streamed without Content-Length", {}],
    ["announced by Content-Length", { "content-length": String(64 * 1024 * 1024) }],
  ])("refuses a huge page %s", async (_name, headers) => {
    const s = await server();
    // Far more than socket buffers hold, so the server can only finish if the client kept reading.
    s.route("/huge", { bodyBytes: 64 * 1024 * 1024, headers });
    const f = fetcher({ respectRobots: false, maxBodyBytes: 1024 * 1024 });
    const err = await f.get(s.url("/huge")).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NonRetryableError);
    expect((err as Error).message).toBe("page larger than 1048576 bytes");
    expect(s.requests).toHaveLength(1);
    // Download stopped early: the server's response never completed.
    await vi.waitFor(() => expect(s.requests[0]?.aborted).toBe(true), { timeout: 1_000 });
  });

  it("applies the cap after un-gzipping, so a small gzip bomb is refused too", async () => {
    const s = await server();
    const bomb = zlib.gzipSync(Buffer.alloc(4 * 1024 * 1024));
    s.route("/bomb", { body: bomb, headers: { "content-encoding": "gzip", "content-type": "text/html" } });
    const err = await fetcher({ respectRobots: false, maxBodyBytes: 1024 * 1024 })
      .get(s.url("/bomb"))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NonRetryableError);
    expect((err as Error).message).toMatch(/page larger than/);
  });

  it("un-gzips a normal page", async () => {
    const s = await server();
    s.route("/", htmlPage(TEXT, "", { gzip: true }));
    const res = await fetcher({ respectRobots: false }).get(s.url("/"));
    expect(res.body).toContain(TEXT);
  });
});

describe("redirects", () => {
  it("follows redirects and reports the final URL", async () => {
    const s = await server();
    s.route("/old", redirect("/mid", 301));
    s.route("/mid", redirect("/new"));
    s.route("/new", htmlPage("new"));
    const res = await fetcher({ respectRobots: false }).get(s.url("/old"));
    expect(res.url).toBe(s.url("/new"));
    expect(res.status).toBe(200);
  });

  it("stops a redirect loop", async () => {
    const s = await server();
    s.route("/a", redirect("/b"));
    s.route("/b", redirect("/a"));
    const err = await fetcher({ respectRobots: false })
      .get(s.url("/a"))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NonRetryableError);
    expect((err as Error).message).toMatch(/^redirect loop: .*\/a -> .*\/b -> .*\/a$/);
    expect(s.requests).toHaveLength(2);
  });

  it("stops after maxRedirects", async () => {
    const s = await server();
    s.route("/r", (req) => redirect(`/r?n=${req.index + 1}`));
    const err = await fetcher({ respectRobots: false, maxRedirects: 3 })
      .get(s.url("/r"))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NonRetryableError);
    expect((err as Error).message).toMatch(/^redirect loop: more than 3 redirects/);
    expect(s.requests).toHaveLength(4);
  });

  it("allows coming back to the same URL once a cookie was set (a cookie check, not a loop)", async () => {
    const s = await server();
    s.route("/", (req) =>
      req.headers.cookie?.includes("seen=1") ? htmlPage("welcome") : { ...redirect("/"), headers: { location: "/", "set-cookie": "seen=1; Path=/" } },
    );
    await expect(fetcher({ respectRobots: false }).get(s.url("/"))).resolves.toMatchObject({ status: 200 });
  });

  it("checks robots.txt on every hop", async () => {
    const s = await server();
    s.route("/robots.txt", { body: "User-agent: *\nDisallow: /members\n" });
    s.route("/go", redirect("/members/area"));
    await expect(fetcher().get(s.url("/go"))).rejects.toThrow("disallowed by robots.txt");
    expect(s.requestsTo("/members/area")).toHaveLength(0);
  });
});

describe("decoding", () => {
  it("decodes a GBK page by its Content-Type header", async () => {
    const s = await server();
    s.route("/", htmlPage(TEXT, `<p>${TEXT}</p>`, { encoding: "gbk" }));
    const res = await fetcher({ respectRobots: false }).get(s.url("/"));
    expect(res.body).toContain(`<p>${TEXT}</p>`);
    expect(res.contentType).toBe("text/html; charset=gbk");
    expect(res.bytes).toBe(Buffer.byteLength(res.body, "utf8") - TEXT.length * 2); // 2 bytes per hanzi in GBK, 3 in UTF-8
  });

  it("decodes a GB2312 page declared only in <meta>", async () => {
    const s = await server();
    s.route("/", {
      headers: { "content-type": "text/html" },
      encoding: "gbk",
      body: `<html><head><meta http-equiv="Content-Type" content="text/html; charset=gb2312"></head><body>${TEXT}</body></html>`,
    });
    const res = await fetcher({ respectRobots: false }).get(s.url("/"));
    expect(res.body).toContain(TEXT);
  });
});

describe("block pages", () => {
  it("throws BlockedError on Baidu's security verification page", async () => {
    const s = await server();
    s.route("/f", htmlPage("百度安全验证", '<div class="timeout">网络不给力，请稍后重试</div>'));
    const f = fetcher({ respectRobots: false });
    const err = await f.get(s.url("/f?kw=南京大学")).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BlockedError);
    expect((err as Error).message).toMatch(/百度安全验证/);
    expect(f.stats().blocks).toBe(1);
  });

  it("does not follow a redirect to wappass.baidu.com", async () => {
    const s = await server();
    s.route("/f", redirect("https://wappass.baidu.com/static/captcha/tuxing.html?ak=x"));
    await expect(fetcher({ respectRobots: false }).get(s.url("/f"))).rejects.toBeInstanceOf(BlockedError);
  });

  it("throws BlockedError on Weibo's ok:-100 when JSON is expected (no browser in http mode)", async () => {
    const s = await server();
    s.route("/api/container/getIndex", jsonBody({ ok: -100, url: "https://passport.weibo.com/sso/signin" }));
    const f = fetcher({ respectRobots: false, mode: "http" });
    const err = await f.get(s.url("/api/container/getIndex?containerid=1"), { json: true }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BlockedError);
    expect((err as Error).message).toMatch(/-100/);
    expect(s.requests).toHaveLength(1);
  });

  it("refuses a non-JSON answer when JSON is expected", async () => {
    const s = await server();
    s.route("/api", htmlPage("maintenance"));
    await expect(fetcher({ respectRobots: false }).get(s.url("/api"), { json: true })).rejects.toBeInstanceOf(NonRetryableError);
  });
});

describe("cookies", () => {
  it("remembers Set-Cookie per host and sends it back", async () => {
    const s = await server();
    s.route("/login", { headers: { "set-cookie": ["sid=42; Path=/; HttpOnly", "lang=zh; Path=/forum"] }, body: "ok" });
    s.route("/forum/list", htmlPage("list"));
    s.route("/other", htmlPage("other"));
    const f = fetcher({ respectRobots: false });
    await f.get(s.url("/login"));
    await f.get(s.url("/forum/list"));
    await f.get(s.url("/other"), { headers: { Cookie: "extra=1" } });
    expect(s.requestsTo("/login")[0]?.headers.cookie).toBeUndefined();
    expect(s.requestsTo("/forum/list")[0]?.headers.cookie).toBe("lang=zh; sid=42");
    expect(s.requestsTo("/other")[0]?.headers.cookie).toBe("sid=42; extra=1");

    // Another account's fetcher has its own jar.
    await fetcher({ respectRobots: false }).get(s.url("/other"));
    expect(s.requestsTo("/other")[1]?.headers.cookie).toBeUndefined();
  });
});

describe("accounting", () => {
  it("reports each get() once to onRequest and counts pages by kind", async () => {
    const s = await server();
    s.route("/robots.txt", { status: 404 });
    s.route("/list", [{ status: 500 }, htmlPage("list")]);
    s.route("/item", htmlPage("item"));
    s.route("/gone", { status: 404, body: "gone" });
    const seen: RequestInfo[] = [];
    const f = fetcher({ onRequest: (info) => seen.push(info) });

    await f.get(s.url("/list"), { kind: "list" });
    await f.get(s.url("/item"), { kind: "item" });
    await f.get(s.url("/gone"), { kind: "item" }).catch(() => undefined);

    expect(seen.map(({ url, kind, status, viaBrowser, error }) => ({ url, kind, status, viaBrowser, failed: !!error }))).toEqual([
      { url: s.url("/list"), kind: "list", status: 200, viaBrowser: false, failed: false },
      { url: s.url("/item"), kind: "item", status: 200, viaBrowser: false, failed: false },
      { url: s.url("/gone"), kind: "item", status: 404, viaBrowser: false, failed: true },
    ]);
    expect(seen[0]?.bytes).toBeGreaterThan(0);
    expect(seen.every((i) => i.ms >= 0)).toBe(true);
    expect(f.stats()).toEqual({
      requests: 5, // robots.txt, /list twice, /item, /gone
      bytes: expect.any(Number),
      byKind: { list: 1, item: 1, other: 0 },
      viaBrowser: 0,
      retries: 1,
      blocks: 0,
    });
  });

  it("refuses URLs it cannot fetch and use after close", async () => {
    const f = fetcher();
    await expect(f.get("ftp://example.org/x")).rejects.toBeInstanceOf(NonRetryableError);
    await expect(f.get("not a url")).rejects.toBeInstanceOf(NonRetryableError);
    await f.close();
    await expect(f.get("http://127.0.0.1:9/")).rejects.toThrow(/after close/);
  });
});
