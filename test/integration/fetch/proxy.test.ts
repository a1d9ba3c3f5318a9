/**
 * Plain HTTP through the operator's proxy: local HTTP and SOCKS5 proxies that count what passes
 * through them show that every request goes through the proxy, with its credentials; that a dead
 * proxy or refused credentials are ProxyErrors naming the proxy (password masked), not the site
 * failing; that targets are still checked by the address policy before anything is sent; and
 * that politeness stays keyed by the target host.
 */
import { afterEach, describe, expect, it } from "vitest";
import { AddressRefusedError, createAddressPolicy, HostScheduler, ProxyError, type Resolver } from "../../../crawler/fetch";
import type { HostGate } from "../../../crawler/fetch/politeness";
import { deadPort, startHttpProxy, startSocksProxy, type TestProxy } from "../../support/proxies";
import { htmlPage, redirect } from "../../support/scripted-server";
import { fetcher, server } from "./helpers";

const proxies: TestProxy[] = [];
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((p) => p.close()));
});
async function keep(p: Promise<TestProxy>): Promise<TestProxy> {
  const proxy = await p;
  proxies.push(proxy);
  return proxy;
}

/** A site with robots.txt and one page. */
async function site() {
  const s = await server();
  s.route("/robots.txt", { body: "User-agent: *\nDisallow: /private\n" });
  s.route("/news", htmlPage("校园新闻", "<p>食堂今日开放</p>"));
  return s;
}

describe("through an HTTP proxy", () => {
  it("sends every request, robots.txt included, through the proxy with its credentials", async () => {
    const s = await site();
    const proxy = await keep(startHttpProxy({ username: "ops", password: "p@ss word" }));
    const f = fetcher({ proxy: proxy.url() });

    const page = await f.get(s.url("/news"));

    expect(page.body).toContain("食堂今日开放");
    expect(s.requests.map((r) => r.path)).toEqual(["/robots.txt", "/news"]);
    // Tunnels (keep-alive may carry both requests in one), all to the target and all authorized.
    expect(proxy.attempts.length).toBeGreaterThanOrEqual(1);
    expect(proxy.attempts.every((a) => a.kind === "connect" && a.authorized && a.target === `127.0.0.1:${s.port}`)).toBe(true);
    expect(proxy.bytesRelayed()).toBeGreaterThan(page.bytes);
    // robots.txt was read through the proxy and is obeyed.
    await expect(f.get(s.url("/private/x"))).rejects.toThrow("disallowed by robots.txt");
  });

  it('a password with an empty user (http://:pw@host) is sent as Basic ":pw"', async () => {
    const s = await site();
    const proxy = await keep(startHttpProxy({ username: "", password: "only-a-password" }));
    const f = fetcher({ proxy: proxy.url() });

    expect((await f.get(s.url("/news"))).body).toContain("食堂今日开放");
    expect(proxy.attempts.length).toBeGreaterThanOrEqual(1);
    expect(proxy.attempts.every((a) => a.authorized)).toBe(true);
  });

  it("refused credentials are a ProxyError naming the proxy with its password masked, not retried", async () => {
    const s = await site();
    const proxy = await keep(startHttpProxy({ username: "ops", password: "right" }));
    const f = fetcher({ proxy: proxy.url({ username: "ops", password: "wrong-secret" }) });

    const err = await f.get(s.url("/news")).catch((e: unknown) => e);

    expect(err).toBeInstanceOf(ProxyError);
    expect(err).toMatchObject({ name: "ProxyError", failure: "auth", url: s.url("/news"), proxy: `http://ops:***@127.0.0.1:${proxy.port}` });
    expect((err as Error).message).toBe(`proxy http://ops:***@127.0.0.1:${proxy.port} refused the credentials: HTTP 407`);
    expect((err as Error).message).not.toContain("wrong-secret");
    expect(f.logs.join("\n")).not.toContain("wrong-secret");
    expect(s.requests).toHaveLength(0);
    // One attempt (robots.txt, which fails for the page too: a proxy failure is not the site's
    // answer, so no "allow all" is cached), no retries with the same bad credentials.
    expect(proxy.attempts).toHaveLength(1);
    // The rest of the crawl fails at once, without asking the proxy again.
    await expect(f.get(s.url("/news?page=2"))).rejects.toMatchObject({ name: "ProxyError", failure: "auth", url: s.url("/news?page=2") });
    expect(proxy.attempts).toHaveLength(1);
  });

  it("a proxy that needs credentials and got none says so", async () => {
    const s = await site();
    const proxy = await keep(startHttpProxy({ username: "ops", password: "right" }));
    const f = fetcher({ proxy: proxy.url(null), respectRobots: false });
    await expect(f.get(s.url("/news"))).rejects.toThrow(
      `proxy http://127.0.0.1:${proxy.port} refused the credentials: HTTP 407: the proxy requires a username and password`,
    );
  });

  it("a proxy that cannot reach the target is a ProxyError, not the site being down", async () => {
    const port = await deadPort();
    const proxy = await keep(startHttpProxy());
    const f = fetcher({ proxy: proxy.url(), respectRobots: false, retries: 1 });
    const err = await f.get(`http://127.0.0.1:${port}/news`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProxyError);
    expect((err as Error).message).toBe(`proxy http://127.0.0.1:${proxy.port} refused the connection: cannot reach 127.0.0.1:${port} (HTTP 502)`);
    // Transient at the proxy: retried once, like a network error.
    expect(proxy.attempts).toHaveLength(2);
  });
});

