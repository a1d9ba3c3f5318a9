/**
 * One TCP tunnel through the operator's proxy to `host:port`: the single code path both fetch
 * modes use (the plain-HTTP agent in ./proxy.ts and Chromium's gate in ./browser-gate.ts), so a
 * proxy behaves, and fails, the same way in both. Protocols come from maintained libraries:
 * `socks` (SOCKS5 with RFC 1929 username/password) and undici's `Client.connect` (HTTP CONNECT,
 * over TLS for an `https://` proxy).
 *
 * Every failure before the tunnel is open is a {@link ProxyError} naming the proxy with its
 * password masked: the proxy could not be reached, refused our credentials, or refused to reach
 * the target. None of them says the *site* is down.
 */
import type net from "node:net";
import { Client, buildConnector } from "undici";
import { RetryableError } from "../errors";
import type { ResolvedAddress } from "./address-policy";
import type { ProxyConfig } from "./proxy-url";

/** What went wrong with a proxy: `auth` is never worth retrying, the others may be transient. */
export type ProxyFailure = "connect" | "auth" | "refused" | "protocol";

/**
 * A request that failed at the proxy, not at the site. A RetryableError (the next run may find
 * the proxy back), recorded on the crawl run as "ProxyError" with the proxy's masked URL.
 */
export class ProxyError extends RetryableError {
  override name = "ProxyError";
  constructor(
    /** The proxy URL with its password masked. */
    readonly proxy: string,
    readonly failure: ProxyFailure,
    /** What happened, in a few words ("connection refused", "HTTP 407"…); never a credential. */
    readonly detail: string,
    url?: string,
  ) {
    super(`proxy ${proxy} ${FAILURE_WORDS[failure]}: ${detail}`, url);
  }

  /** The same failure, naming the URL that was being fetched. */
  forUrl(url: string): ProxyError {
    return url === this.url ? this : new ProxyError(this.proxy, this.failure, this.detail, url);
  }
}

const FAILURE_WORDS: Record<ProxyFailure, string> = {
  connect: "could not be reached",
  auth: "refused the credentials",
  refused: "refused the connection",
  protocol: "did not answer as a proxy",
};

/** Options of {@link openTunnel}. */
export interface TunnelOptions {
  /** Deadline for reaching the proxy and opening the tunnel. */
  timeoutMs: number;
  /**
   * For `socks5://` only (the proxy is handed an address): the target's addresses, resolved and
   * checked by the caller's address policy. The first that the proxy connects to is used.
   */
  resolveTarget?: (host: string) => Promise<ResolvedAddress[]>;
}

/** Open a tunnel to `host:port` through `proxy`; rejects with a {@link ProxyError} (or the resolver's own error). */
export async function openTunnel(proxy: ProxyConfig, host: string, port: number, options: TunnelOptions): Promise<net.Socket> {
  if (proxy.scheme === "socks5" || proxy.scheme === "socks5h") return socksTunnel(proxy, host, port, options);
  return connectTunnel(proxy, host, port, options.timeoutMs);
}

async function socksTunnel(proxy: ProxyConfig, host: string, port: number, options: TunnelOptions): Promise<net.Socket> {
  // socks5h: the proxy resolves the name. socks5: we resolve it, through the address policy, so
  // the address checked is the address the proxy is told to connect to.
  const targets = proxy.scheme === "socks5" && options.resolveTarget ? (await options.resolveTarget(host)).map((a) => a.address) : [host];
  // Loaded here, not at start-up: most crawls use no SOCKS proxy, and socks with its address
  // library takes ~25 ms to load (issue 17: `crawl once` start-up).
  const { SocksClient } = await import("socks");
  let last: ProxyError | undefined;
  for (const target of targets) {
    try {
      const { socket } = await SocksClient.createConnection({
        proxy: {
          host: proxy.host,
          port: proxy.port,
          type: 5,
          ...(proxy.username !== undefined ? { userId: proxy.username, password: proxy.password ?? "" } : {}),
        },
        command: "connect",
        destination: { host: target, port },
        timeout: options.timeoutMs,
      });
      return socket;
    } catch (err) {
      last = socksFailure(proxy, err, `${host}:${port}`);
      // Another address of the target may answer; a proxy that is down or refuses us will not.
      if (last.failure !== "refused") throw last;
    }
  }
  throw last ?? new ProxyError(proxy.display, "refused", `no address to ask for ${host}:${port}`);
}

