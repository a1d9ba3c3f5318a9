/**
 * The gate all network traffic of one crawler browser context goes through: a SOCKS5 proxy on
 * loopback, set as that context's proxy (Playwright makes Chromium send loopback through it
 * too). Chromium hands it host names, not addresses (SOCKS5 resolves on the proxy side), so:
 *
 * - every connection — the page, its sub-resources, *every redirect hop*, iframes, workers,
 *   WebSockets, beacons — is checked against the address policy before it is opened. A
 *   Playwright `route` handler alone would miss redirect hops (Playwright continues them
 *   unrouted), and a page's workers and out-of-process iframes are other targets;
 * - the socket connects to the addresses the policy checked, so a DNS answer that changes
 *   between check and connection (DNS rebinding) cannot reach an internal address;
 * - bytes received are counted, whoever asked for them, for the page size cap (browser.ts).
 *
 * QUIC is off and WebRTC may only use proxied connections (CHROMIUM_ARGS), so no UDP leaves
 * around the gate.
 *
 * With an operator's proxy (`upstream`), the gate checks each connection exactly as without one,
 * then opens it through the proxy (./proxy-tunnel.ts) instead of directly: `socks5://` is handed
 * the checked addresses, `http(s)://` and `socks5h://` the name (the residual DNS-rebinding gap
 * described in ./proxy.ts). A proxy failure is remembered as a ProxyError for browser.ts to name.
 */
import net from "node:net";
import { AddressRefusedError, systemResolver, type AddressPolicy, type ResolvedAddress } from "./address-policy";
import { isIpLiteral, stripBrackets } from "../../lib/net/address";
import { openTunnel, ProxyError } from "./proxy-tunnel";
import type { ProxyConfig } from "./proxy-url";

/** Options of {@link BrowserGate.start}. */
export interface BrowserGateOptions {
  /** What may be contacted; without one, every address may (the gate still counts bytes). */
  policy?: AddressPolicy;
  /** The operator's proxy: every connection is opened through it once checked. @default none (direct) */
  upstream?: ProxyConfig;
  /** Time allowed for one TCP connection. @default 10000 */
  connectTimeoutMs?: number;
  /** Told of every refused connection (once per host:port and gate). */
  onRefused?: (err: AddressRefusedError) => void;
}

/** SOCKS5 reply codes (RFC 1928 §6). */
const REPLY = { ok: 0x00, failure: 0x01, notAllowed: 0x02, hostUnreachable: 0x04, refused: 0x05, badCommand: 0x07, badAddressType: 0x08 } as const;

/** Remembered connection failures per gate; a long-lived context must not grow without bound. */
const MAX_REMEMBERED = 200;

/** A SOCKS5 gate for one browser context; start with {@link BrowserGate.start}, close with {@link close}. */
export class BrowserGate {
  private readonly sockets = new Set<net.Socket>();
  private readonly failures = new Map<string, Error>();
  private readonly byteListeners = new Set<(bytes: number) => void>();
  /** While above zero, every connection is cut and none is opened (a page went over its byte budget). */
  private blocked = 0;

  private constructor(
    private readonly server: net.Server,
    private readonly options: BrowserGateOptions,
  ) {}

