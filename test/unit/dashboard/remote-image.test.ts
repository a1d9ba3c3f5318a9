import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { fetchRemoteImage, ImageFetchError } from "@/server/remote-image";
import { addressRange, isPublicAddress } from "@/lib/net/address";

describe("isPublicAddress (lib/net/address.ts, ipaddr.js ranges)", () => {
  test.each([
    ["127.0.0.1", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "linkLocal"],
    ["100.64.0.1", "carrierGradeNat"],
    ["0.0.0.0", "unspecified"],
    ["224.0.0.1", "multicast"],
    ["255.255.255.255", "broadcast"],
    ["::1", "loopback"],
    ["::", "unspecified"],
    ["fc00::1", "uniqueLocal"],
    ["fd00::1", "uniqueLocal"],
    ["fe80::1", "linkLocal"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:10.0.0.1", "private"],
    ["64:ff9b::7f00:1", "rfc6052"],
    ["2002:7f00:1::", "6to4"],
    ["2001::1", "teredo"],
    ["::7f00:1", "ipv4Compatible"],
    ["[::1]", "loopback"],
    ["localhost", "invalid"],
  ])("%s is %s, not public", (ip, range) => {
    expect(addressRange(ip)).toBe(range);
    expect(isPublicAddress(ip)).toBe(false);
  });
  test.each([["8.8.8.8"], ["172.32.0.1"], ["202.112.0.1"], ["2001:da8::1"], ["::ffff:8.8.8.8"]])("%s is public", (ip) => {
    expect(isPublicAddress(ip)).toBe(true);
  });
});

describe("fetchRemoteImage", () => {
  test.each([["http://127.0.0.1:9/x.png"], ["http://[::1]/x.png"], ["http://localhost/x.png"]])("refuses %s before any request", async (url) => {
    await expect(fetchRemoteImage(url)).rejects.toBeInstanceOf(ImageFetchError);
  });
  test("refuses non-http schemes", async () => {
    await expect(fetchRemoteImage("file:///etc/passwd")).rejects.toBeInstanceOf(ImageFetchError);
  });
});

/**
 * Against real local servers. 127.0.0.2 stands for a public image host (the only address the
 * injected policy allows) and 127.0.0.1 for an internal service that must never be reached.
 */
describe("fetchRemoteImage against local hosts", () => {
  const PNG = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex");
  let publicHost: http.Server;
  let internal: http.Server;
  let port = 0;
  const internalHits: string[] = [];
  const allowAddress = (ip: string) => ip === "127.0.0.2";
  const resolveTo = (...answers: string[][]) => {
    let calls = 0;
    const resolve = async () => (answers[Math.min(calls++, answers.length - 1)] ?? []).map((address) => ({ address, family: 4 }));
    return { resolve, calls: () => calls };
  };

  beforeAll(async () => {
    // The internal service first, on an ephemeral port; the public stand-in on the same port of 127.0.0.2.
    internal = http.createServer((req, res) => {
      internalHits.push(req.url!);
      res.writeHead(200, { "content-type": "image/png" }).end(PNG);
    });
    await new Promise<void>((r) => internal.listen(0, "127.0.0.1", r));
    port = (internal.address() as AddressInfo).port;
    publicHost = http.createServer((req, res) => {
      const u = new URL(req.url!, "http://x");
      if (u.pathname === "/a.png") res.writeHead(200, { "content-type": "image/png" }).end(PNG);
      else if (u.pathname === "/to-internal") res.writeHead(302, { location: `http://127.0.0.1:${port}/secret.png` }).end();
      else if (u.pathname === "/to-named") res.writeHead(301, { location: `/a.png` }).end();
      else if (u.pathname === "/x.svg") res.writeHead(200, { "content-type": "image/svg+xml" }).end("<svg onload=alert(1)/>");
      else if (u.pathname === "/page") res.writeHead(200, { "content-type": "text/html" }).end("<p>hi</p>");
      else if (u.pathname === "/big-declared") res.writeHead(200, { "content-type": "image/png", "content-length": "4096" }).end(Buffer.alloc(4096));
      else if (u.pathname === "/big-chunked") {
        res.writeHead(200, { "content-type": "image/jpeg" });
        for (let i = 0; i < 8; i++) res.write(Buffer.alloc(1024));
        res.end();
      } else res.writeHead(404).end();
    });
    await new Promise<void>((r) => publicHost.listen(port, "127.0.0.2", r));
  });
  afterAll(async () => {
    await new Promise((r) => publicHost?.close(r));
    await new Promise((r) => internal?.close(r));
  });
  beforeEach(() => {
    internalHits.length = 0;
  });

  test("an image on an allowed host is returned with its type", async () => {
    const { resolve } = resolveTo(["127.0.0.2"]);
    const img = await fetchRemoteImage(`http://img.example:${port}/a.png`, { resolve, allowAddress });
    expect(img.contentType).toBe("image/png");
    expect(Buffer.from(img.body)).toEqual(PNG);
  });

  test("a DNS answer that changes after the check does not reach the private address (rebinding)", async () => {
    // First answer allowed, every later one internal: the connection must use the checked answer.
    const dnsAnswers = resolveTo(["127.0.0.2"], ["127.0.0.1"]);
    const img = await fetchRemoteImage(`http://rebind.example:${port}/a.png`, { resolve: dnsAnswers.resolve, allowAddress });
    expect(Buffer.from(img.body)).toEqual(PNG);
    expect(dnsAnswers.calls()).toBe(1);
    expect(internalHits).toEqual([]);
  });

  test("a host with any private address is refused", async () => {
    const { resolve } = resolveTo(["127.0.0.2", "127.0.0.1"]);
    await expect(fetchRemoteImage(`http://mixed.example:${port}/a.png`, { resolve, allowAddress })).rejects.toThrow(/private or local/);
    expect(internalHits).toEqual([]);
  });

  test("a redirect is checked again: to a private address refused, to an allowed one followed", async () => {
    const { resolve } = resolveTo(["127.0.0.2"]);
    await expect(fetchRemoteImage(`http://img.example:${port}/to-internal`, { resolve, allowAddress })).rejects.toThrow(/private or local/);
    expect(internalHits).toEqual([]);
    expect((await fetchRemoteImage(`http://img.example:${port}/to-named`, { resolve, allowAddress })).contentType).toBe("image/png");
  });

  /**
   * The production policy (no allowAddress override) against every spelling of an internal
   * address the URL parser accepts; the internal server on 127.0.0.1:port must see none of them.
   */
  test.each([
    ["decimal", "http://2130706433:PORT/a.png"],
    ["octal", "http://0177.0.0.1:PORT/a.png"],
    ["hex", "http://0x7f.1:PORT/a.png"],
    ["hex, dotted", "http://0x7f.0x0.0x0.0x1:PORT/a.png"],
    ["short", "http://127.1:PORT/a.png"],
    ["plain loopback", "http://127.0.0.1:PORT/a.png"],
    ["IPv4-mapped, dotted", "http://[::ffff:127.0.0.1]:PORT/a.png"],
    ["IPv4-mapped, hex", "http://[::ffff:7f00:1]:PORT/a.png"],
    ["NAT64", "http://[64:ff9b::7f00:1]:PORT/a.png"],
    ["6to4", "http://[2002:7f00:1::]:PORT/a.png"],
    ["IPv4-compatible ::/96", "http://[::7f00:1]:PORT/a.png"],
    ["IPv6 loopback", "http://[::1]:PORT/a.png"],
    ["IPv6 unspecified", "http://[::]:PORT/a.png"],
    ["IPv4 unspecified", "http://0.0.0.0:PORT/a.png"],
    ["unique-local fc00::/8", "http://[fc00::1]:PORT/a.png"],
    ["unique-local fd00::/8", "http://[fd00::1]:PORT/a.png"],
    ["link-local fe80::/10", "http://[fe80::1]:PORT/a.png"],
    ["10/8", "http://10.0.0.1:PORT/a.png"],
    ["172.16/12", "http://172.16.0.1:PORT/a.png"],
    ["172.16/12, top", "http://172.31.255.255:PORT/a.png"],
    ["192.168/16", "http://192.168.0.1:PORT/a.png"],
    ["cloud metadata", "http://169.254.169.254/latest/meta-data/"],
    ["100.64/10", "http://100.64.0.1:PORT/a.png"],
  ])("%s (%s) is refused and never requested", async (_form, template) => {
    const url = template.replace("PORT", String(port));
    await expect(fetchRemoteImage(url)).rejects.toThrow(/^the image host is a private or local address \(.+: (?!unicast).+\)$/);
    expect(internalHits).toEqual([]);
  });

  test("a host name resolving to 127.0.0.1 is refused by the production policy", async () => {
    const { resolve } = resolveTo(["127.0.0.1"]);
    await expect(fetchRemoteImage(`http://images.example:${port}/a.png`, { resolve })).rejects.toThrow("(127.0.0.1: loopback)");
    expect(internalHits).toEqual([]);
  });

  test("a redirect from an allowed host to 127.0.0.1 is refused by the production policy", async () => {
    const { resolve } = resolveTo(["127.0.0.2"]);
    // Only the stand-in public host is added to the real classification.
    const productionPlus = (ip: string) => ip === "127.0.0.2" || isPublicAddress(ip);
    await expect(fetchRemoteImage(`http://img.example:${port}/to-internal`, { resolve, allowAddress: productionPlus })).rejects.toThrow(
      "(127.0.0.1: loopback)",
    );
    expect(internalHits).toEqual([]);
  });

  test.each([
    ["/x.svg", /not a raster image \(image\/svg\+xml\)/],
    ["/page", /not a raster image \(text\/html\)/],
    ["/missing.png", /answered 404/],
    ["/big-declared", /too large/],
    ["/big-chunked", /too large/],
  ])("%s is refused: %s", async (path, message) => {
    const { resolve } = resolveTo(["127.0.0.2"]);
    await expect(fetchRemoteImage(`http://img.example:${port}${path}`, { resolve, allowAddress, maxBytes: 2048 })).rejects.toThrow(message);
  });
});
