/**
 * The gate all network traffic of one crawler browser context goes through: an HTTP proxy on
 * loopback, set as that context's proxy (Playwright makes Chromium send loopback through it
 * too). Chromium hands it host names, not addresses (`CONNECT host:port` for https and
 * WebSockets, `GET http://host/…` for plain http), so:
 *
 * - every connection — the page, its sub-resources, *every redirect hop*, iframes, workers,
 *   WebSockets, beacons — is checked against the address policy before it is opened. A
 *   Playwright `route` handler alone would miss redirect hops (Playwright continues them
 *   unrouted), and a page's workers and out-of-process iframes are other targets. Plain-http
 *   requests are checked one by one, each on a connection of its own, even when Chromium sends
 *   several (for different hosts) over one connection to the gate;
 * - the socket connects to the addresses the policy checked, so a DNS answer that changes
 *   between check and connection (DNS rebinding) cannot reach an internal address;
 * - bytes received are counted, whoever asked for them, for the page size cap (browser.ts).
 *
 * The gate asks for credentials, random for each gate (Basic, `Proxy-Authorization`), which
 * Playwright answers for Chromium: another local user or process that finds the port cannot use
 * the gate to reach the operator's proxy (with its credentials) or an intranet host an account
 * is trusted for. An HTTP proxy and not SOCKS5 because Chromium cannot authenticate to a SOCKS5
 * proxy (Playwright refuses SOCKS5 credentials for it).
 *
 * QUIC is off and WebRTC may only use proxied connections (CHROMIUM_ARGS), so no UDP leaves
 * around the gate.
 *
 * With an operator's proxy (`upstream`), the gate checks each connection exactly as without one,
 * then opens it through the proxy (./proxy-tunnel.ts) instead of directly: `socks5://` is handed
 * the checked addresses, `http(s)://` and `socks5h://` the name (the residual DNS-rebinding gap
 * described in ./proxy.ts). A proxy failure is remembered as a ProxyError for browser.ts to name.
 */
import crypto from "node:crypto";
import http from "node:http";
import net from "node:net";
import type { Duplex } from "node:stream";
import { AddressRefusedError, systemResolver, type AddressPolicy, type ResolvedAddress } from "./address-policy";
import { isIpLiteral, stripBrackets } from "../../lib/net/address";
import { openTunnel } from "./proxy-tunnel";
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

/** Remembered connection failures per gate; a long-lived context must not grow without bound. */
const MAX_REMEMBERED = 200;

/** The realm named in the gate's 407 answer. */
const REALM = "CampusWatch browser gate";

/**
 * Headers that belong to one hop (RFC 9110 §7.6.1) and are not passed on, plus the proxy's own.
 * Transfer-Encoding is left to Node, which frames each side's body itself.
 */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authorization",
  "proxy-authenticate",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

/** The credentials Chromium must present, for Playwright's `proxy` option. */
export interface GateProxySettings {
  server: string;
  username: string;
  password: string;
}

/** An HTTP proxy gate for one browser context; start with {@link BrowserGate.start}, close with {@link close}. */
export class BrowserGate {
  private readonly sockets = new Set<Duplex>();
  private readonly failures = new Map<string, Error>();
  private readonly byteListeners = new Set<(bytes: number) => void>();
  /** While above zero, every connection is cut and none is opened (a page went over its byte budget). */
  private blocked = 0;
  /** `username:password`, as the Basic scheme carries it. */
  private readonly expected: Buffer;

  private constructor(
    private readonly server: http.Server,
    private readonly options: BrowserGateOptions,
    private readonly credentials: { username: string; password: string },
  ) {
    this.expected = Buffer.from(`${credentials.username}:${credentials.password}`);
  }

