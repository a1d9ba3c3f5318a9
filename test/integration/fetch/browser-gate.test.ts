/**
 * The browser gate (crawler/fetch/browser-gate.ts) is an HTTP proxy on loopback that only the
 * browser it was started for can use: without its random credentials nothing passes — not a
 * CONNECT, not a plain request, not a SOCKS5 greeting — and with them, every request is checked
 * on its own, also when several share one connection. Real sockets on 127.0.0.1 throughout.
 */
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { BrowserGate } from "../../../crawler/fetch/browser-gate";
import { AddressRefusedError, createAddressPolicy, parseProxyUrl } from "../../../crawler/fetch";
import { startHttpProxy, type TestProxy } from "../../support/proxies";
import { server } from "./helpers";

const gates: BrowserGate[] = [];
const proxies: TestProxy[] = [];
afterEach(async () => {
  await Promise.all([...gates.splice(0).map((g) => g.close()), ...proxies.splice(0).map((p) => p.close())]);
});

async function startGate(options: Parameters<typeof BrowserGate.start>[0] = {}) {
  const gate = await BrowserGate.start(options);
  gates.push(gate);
  return gate;
}

/** Send `request` bytes to the gate and collect what comes back until it closes or `until` matches. */
async function exchange(port: number, request: string | Buffer, until?: RegExp): Promise<string> {
  const socket = net.connect({ host: "127.0.0.1", port });
  let received = "";
  return await new Promise<string>((resolve, reject) => {
    socket.on("data", (chunk: Buffer) => {
      received += chunk.toString("latin1");
      if (until?.test(received)) {
        socket.destroy();
        resolve(received);
      }
    });
    socket.on("close", () => resolve(received));
    socket.on("error", reject);
    socket.write(request);
  });
}

