/**
 * The crawler's address policy (SSRF): URLs from crawled content never reach an internal
 * address unless its host was registered. Real servers on loopback; the "internal service" is a
 * scripted server on 127.0.0.1 that must receive no request. Host names are resolved by an
 * injected resolver (no real DNS in tests); a name that would resolve to a public address is never
 * connected to (the checks refuse first).
 */
import { describe, expect, it } from "vitest";
import { request } from "undici";
import { AddressRefusedError, createAddressPolicy, createGuardedAgent, parseTrustedEntry, type Resolver } from "../../../crawler/fetch";
import { NonRetryableError } from "../../../crawler/errors";
import { trustedHostsFromEnv } from "../../../lib/config";
import { htmlPage, redirect, startScriptedServer } from "../../support/scripted-server";
import { fetcher, server } from "./helpers";

/** Every spelling of an internal address a URL can carry, `PORT` replaced by the internal server's port. */
const INTERNAL_URLS: [string, RegExp][] = [
  ["http://127.0.0.1:PORT/x", /127\.0\.0\.1 is a loopback address/],
  ["http://2130706433:PORT/x", /127\.0\.0\.1 is a loopback address/], // decimal
  ["http://0177.0.0.1:PORT/x", /127\.0\.0\.1 is a loopback address/], // octal
  ["http://0x7f.1:PORT/x", /127\.0\.0\.1 is a loopback address/], // hex, short
  ["http://127.1:PORT/x", /127\.0\.0\.1 is a loopback address/], // short
  ["http://[::ffff:127.0.0.1]:PORT/x", /::ffff:7f00:1 is a loopback address/], // IPv4-mapped
  ["http://[::ffff:7f00:1]:PORT/x", /loopback/],
  ["http://[64:ff9b::7f00:1]:PORT/x", /a NAT64 address/],
  ["http://[2002:7f00:1::]:PORT/x", /a 6to4 address/],
  ["http://[::7f00:1]:PORT/x", /an IPv4-compatible IPv6 address/],
  ["http://[::1]:PORT/x", /::1 is a loopback address/],
  ["http://[::]:PORT/x", /an unspecified address/],
  ["http://0.0.0.0:PORT/x", /an unspecified address/],
  ["http://[fc00::1]:PORT/x", /a unique-local address/],
  ["http://[fd00::1]:PORT/x", /a unique-local address/],
  ["http://[fe80::1]:PORT/x", /a link-local address/],
  ["http://10.0.0.1:PORT/x", /a private address/],
  ["http://172.16.5.4:PORT/x", /a private address/],
  ["http://192.168.1.1:PORT/x", /a private address/],
  ["http://169.254.169.254/latest/meta-data/", /a link-local address/],
  ["http://100.64.0.1:PORT/x", /a carrier-grade NAT address/],
];