  /** Listen on a free loopback port. The server never holds the process open. */
  static async start(options: BrowserGateOptions = {}): Promise<BrowserGate> {
    const server = net.createServer();
    const gate = new BrowserGate(server, options);
    server.on("connection", (socket) => gate.accept(socket));
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve());
    });
    server.unref();
    return gate;
  }

  /** The proxy address for Playwright's `proxy.server`. */
  get proxyServer(): string {
    const address = this.server.address() as net.AddressInfo;
    return `socks5://127.0.0.1:${address.port}`;
  }

  /** Call `listener` with the size of every chunk received from the network until the returned function is called. */
  onBytes(listener: (bytes: number) => void): () => void {
    this.byteListeners.add(listener);
    return () => this.byteListeners.delete(listener);
  }

  /**
   * Cut every open connection now and refuse new ones until the returned function is called:
   * the way to stop a page's bytes at the source (closing the page is not immediate).
   */
  block(): () => void {
    this.blocked++;
    for (const socket of this.sockets) socket.destroy();
    let done = false;
    return () => {
      if (!done) this.blocked--;
      done = true;
    };
  }

  /** Why the last connection to `url`'s host and port failed here (an AddressRefusedError when refused), if it did. */
  failureFor(url: string): Error | undefined {
    try {
      const u = new URL(url);
      const port = u.port || (u.protocol === "https:" || u.protocol === "wss:" ? "443" : "80");
      return this.failures.get(`${stripBrackets(u.hostname).toLowerCase()}:${port}`);
    } catch {
      return undefined;
    }
  }

  /** Stop listening and cut every open connection. */
  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private track(socket: net.Socket): void {
    socket.unref();
    this.sockets.add(socket);
    socket.once("close", () => this.sockets.delete(socket));
    // A reset from either side just ends the tunnel; it must never become an uncaught error.
    socket.on("error", () => socket.destroy());
  }

  private accept(client: net.Socket): void {
    this.track(client);
    let buffer = Buffer.alloc(0);
    let stage: "greeting" | "request" = "greeting";
    const onData = (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (stage === "greeting") {
        if (buffer.length < 2) return;
        const methods = buffer[1]!;
        if (buffer.length < 2 + methods) return;
        if (buffer[0] !== 5 || !buffer.subarray(2, 2 + methods).includes(0)) {
          // Not SOCKS5, or no "no authentication" method: nothing we can speak.
          client.end(Buffer.from([5, 0xff]));
          return;
        }
        client.write(Buffer.from([5, 0]));
        buffer = buffer.subarray(2 + methods);
        stage = "request";
      }
      const request = parseRequest(buffer);
      if (request === "incomplete") return;
      client.off("data", onData);
      client.pause();
      if (typeof request === "number") {
        reply(client, request, true);
        return;
      }
      void this.connect(client, request.host, request.port, buffer.subarray(request.length));
    };
    client.on("data", onData);
  }

  /** Check, resolve and connect; then splice the two sockets together. */
  private async connect(client: net.Socket, host: string, port: number, early: Buffer): Promise<void> {
    const key = `${host}:${port}`;
    const { policy, upstream: proxy } = this.options;
    // Only a direct connection or socks5:// (given addresses) needs the target resolved here;
    // through other proxies a trusted host is the proxy's to resolve (it may know names we do not).
    const needAddresses = !proxy || proxy.scheme === "socks5";
    if (this.blocked > 0) {
      reply(client, REPLY.notAllowed, true);
      return;
    }
    let upstream: net.Socket;
    try {
      let addresses: ResolvedAddress[] | undefined;
      if (policy) {
        const named = isIpLiteral(host) && host.includes(":") ? `[${host}]` : host;
        // Trust is keyed by URL.host, where a default port is left out; SOCKS does not say which
        // scheme the port belongs to, so 80 and 443 both count as default.
        const trusted = policy.isTrusted(`http://${named}:${port}/`) || policy.isTrusted(`https://${named}:${port}/`);
        const url = `${port === 443 ? "https" : "http"}://${named}:${port}/`;
        if (!trusted || needAddresses) addresses = await policy.resolveHost(host, { checked: !trusted, url: new URL(url).href });
      } else if (needAddresses) {
        addresses = await systemResolver(host);
      }
      const timeoutMs = this.options.connectTimeoutMs ?? 10_000;
      const checked = addresses;
      upstream = proxy
        ? await openTunnel(proxy, host, port, { timeoutMs, ...(checked ? { resolveTarget: () => Promise.resolve(checked) } : {}) })
        : await connectAny(checked ?? [], port, timeoutMs);
    } catch (err) {
      const error = err instanceof Error ? err : new Error(String(err));
      const known = this.failures.has(key);
      this.remember(key, error);
      if (error instanceof AddressRefusedError) {
        if (!known) this.options.onRefused?.(error);
        reply(client, REPLY.notAllowed, true);
      } else if (error instanceof ProxyError) {
        reply(client, REPLY.failure, true);
      } else {
        reply(client, /ECONNREFUSED/.test(error.message) ? REPLY.refused : REPLY.hostUnreachable, true);
      }
      return;
    }
    if (client.destroyed || this.blocked > 0) {
      upstream.destroy();
      client.destroy();
      return;
    }
    this.failures.delete(key);
    this.track(upstream);
    upstream.on("data", (chunk: Buffer) => {
      for (const listener of this.byteListeners) listener(chunk.length);
    });
    client.once("close", () => upstream.destroy());
    upstream.once("close", () => client.destroy());
    reply(client, REPLY.ok, false);
    if (early.length > 0) upstream.write(early);
    client.pipe(upstream);
    upstream.pipe(client);
    client.resume();
  }

  private remember(key: string, error: Error): void {
    this.failures.delete(key);
    this.failures.set(key, error);
    if (this.failures.size > MAX_REMEMBERED) this.failures.delete(this.failures.keys().next().value as string);
  }
}