describe("through a SOCKS5 proxy", () => {
  /** A name only our resolver (and the proxy) knows, pointing at the test server. */
  const resolverFor =
    (name: string): Resolver =>
    async (host) =>
      host === name ? [{ address: "127.0.0.1", family: 4 }] : [];

  it("socks5:// hands the proxy the address checked here; socks5h:// hands it the name", async () => {
    const s = await site();
    const name = "bbs.campus.test";
    const proxy = await keep(startSocksProxy({ username: "ops", password: "pw", hosts: { [name]: "127.0.0.1" } }));
    const policy = () => createAddressPolicy({ trustedHosts: [`${name}:${s.port}`], resolve: resolverFor(name) });
    const url = `http://${name}:${s.port}/news`;

    const local = fetcher({ proxy: proxy.url(), addressPolicy: policy() });
    expect((await local.get(url)).body).toContain("食堂今日开放");
    expect(proxy.passed().length).toBeGreaterThanOrEqual(1);
    expect(proxy.passed().every((a) => a.target === `127.0.0.1:${s.port}` && a.byName === false)).toBe(true);

    const before = proxy.attempts.length;
    const remote = fetcher({ proxy: proxy.url().replace("socks5://", "socks5h://"), addressPolicy: policy() });
    expect((await remote.get(url)).body).toContain("食堂今日开放");
    const later = proxy.attempts.slice(before);
    expect(later.length).toBeGreaterThanOrEqual(1);
    expect(later.every((a) => a.target === `${name}:${s.port}` && a.byName === true && a.authorized)).toBe(true);
    expect(s.requestsTo("/news")).toHaveLength(2);
  });

  it("refused SOCKS credentials and a missing username are ProxyErrors", async () => {
    const s = await site();
    const proxy = await keep(startSocksProxy({ username: "ops", password: "pw" }));
    const wrong = fetcher({ proxy: proxy.url({ username: "ops", password: "nope" }), respectRobots: false });
    await expect(wrong.get(s.url("/news"))).rejects.toThrow(
      `proxy socks5://ops:***@127.0.0.1:${proxy.port} refused the credentials: SOCKS5 username/password rejected`,
    );
    const none = fetcher({ proxy: proxy.url(null), respectRobots: false });
    await expect(none.get(s.url("/news"))).rejects.toThrow(
      `proxy socks5://127.0.0.1:${proxy.port} refused the credentials: SOCKS5 proxy requires a username and password`,
    );
    expect(s.requests).toHaveLength(0);
  });

  it("a dead proxy is a ProxyError after the usual retries, and the rest of the crawl fails fast", async () => {
    const s = await site();
    const port = await deadPort();
    const f = fetcher({ proxy: `socks5://ops:secret@127.0.0.1:${port}`, respectRobots: false, retries: 2 });
    const err = await f.get(s.url("/news")).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProxyError);
    expect((err as Error).message).toBe(`proxy socks5://ops:***@127.0.0.1:${port} could not be reached: connection refused (ECONNREFUSED)`);
    expect(f.logs.filter((l) => l.includes("retrying"))).toHaveLength(2);
    await expect(f.get(s.url("/news?page=2"))).rejects.toBeInstanceOf(ProxyError);
    expect(f.logs.filter((l) => l.includes("retrying"))).toHaveLength(2);
    expect(f.logs.join("\n")).not.toContain("secret");
  });
});