/** A resolver from a fixed table; a list of answers is handed out in turn (the last repeats). */
function resolverOf(table: Record<string, string[][]>): Resolver & { calls: Map<string, number> } {
  const calls = new Map<string, number>();
  const fn = async (host: string) => {
    const n = calls.get(host) ?? 0;
    calls.set(host, n + 1);
    const answers = table[host];
    if (!answers) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
    const answer = answers[Math.min(n, answers.length - 1)] ?? [];
    return answer.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
  return Object.assign(fn, { calls });
}

describe("address policy: refusals", () => {
  it.each(INTERNAL_URLS)("%s is refused for an untrusted host, and no request is sent", async (template, reason) => {
    const internal = await server();
    internal.route("/x", htmlPage("internal"));
    const url = template.replace("PORT", String(internal.port));
    const policy = createAddressPolicy({ trustedHosts: [] });
    await expect(policy.check(url)).rejects.toThrow(reason);

    const f = fetcher({ addressPolicy: policy });
    const err = await f.get(url).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AddressRefusedError);
    expect(err).toBeInstanceOf(NonRetryableError);
    expect((err as Error).message).toMatch(/^refused http:\/\/.+ \(not a registered host\)$/);
    expect((err as AddressRefusedError).url).toBe(new URL(url).href);
    expect(internal.requests).toEqual([]);
    expect(f.stats().retries).toBe(0);
  });

  it("names URL, address and reason in the message", async () => {
    const policy = createAddressPolicy({ trustedHosts: ["127.0.0.9:8080"] });
    await expect(policy.check("http://127.0.0.1:4567/x.png")).rejects.toThrow(
      "refused http://127.0.0.1:4567/x.png: 127.0.0.1 is a loopback address (not a registered host)",
    );
    const named = createAddressPolicy({ trustedHosts: [], resolve: resolverOf({ "intranet.example": [["10.1.2.3"]] }) });
    await expect(named.check("http://intranet.example/a")).rejects.toThrow(
      "refused http://intranet.example/a: intranet.example resolves to 10.1.2.3, a private address (not a registered host)",
    );
  });

  it("refuses a name when any of its addresses is internal, and allows one whose addresses are all public", async () => {
    const resolve = resolverOf({ "mixed.example": [["93.184.216.34", "127.0.0.1"]], "public.example": [["93.184.216.34", "2606:2800:220:1::1"]] });
    const policy = createAddressPolicy({ trustedHosts: [], resolve });
    await expect(policy.check("http://mixed.example/")).rejects.toThrow(/mixed\.example resolves to 127\.0\.0\.1/);
    await expect(policy.check("http://public.example/")).resolves.toHaveLength(2);
  });

  it("a name resolving to 127.0.0.1 is refused at connect time (the agent resolves and checks, no request)", async () => {
    const internal = await server();
    const policy = createAddressPolicy({ trustedHosts: [], resolve: resolverOf({ "internal.example": [["127.0.0.1"]] }) });
    const agent = createGuardedAgent(policy);
    try {
      const err = await request(`http://internal.example:${internal.port}/x`, { dispatcher: agent }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AddressRefusedError);
      expect((err as Error).message).toBe(
        `refused http://internal.example:${internal.port}/: internal.example resolves to 127.0.0.1, a loopback address (not a registered host)`,
      );
      // An IP literal does not go through DNS: the agent checks it before connecting.
      await expect(request(`http://[::ffff:127.0.0.1]:${internal.port}/x`, { dispatcher: agent })).rejects.toThrow(/is a loopback address/);
      expect(internal.requests).toEqual([]);
    } finally {
      await agent.close();
    }
  });

  it("DNS rebinding: an answer that turns internal after the check is refused when connecting", async () => {
    const internal = await server();
    // The first answer (the fetcher's check) is public; every later one (the connection's) internal.
    const resolve = resolverOf({ "rebind.example": [["93.184.216.34"], ["127.0.0.1"]] });
    const f = fetcher({ addressPolicy: createAddressPolicy({ trustedHosts: [], resolve }) });
    const err = await f.get(`http://rebind.example:${internal.port}/x`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AddressRefusedError);
    expect((err as Error).message).toBe(
      `refused http://rebind.example:${internal.port}/x: rebind.example resolves to 127.0.0.1, a loopback address (not a registered host)`,
    );
    expect(resolve.calls.get("rebind.example")).toBeGreaterThanOrEqual(2);
    expect(internal.requests).toEqual([]);
  });

  it("a redirect from a trusted host to an internal address is refused, naming both", async () => {
    const internal = await server();
    const blog = await startScriptedServer({ host: "127.0.0.9" });
    try {
      blog.route("/post", redirect(`http://127.0.0.1:${internal.port}/secret`));
      const f = fetcher({ addressPolicy: createAddressPolicy({ trustedHosts: [new URL(blog.origin).host] }) });
      const err = await f.get(blog.url("/post")).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AddressRefusedError);
      expect((err as Error).message).toBe(
        `refused http://127.0.0.1:${internal.port}/secret (redirect from ${blog.url("/post")}): 127.0.0.1 is a loopback address (not a registered host)`,
      );
      expect(blog.requestsTo("/post")).toHaveLength(1);
      expect(internal.requests).toEqual([]);
    } finally {
      await blog.close();
    }
  });
});

describe("address policy in the browser fetch mode", () => {
  it(
    "a fetcher in browser mode refuses a redirect to an internal address like the HTTP path does, and the internal server sees nothing",
    { timeout: 60_000 },
    async () => {
      const internal = await server();
      const blog = await startScriptedServer({ host: "127.0.0.9" });
      try {
        blog.route("/post", redirect(`http://127.0.0.1:${internal.port}/secret`));
        blog.route("/page", htmlPage("page", `<p>ok</p><img src="http://127.0.0.1:${internal.port}/pixel.png">`));
        const f = fetcher({ mode: "browser", addressPolicy: createAddressPolicy({ trustedHosts: [new URL(blog.origin).host] }) });
        // The page itself loads; its image on the internal address is never requested.
        const page = await f.get(blog.url("/page"));
        expect(page.body).toContain("<p>ok</p>");
        const err = await f.get(blog.url("/post")).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(AddressRefusedError);
        expect((err as Error).message).toMatch(new RegExp(`refused http://127\\.0\\.0\\.1:${internal.port}/secret.*127\\.0\\.0\\.1 is a loopback address`));
        expect(internal.requests).toEqual([]);
      } finally {
        await blog.close();
      }
    },
  );
});