  /** Listen on a free loopback port, with fresh random credentials. The server never holds the process open. */
  static async start(options: BrowserGateOptions = {}): Promise<BrowserGate> {
    const server = http.createServer();
    const credentials = { username: `gate-${crypto.randomBytes(6).toString("hex")}`, password: crypto.randomBytes(24).toString("base64url") };
    const gate = new BrowserGate(server, options, credentials);
    server.on("connection", (socket: net.Socket) => gate.track(socket));
    server.on("connect", (req: http.IncomingMessage, socket: Duplex, head: Buffer) => void gate.tunnel(req, socket, head));
    server.on("request", (req: http.IncomingMessage, res: http.ServerResponse) => void gate.forward(req, res));
    // Chromium opens WebSockets with CONNECT; an Upgrade sent as a plain request is not ours to relay.
    server.on("upgrade", (_req: http.IncomingMessage, socket: Duplex) => socket.destroy());
    server.on("clientError", (_err: Error, socket: Duplex) => socket.destroy());
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve());
    });
    server.unref();
    return gate;
  }

  /** Playwright's `proxy` option for a context behind this gate: its address and credentials. */
  get proxySettings(): GateProxySettings {
    const address = this.server.address() as net.AddressInfo;
    return { server: `http://127.0.0.1:${address.port}`, ...this.credentials };
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

  private track(socket: Duplex): void {
    if (socket instanceof net.Socket) socket.unref();
    if (this.sockets.has(socket)) return;
    this.sockets.add(socket);
    socket.once("close", () => this.sockets.delete(socket));
    // A reset from either side just ends the tunnel; it must never become an uncaught error.
    socket.on("error", () => socket.destroy());
  }

  /** Whether the request carries this gate's credentials (compared in constant time). */
  private authorized(req: http.IncomingMessage): boolean {
    const match = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(req.headers["proxy-authorization"] ?? "");
    if (!match) return false;
    const given = Buffer.from(match[1]!, "base64");
    return given.length === this.expected.length && crypto.timingSafeEqual(given, this.expected);
  }

  /** `CONNECT host:port` (https, WebSockets): check and open, answer 200, then splice. */
  private async tunnel(req: http.IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    this.track(client);
    if (!this.authorized(req)) {
      client.end(`HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="${REALM}"\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
      return;
    }
    const target = parseAuthority(req.url ?? "");
    if (!target) {
      client.end("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
      return;
    }
    let upstream: net.Socket;
    try {
      upstream = await this.open(target.host, target.port);
    } catch (err) {
      // Chromium only says ERR_TUNNEL_CONNECTION_FAILED; browser.ts asks failureFor() why.
      const status = err instanceof AddressRefusedError ? "403 Forbidden" : "502 Bad Gateway";
      if (!client.destroyed) client.end(`HTTP/1.1 ${status}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
      return;
    }
    if (client.destroyed || this.blocked > 0) {
      upstream.destroy();
      client.destroy();
      return;
    }
    client.once("close", () => upstream.destroy());
    upstream.once("close", () => client.destroy());
    client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
    if (head.length > 0) upstream.write(head);
    client.pipe(upstream);
    upstream.pipe(client);
  }

  /**
   * A plain-http request in absolute form (`GET http://host/path`): check and open a connection of
   * its own to that host, send the request there and relay the answer. A refused request gets no
   * answer at all (the connection is cut): an answer would be taken as the site's page.
   */
  private async forward(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (!this.authorized(req)) {
      res.writeHead(407, { "Proxy-Authenticate": `Basic realm="${REALM}"`, "Content-Length": "0" }).end();
      return;
    }
    let url: URL;
    try {
      url = new URL(req.url ?? "");
    } catch {
      req.socket.destroy();
      return;
    }
    if (url.protocol !== "http:" || url.username || url.password) {
      req.socket.destroy();
      return;
    }
    let upstream: net.Socket;
    try {
      upstream = await this.open(stripBrackets(url.hostname).toLowerCase(), Number(url.port || 80));
    } catch {
      req.socket.destroy();
      return;
    }
    if (req.socket.destroyed || this.blocked > 0) {
      upstream.destroy();
      req.socket.destroy();
      return;
    }
    const outgoing = http.request({
      createConnection: () => upstream,
      method: req.method,
      path: `${url.pathname}${url.search}`,
      // One request per connection: the next request, wherever it goes, is checked afresh.
      headers: [...endToEnd(req.rawHeaders), "Connection", "close"],
    });
    const fail = () => {
      upstream.destroy();
      if (res.headersSent) res.destroy();
      else req.socket.destroy();
    };
    outgoing.on("error", fail);
    outgoing.on("response", (answer) => {
      answer.on("error", fail);
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEnd(answer.rawHeaders));
      answer.pipe(res);
    });
    req.pipe(outgoing);
  }

  /**
   * Check, resolve and connect `host:port` (directly or through the operator's proxy): the one
   * place a connection is opened. Throws why not; a failure is remembered for {@link failureFor}.
   */
  private async open(host: string, port: number): Promise<net.Socket> {
    const key = `${host}:${port}`;
    const { policy, upstream: proxy } = this.options;
    // Only a direct connection or socks5:// (given addresses) needs the target resolved here;
    // through other proxies a trusted host is the proxy's to resolve (it may know names we do not).
    const needAddresses = !proxy || proxy.scheme === "socks5";
    if (this.blocked > 0) throw new Error("the page went over its size limit: connections are cut");
    let upstream: net.Socket;
    try {
      let addresses: ResolvedAddress[] | undefined;
      if (policy) {
        const named = isIpLiteral(host) && host.includes(":") ? `[${host}]` : host;
        // Trust is keyed by URL.host, where a default port is left out; a CONNECT does not say
        // which scheme the port belongs to, so 80 and 443 both count as default.
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
      if (error instanceof AddressRefusedError && !known) this.options.onRefused?.(error);
      throw error;
    }
    this.failures.delete(key);
    this.track(upstream);
    upstream.on("data", (chunk: Buffer) => {
      for (const listener of this.byteListeners) listener(chunk.length);
    });
    return upstream;
  }

  private remember(key: string, error: Error): void {
    this.failures.delete(key);
    this.failures.set(key, error);
    if (this.failures.size > MAX_REMEMBERED) this.failures.delete(this.failures.keys().next().value as string);
  }
}

/** A CONNECT target (`host:port`, `[v6]:port`), or null when it is not one. */
function parseAuthority(authority: string): { host: string; port: number } | null {
  const match = /^(\[[0-9a-f:.]+\]|[^\s:/@[\]]+):(\d{1,5})$/i.exec(authority);
  if (!match) return null;
  const port = Number(match[2]);
  if (port < 1 || port > 65535) return null;
  return { host: stripBrackets(match[1]!).toLowerCase(), port };
}

/** Raw headers (name, value, name, value…) without the hop-by-hop ones, nor those `Connection` names. */
function endToEnd(raw: string[]): string[] {
  const named = new Set<string>();
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.toLowerCase() === "connection") for (const token of raw[i + 1]!.split(",")) named.add(token.trim().toLowerCase());
  }
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (!HOP_BY_HOP.has(name) && !named.has(name)) out.push(raw[i]!, raw[i + 1]!);
  }
  return out;
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