describe("address policy and politeness through a proxy", () => {
  it("checks a target before sending it to the proxy: an internal address that is not registered never reaches the proxy", async () => {
    const s = await site();
    s.route("/go", redirect("http://intranet.campus.test/admin"));
    const proxy = await keep(startHttpProxy());
    const resolve: Resolver = async (host) => (host === "intranet.campus.test" ? [{ address: "10.0.0.8", family: 4 }] : [{ address: "127.0.0.1", family: 4 }]);
    const f = fetcher({ proxy: proxy.url(), respectRobots: false, addressPolicy: createAddressPolicy({ trustedHosts: [s.origin], resolve }) });

    const err = await f.get(s.url("/go")).catch((e: unknown) => e);

    expect(err).toBeInstanceOf(AddressRefusedError);
    expect((err as Error).message).toBe(
      `refused http://intranet.campus.test/admin (redirect from ${s.url("/go")}): intranet.campus.test resolves to 10.0.0.8, a private address (not a registered host)`,
    );
    expect(proxy.attempts.map((a) => a.target)).toEqual([`127.0.0.1:${s.port}`]);
  });

  it("queues requests by the target host, not the proxy, across fetchers using different proxies", async () => {
    const s = await site();
    for (let i = 0; i < 3; i++) s.route(`/p${i}`, htmlPage(`page ${i}`));
    const [httpProxy, socksProxy] = [await keep(startHttpProxy()), await keep(startSocksProxy())];
    const keys: string[] = [];
    const inner = new HostScheduler();
    const scheduler: HostGate = {
      run: (host, delayMs, task) => {
        keys.push(host);
        return inner.run(host, delayMs, task);
      },
      holdOff: (host, ms) => inner.holdOff(host, ms),
      holdOffRemaining: (host) => inner.holdOffRemaining(host),
    };
    const DELAY = 60;
    const a = fetcher({ proxy: httpProxy.url(), scheduler, hostDelayMs: DELAY });
    const b = fetcher({ proxy: socksProxy.url(), scheduler, hostDelayMs: DELAY });

    await Promise.all([0, 1, 2].flatMap((i) => [a.get(s.url(`/p${i}`)), b.get(s.url(`/p${i}`))]));

    expect(new Set(keys)).toEqual(new Set([`127.0.0.1:${s.port}`]));
    expect(httpProxy.passed().length).toBeGreaterThanOrEqual(1);
    expect(socksProxy.passed().length).toBeGreaterThanOrEqual(1);
    // One request at a time at the site, each at least the delay after the previous one ended
    // (measured at the server, which sees gaps later, never earlier; 2 ms timer slack).
    expect(s.maxInFlight()).toBe(1);
    expect(Math.min(...s.gaps())).toBeGreaterThanOrEqual(DELAY - 2);
  });
});