/** The socks library's error, in our words. Its messages are fixed strings (socks/common/constants). */
function socksFailure(proxy: ProxyConfig, err: unknown, target: string): ProxyError {
  const message = err instanceof Error ? err.message : String(err);
  if (/Authentication failed/i.test(message)) return new ProxyError(proxy.display, "auth", "SOCKS5 username/password rejected");
  if (/no accepted authentication type/i.test(message)) {
    return new ProxyError(
      proxy.display,
      "auth",
      proxy.username === undefined ? "SOCKS5 proxy requires a username and password" : "SOCKS5 proxy accepts none of our authentication methods",
    );
  }
  const rejected = /rejected connection - (\w+)/.exec(message);
  if (rejected) return new ProxyError(proxy.display, "refused", `cannot reach ${target} (SOCKS5 ${words(rejected[1]!)})`);
  if (/timed out/i.test(message)) return new ProxyError(proxy.display, "connect", "timed out");
  if (/invalid Socks5|Negotiation error/i.test(message)) return new ProxyError(proxy.display, "protocol", "not a SOCKS5 proxy");
  // ECONNREFUSED, ENOTFOUND, "Socket closed"…: we never got a working proxy session.
  return new ProxyError(proxy.display, "connect", shortNetError(message));
}

/** HTTP CONNECT through an `http://` or `https://` proxy, with undici's client. */
async function connectTunnel(proxy: ProxyConfig, host: string, port: number, timeoutMs: number): Promise<net.Socket> {
  const origin = `${proxy.scheme}://${proxy.host.includes(":") ? `[${proxy.host}]` : proxy.host}:${proxy.port}`;
  // One client per tunnel: CONNECT hands the socket over, and the client holds nothing afterwards.
  const client = new Client(origin, { connect: buildConnector({ timeout: timeoutMs }), headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  const authority = `${host.includes(":") ? `[${host}]` : host}:${port}`;
  const headers: Record<string, string> = { host: authority };
  if (proxy.username !== undefined) {
    headers["proxy-authorization"] = `Basic ${Buffer.from(`${proxy.username}:${proxy.password ?? ""}`).toString("base64")}`;
  }
  try {
    const { statusCode, socket } = await client.connect({ path: authority, headers });
    if (statusCode === 200) return socket as net.Socket;
    socket.destroy();
    if (statusCode === 407) {
      throw new ProxyError(proxy.display, "auth", proxy.username === undefined ? "HTTP 407: the proxy requires a username and password" : "HTTP 407");
    }
    throw new ProxyError(proxy.display, "refused", `cannot reach ${authority} (HTTP ${statusCode})`);
  } catch (err) {
    if (err instanceof ProxyError) throw err;
    const message = err instanceof Error ? `${err.message}${err.cause instanceof Error ? ` (${err.cause.message})` : ""}` : String(err);
    throw new ProxyError(
      proxy.display,
      /timeout/i.test(message) ? "connect" : /TLS|SSL|certificate|HPE_/i.test(message) ? "protocol" : "connect",
      shortNetError(message),
    );
  } finally {
    void client.close().catch(() => undefined);
  }
}

/** "connect ECONNREFUSED 127.0.0.1:9" → "connection refused (ECONNREFUSED)"; other messages as they are. */
function shortNetError(message: string): string {
  const code = /\b(E[A-Z]{3,})\b/.exec(message)?.[1];
  const known: Record<string, string> = {
    ECONNREFUSED: "connection refused",
    ECONNRESET: "connection reset",
    ENOTFOUND: "host not found",
    EAI_AGAIN: "host name lookup failed",
    ETIMEDOUT: "timed out",
    EHOSTUNREACH: "host unreachable",
    ENETUNREACH: "network unreachable",
  };
  if (code && known[code]) return `${known[code]} (${code})`;
  if (/Socket closed|other side closed/i.test(message)) return "the proxy closed the connection";
  return message;
}

/** "HostUnreachable" → "host unreachable". */
function words(camel: string): string {
  return camel.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
}
