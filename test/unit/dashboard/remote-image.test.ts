import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { fetchRemoteImage, ImageFetchError, isPrivateAddress } from "@/lib/queries/remote-image";

describe("isPrivateAddress", () => {
  test.each([
    ["127.0.0.1", true],
    ["10.1.2.3", true],
    ["172.16.0.1", true],
    ["172.32.0.1", false],
    ["192.168.1.1", true],
    ["169.254.169.254", true],
    ["100.64.0.1", true],
    ["0.0.0.0", true],
    ["224.0.0.1", true],
    ["8.8.8.8", false],
    ["202.112.0.1", false],
    ["::1", true],
    ["fd00::1", true],
    ["fe80::1", true],
    ["::ffff:127.0.0.1", true],
    ["2001:da8::1", false],
  ])("%s → %s", (ip, expected) => {
    expect(isPrivateAddress(ip)).toBe(expected);
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