describe("address policy: trusted hosts", () => {
  it("a registered host on loopback is crawled, robots.txt included; another port of the same address is not", async () => {
    const site = await server();
    const other = await server();
    site.route("/robots.txt", { body: "User-agent: *\nAllow: /" });
    site.route("/", htmlPage("home"));
    const f = fetcher({ addressPolicy: createAddressPolicy({ trustedHosts: [new URL(site.origin).host] }) });
    expect((await f.get(site.url("/"))).status).toBe(200);
    expect(site.requestsTo("/robots.txt")).toHaveLength(1);
    await expect(f.get(other.url("/"))).rejects.toThrow(`refused ${other.url("/")}: 127.0.0.1 is a loopback address`);
    expect(other.requests).toEqual([]);
  });

  it("a trusted name is resolved with the policy's resolver and connected to", async () => {
    const site = await server();
    site.route("/", htmlPage("intranet"));
    const resolve = resolverOf({ "bbs.intranet": [["127.0.0.1"]] });
    const f = fetcher({ respectRobots: false, addressPolicy: createAddressPolicy({ trustedHosts: [`bbs.intranet:${site.port}`], resolve }) });
    const res = await f.get(`http://bbs.intranet:${site.port}/`);
    expect(res.body).toContain("intranet");
    expect(site.requests[0]?.host).toBe(`bbs.intranet:${site.port}`);
  });

  it("a trusted CIDR range admits addresses and names inside it, on any port", async () => {
    const site = await server();
    site.route("/", htmlPage("ranged"));
    const resolve = resolverOf({ "in-range.example": [["127.0.0.1"]], "out.example": [["10.0.0.1"]] });
    const policy = createAddressPolicy({ trustedHosts: ["127.0.0.0/8"], resolve });
    expect(policy.isTrusted(site.url("/"))).toBe(true);
    expect(policy.isTrusted("http://in-range.example/")).toBe(false); // names are judged by their addresses
    const f = fetcher({ respectRobots: false, addressPolicy: policy });
    expect((await f.get(`http://in-range.example:${site.port}/`)).status).toBe(200);
    await expect(policy.check("http://out.example/")).rejects.toThrow(/10\.0\.0\.1, a private address/);
  });

  it.each([
    ["bbs.example.edu", { host: "bbs.example.edu" }],
    ["BBS.Example.edu:8080", { host: "bbs.example.edu:8080" }],
    ["http://127.0.0.1:3999/blog/", { host: "127.0.0.1:3999" }],
    ["https://bbs.example.edu:443/", { host: "bbs.example.edu" }],
    ["::1", { host: "[::1]" }],
    ["[::1]:8080", { host: "[::1]:8080" }],
    ["0x7f.1:80", { host: "127.0.0.1" }],
  ])("trusted entry %s", (entry, expected) => {
    expect(parseTrustedEntry(entry)).toEqual(expected);
  });

  it("parses CIDR entries and rejects nonsense with the entry named", () => {
    expect("range" in parseTrustedEntry("10.20.0.0/16")).toBe(true);
    expect("range" in parseTrustedEntry("fd00::/8")).toBe(true);
    expect(() => parseTrustedEntry("10.0.0.0/99")).toThrow(/"10\.0\.0\.0\/99" is not a valid CIDR range/);
    expect(() => parseTrustedEntry("http://")).toThrow(/"http:\/\/" is neither/);
  });

  it("CAMPUSWATCH_TRUSTED_HOSTS: comma-separated entries, a malformed one named in the error", () => {
    const saved = process.env.CAMPUSWATCH_TRUSTED_HOSTS;
    try {
      process.env.CAMPUSWATCH_TRUSTED_HOSTS = " bbs.intranet.edu , 10.1.2.3:8080,10.20.0.0/16,, fd00::/8 ";
      expect(trustedHostsFromEnv()).toEqual(["bbs.intranet.edu", "10.1.2.3:8080", "10.20.0.0/16", "fd00::/8"]);
      process.env.CAMPUSWATCH_TRUSTED_HOSTS = "bbs.intranet.edu,10.0.0.0/33";
      expect(() => trustedHostsFromEnv()).toThrow('CAMPUSWATCH_TRUSTED_HOSTS: trusted host "10.0.0.0/33" is not a valid CIDR range');
      delete process.env.CAMPUSWATCH_TRUSTED_HOSTS;
      expect(trustedHostsFromEnv()).toEqual([]);
    } finally {
      if (saved === undefined) delete process.env.CAMPUSWATCH_TRUSTED_HOSTS;
      else process.env.CAMPUSWATCH_TRUSTED_HOSTS = saved;
    }
  });
});