/** A CONNECT request's target, a SOCKS reply code to refuse it with, or "incomplete" (wait for more bytes). */
function parseRequest(buffer: Buffer): { host: string; port: number; length: number } | number | "incomplete" {
  if (buffer.length < 5) return "incomplete";
  if (buffer[0] !== 5) return REPLY.failure;
  // Only CONNECT: Chromium never asks for BIND or UDP ASSOCIATE, and nothing else may.
  if (buffer[1] !== 1) return REPLY.badCommand;
  const type = buffer[3];
  let host: string;
  let offset: number;
  if (type === 1) {
    if (buffer.length < 10) return "incomplete";
    host = [...buffer.subarray(4, 8)].join(".");
    offset = 8;
  } else if (type === 3) {
    const length = buffer[4]!;
    if (buffer.length < 5 + length + 2) return "incomplete";
    host = stripBrackets(buffer.subarray(5, 5 + length).toString("latin1")).toLowerCase();
    offset = 5 + length;
  } else if (type === 4) {
    if (buffer.length < 22) return "incomplete";
    const groups: string[] = [];
    for (let i = 0; i < 16; i += 2) groups.push(buffer.readUInt16BE(4 + i).toString(16));
    host = groups.join(":");
    offset = 20;
  } else {
    return REPLY.badAddressType;
  }
  if (host === "") return REPLY.failure;
  return { host, port: buffer.readUInt16BE(offset), length: offset + 2 };
}

/** Send a SOCKS5 reply (the bound address is not used by Chromium: zeros). */
function reply(client: net.Socket, code: number, end: boolean): void {
  if (client.destroyed) return;
  const message = Buffer.from([5, code, 0, 1, 0, 0, 0, 0, 0, 0]);
  if (end) client.end(message);
  else client.write(message);
}

/** Connect to the first of `addresses` that answers, in the resolver's order. */
async function connectAny(addresses: ResolvedAddress[], port: number, timeoutMs: number): Promise<net.Socket> {
  let last: Error = new Error("no address to connect to");
  for (const { address } of addresses) {
    try {
      return await new Promise<net.Socket>((resolve, reject) => {
        const socket = net.connect({ host: address, port });
        const fail = (err: Error) => {
          socket.destroy();
          reject(err);
        };
        socket.setTimeout(timeoutMs, () => fail(new Error(`connect to ${address}:${port} timed out after ${timeoutMs} ms`)));
        socket.once("error", fail);
        socket.once("connect", () => {
          socket.setTimeout(0);
          socket.off("error", fail);
          resolve(socket);
        });
      });
    } catch (err) {
      last = err instanceof Error ? err : new Error(String(err));
    }
  }
  throw last;
}
