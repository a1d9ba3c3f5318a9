/**
 * Proxy URLs as an operator writes them (`CAMPUSWATCH_PROXY`, an account's proxy): parsed,
 * checked and shown with the password masked. Pure (no sockets), so the dashboard, the CLI and
 * the configuration can all refuse a bad proxy with the same words before anything is stored.
 *
 * Schemes, as curl reads them:
 * - `http://` and `https://`: an HTTP proxy (reached over TLS for `https://`); requests are
 *   tunnelled with CONNECT and the proxy resolves the target's name;
 * - `socks5://`: a SOCKS5 proxy given the target's *address*, resolved here (and checked by the
 *   address policy right before connecting);
 * - `socks5h://`: a SOCKS5 proxy given the target's *name*, resolved by the proxy.
 */

import { maskUrlCredentials } from "../mask";

/** Proxy schemes understood, without the colon. */
export const PROXY_SCHEMES = ["http", "https", "socks5", "socks5h"] as const;
export type ProxyScheme = (typeof PROXY_SCHEMES)[number];

/** Default port of each scheme when the URL names none (curl's defaults). */
const DEFAULT_PORTS: Record<ProxyScheme, number> = { http: 80, https: 443, socks5: 1080, socks5h: 1080 };

/** A proxy, parsed. `url` and `display` never carry a trailing slash. */
export interface ProxyConfig {
  scheme: ProxyScheme;
  /** Host name or IP address; an IPv6 address without brackets. */
  host: string;
  port: number;
  /** Decoded (percent-escapes undone); undefined when the URL names no user. */
  username?: string;
  password?: string;
  /** The whole URL, credentials included: only ever for the connection itself, never for display. */
  url: string;
  /** The URL with its password replaced by `***`: what logs, errors and the dashboard show. */
  display: string;
}

/** Why a proxy URL was refused; `code` is the dashboard's message key (accounts.proxy.errors.*). */
export type ProxyUrlProblem = "empty" | "invalid" | "scheme" | "host" | "path" | "port" | "socksUser";

/** A proxy URL refused, with a message fit for the CLI and a code for the dashboard. */
export class ProxyUrlError extends Error {
  override name = "ProxyUrlError";
  constructor(
    readonly code: ProxyUrlProblem,
    message: string,
    /** Values for the dashboard's message (the scheme that was given…). */
    readonly values: Record<string, string> = {},
  ) {
    super(message);
  }
}

/**
 * Parse and check a proxy URL. Throws {@link ProxyUrlError} for anything but
 * `http|https|socks5|socks5h://[user[:password]@]host[:port][/]`. The password never appears in
 * an error message.
 */
export function parseProxyUrl(raw: string): ProxyConfig {
  const text = raw.trim();
  if (text === "") throw new ProxyUrlError("empty", "no proxy URL given");
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(text)?.[1]?.toLowerCase();
  if (!scheme) {
    throw new ProxyUrlError(
      "invalid",
      `not a proxy URL: ${JSON.stringify(maskUrlCredentials(text))} (expected e.g. http://proxy.example:3128 or socks5://127.0.0.1:1080)`,
    );
  }
  if (!(PROXY_SCHEMES as readonly string[]).includes(scheme)) {
    throw new ProxyUrlError("scheme", `unsupported proxy scheme "${scheme}://": use http://, https://, socks5:// or socks5h://`, { scheme });
  }
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    throw new ProxyUrlError(
      "invalid",
      `not a proxy URL: ${JSON.stringify(maskUrlCredentials(text))} (expected e.g. http://proxy.example:3128 or socks5://127.0.0.1:1080)`,
    );
  }
  const kind = scheme as ProxyScheme;
  // For socks5 URL leaves the host as an opaque string ("special" schemes only get a hostname check).
  const host = u.hostname.replace(/^\[(.*)\]$/, "$1");
  if (!host) throw new ProxyUrlError("host", "the proxy URL names no host");
  if (/[\s/\\?#@]/.test(host)) throw new ProxyUrlError("host", `the proxy host ${JSON.stringify(host)} is not a host name`);
  if ((u.pathname && u.pathname !== "/") || u.search || u.hash) {
    throw new ProxyUrlError("path", "a proxy URL has no path, query or fragment: give only scheme://[user:password@]host:port");
  }
  const port = u.port === "" ? DEFAULT_PORTS[kind] : Number(u.port);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new ProxyUrlError("port", "the proxy port must be between 1 and 65535");
  const password = u.password ? decode(u.password) : undefined;
  // `http://:pw@h` names a password and an empty user. HTTP Basic carries that (RFC 7617 allows an
  // empty user-id: `Basic base64(":pw")`), so it is kept; SOCKS5's username/password method
  // (RFC 1929) needs a user of 1 to 255 bytes, so there it is refused rather than sent broken.
  const username = u.username ? decode(u.username) : password !== undefined ? "" : undefined;
  if (username === "" && (kind === "socks5" || kind === "socks5h")) {
    throw new ProxyUrlError("socksUser", "a SOCKS5 proxy password needs a user name (RFC 1929): write socks5://user:password@host:port");
  }
  const hostPart = host.includes(":") ? `[${host}]` : host;
  const userPart = (mask: boolean) =>
    username === undefined ? "" : `${encodeURIComponent(username)}${password === undefined ? "" : `:${mask ? "***" : encodeURIComponent(password)}`}@`;
  return {
    scheme: kind,
    host,
    port,
    ...(username !== undefined ? { username } : {}),
    ...(password !== undefined ? { password } : {}),
    url: `${kind}://${userPart(false)}${hostPart}:${port}`,
    display: `${kind}://${userPart(true)}${hostPart}:${port}`,
  };
}

/**
 * The proxy URL for display (password masked); when it does not parse, the raw text with
 * everything up to its last `@` masked ({@link maskUrlCredentials}).
 */
export function maskProxyUrl(raw: string): string {
  try {
    return parseProxyUrl(raw).display;
  } catch {
    return maskUrlCredentials(raw);
  }
}

function decode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