function basic(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`;
}

describe("browser gate credentials", () => {
  it("each gate has its own random credentials, and an http:// address for Playwright", async () => {
    const [a, b] = await Promise.all([startGate(), startGate()]);
    expect(a.proxySettings.server).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(a.proxySettings.password.length).toBeGreaterThanOrEqual(32);
    expect(a.proxySettings.username).not.toBe(b.proxySettings.username);
    expect(a.proxySettings.password).not.toBe(b.proxySettings.password);
  });

  it("refuses a CONNECT, a plain request and a SOCKS5 greeting without the credentials, or with another gate's", async (ctx) => {
    const s = await server(ctx);
    s.route("/secret", { body: "intranet page" });
    const gate = await startGate();
    const other = await startGate();
    const port = Number(new URL(gate.proxySettings.server).port);
    const target = `127.0.0.1:${s.port}`;

    const connect = await exchange(port, `CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`);
    expect(connect).toMatch(/^HTTP\/1\.1 407 /);
    expect(connect).toContain('Proxy-Authenticate: Basic realm="CampusWatch browser gate"');

    const wrong = basic(other.proxySettings.username, other.proxySettings.password);
    expect(await exchange(port, `CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\nProxy-Authorization: ${wrong}\r\n\r\n`)).toMatch(/^HTTP\/1\.1 407 /);
    const halfRight = basic(gate.proxySettings.username, `${gate.proxySettings.password}x`);
    expect(await exchange(port, `CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\nProxy-Authorization: ${halfRight}\r\n\r\n`)).toMatch(/^HTTP\/1\.1 407 /);

    const plain = await exchange(port, `GET http://${target}/secret HTTP/1.1\r\nHost: ${target}\r\nConnection: close\r\n\r\n`);
    expect(plain).toMatch(/^HTTP\/1\.1 407 /);
    expect(plain).not.toContain("intranet page");

    // SOCKS5 "no authentication" greeting, then a CONNECT to the target: not a protocol the gate speaks.
    const port16 = Buffer.alloc(2);
    port16.writeUInt16BE(s.port);
    const socks = await exchange(port, Buffer.concat([Buffer.from([5, 1, 0]), Buffer.from([5, 1, 0, 1, 127, 0, 0, 1]), port16]));
    expect(socks.startsWith("\x05\x00"), "a SOCKS5 method choice").toBe(false);
    expect(socks).not.toContain("intranet page");
    expect(s.requests).toEqual([]);
  });

  it("with the credentials, a CONNECT tunnel and plain requests pass; each plain request on one connection is checked on its own", async (ctx) => {
    const allowed = await server(ctx);
    allowed.route("/a", { body: "page a" });
    const internal = await server(ctx);
    internal.route("/b", { body: "internal b" });
    const refused: string[] = [];
    // Loopback is internal: only the account's own host is trusted.
    const gate = await startGate({ policy: createAddressPolicy({ trustedHosts: [allowed.origin] }), onRefused: (e) => refused.push(e.message) });
    const { server: proxyServer, username, password } = gate.proxySettings;
    const port = Number(new URL(proxyServer).port);
    const auth = `Proxy-Authorization: ${basic(username, password)}\r\n`;

    const tunnel = await exchange(
      port,
      `CONNECT 127.0.0.1:${allowed.port} HTTP/1.1\r\nHost: 127.0.0.1:${allowed.port}\r\n${auth}\r\nGET /a HTTP/1.1\r\nHost: 127.0.0.1:${allowed.port}\r\nConnection: close\r\n\r\n`,
    );
    expect(tunnel).toMatch(/^HTTP\/1\.1 200 Connection Established\r\n\r\nHTTP\/1\.1 200 /);
    expect(tunnel).toContain("page a");

    const deniedTunnel = await exchange(port, `CONNECT 127.0.0.1:${internal.port} HTTP/1.1\r\nHost: 127.0.0.1:${internal.port}\r\n${auth}\r\n`);
    expect(deniedTunnel).toMatch(/^HTTP\/1\.1 403 /);

    // Two requests on one kept-alive connection, the second sent once the first is answered (as
    // Chromium does): the first to the trusted host, the second elsewhere.
    const socket = net.connect({ host: "127.0.0.1", port });
    let both = "";
    const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
    await new Promise<void>((resolve) => {
      socket.on("data", (chunk: Buffer) => {
        both += chunk.toString("latin1");
        if (both.includes("page a")) resolve();
      });
      socket.write(`GET http://127.0.0.1:${allowed.port}/a HTTP/1.1\r\nHost: 127.0.0.1:${allowed.port}\r\n${auth}\r\n`);
    });
    socket.write(`GET http://127.0.0.1:${internal.port}/b HTTP/1.1\r\nHost: 127.0.0.1:${internal.port}\r\n${auth}\r\n`);
    // Refused: the connection is cut without an answer (an answer would pass for the site's page).
    await closed;
    expect(both).toMatch(/^HTTP\/1\.1 200 /);
    expect(both).toContain("page a");
    expect(both).not.toContain("internal b");
    expect(internal.requests).toEqual([]);
    expect(allowed.requests.map((r) => r.path)).toEqual(["/a", "/a"]);
    // The proxy's own header never reaches the site.
    expect(allowed.requests.every((r) => r.headers["proxy-authorization"] === undefined)).toBe(true);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    expect(gate.failureFor(`http://127.0.0.1:${internal.port}/b`)).toBeInstanceOf(AddressRefusedError);
  });

  it("through an upstream proxy, only requests with the gate's credentials reach it", async (ctx) => {
    const s = await server(ctx);
    s.route("/a", { body: "page a" });
    const upstream = await startHttpProxy({ username: "ops", password: "pw" });
    proxies.push(upstream);
    const gate = await startGate({ upstream: parseProxyUrl(upstream.url()) });
    const port = Number(new URL(gate.proxySettings.server).port);
    const target = `127.0.0.1:${s.port}`;

    // Another local process that found the port: the operator's proxy never sees it.
    expect(await exchange(port, `CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`)).toMatch(/^HTTP\/1\.1 407 /);
    expect(upstream.attempts).toEqual([]);

    const auth = basic(gate.proxySettings.username, gate.proxySettings.password);
    const ok = await exchange(port, `GET http://${target}/a HTTP/1.1\r\nHost: ${target}\r\nProxy-Authorization: ${auth}\r\nConnection: close\r\n\r\n`);
    expect(ok).toContain("page a");
    expect(upstream.passed().map((a) => a.target)).toEqual([target]);
  });
});
