/**
 * The crawler behind an operator's proxy (`CAMPUSWATCH_PROXY`, or an account's own, which wins):
 * an undici Agent whose every connection is a tunnel through the proxy (./proxy-tunnel.ts), with
 * TLS to the target inside it, so the target sees our request end to end and the proxy only
 * the host and port.
 *
 * Address policy (SSRF) with a proxy: the proxy, not us, opens the connection to the target, so
 * the connect-time check of ./address-policy.ts applies to the connection to the proxy — the
 * operator's own, allowed wherever it is. The target is checked before sending instead: the
 * fetcher checks every URL that is not a registered host (`AddressPolicy.check`), and for
 * `socks5://` the tunnel asks the proxy for the very addresses the policy just checked, so no
 * gap remains. For `http://`, `https://` and `socks5h://` the proxy resolves the name itself:
 * a name whose DNS answer changes between our check and the proxy's lookup (DNS rebinding)
 * could reach an address inside the *proxy's* network. Operators whose proxy sits next to
 * internal services should use `socks5://` or restrict the proxy itself (README "Proxies").
 */
import { Agent, buildConnector } from "undici";
import type { AddressPolicy } from "./address-policy";
import { systemResolver } from "./address-policy";
import { openTunnel, ProxyError } from "./proxy-tunnel";
import { parseProxyUrl, type ProxyConfig } from "./proxy-url";

export { ProxyError, openTunnel } from "./proxy-tunnel";
export type { ProxyFailure, TunnelOptions } from "./proxy-tunnel";
export { maskProxyUrl, parseProxyUrl, PROXY_SCHEMES, ProxyUrlError } from "./proxy-url";
export type { ProxyConfig, ProxyScheme, ProxyUrlProblem } from "./proxy-url";

/**
 * A fetcher's proxy: none (`null`/undefined: direct connections), a URL or a parsed config, or a
 * loader awaited before the first request (an account's proxy is read from the database then;
 * a loader that throws fails every request, so nothing goes out directly by mistake).
 */
export type ProxySetting = ProxyConfig | string | null | undefined | (() => Promise<ProxyConfig | null>);

/** Options of {@link createProxyAgent}. */
export interface ProxyAgentOptions {
  /** Checks targets for `socks5://` (which resolves here); see the module comment. */
  policy?: AddressPolicy;
  /** Reaching the proxy and opening a tunnel. @default 10000 */
  connectTimeoutMs?: number;
  keepAliveTimeout?: number;
}

/** An undici Agent that reaches every origin through `proxy`. Connection failures at the proxy are {@link ProxyError}s. */
export function createProxyAgent(proxy: ProxyConfig, options: ProxyAgentOptions = {}): Agent {
  const timeoutMs = options.connectTimeoutMs ?? 10_000;
  const { policy } = options;
  // TLS to the target, over the tunnel's socket (undici's own connector, given the socket).
  const tlsOverTunnel = buildConnector({ timeout: timeoutMs });
  const connect: buildConnector.connector = (opts, callback) => {
    const https = opts.protocol === "https:";
    const port = Number(opts.port) || (https ? 443 : 80);
    const origin = `${opts.protocol}//${opts.host ?? `${opts.hostname}:${port}`}/`;
    const resolveTarget = (host: string) => (policy ? policy.resolveHost(host, { checked: !policy.isTrusted(origin), url: origin }) : systemResolver(host));
    openTunnel(proxy, opts.hostname.replace(/^\[(.*)\]$/, "$1"), port, { timeoutMs, resolveTarget }).then(
      (socket) => {
        if (!https) return callback(null, socket);
        try {
          tlsOverTunnel({ ...opts, httpSocket: socket }, callback);
        } catch (err) {
          socket.destroy();
          callback(err instanceof Error ? err : new Error(String(err)), null);
        }
      },
      (err: unknown) => callback(err instanceof Error ? err : new Error(String(err)), null),
    );
  };
  return new Agent({ keepAliveTimeout: options.keepAliveTimeout, connect });
}

/** The proxy a setting names, loaded and parsed (null: connect directly). Throws what the loader or the parser throws. */
export async function resolveProxySetting(setting: ProxySetting): Promise<ProxyConfig | null> {
  if (setting === null || setting === undefined) return null;
  if (typeof setting === "string") return parseProxyUrl(setting);
  if (typeof setting === "function") return setting();
  return setting;
}

/** `err` when it is a {@link ProxyError} (possibly wrapped by undici as a cause), named for `url`; else undefined. */
export function proxyErrorOf(err: unknown, url: string): ProxyError | undefined {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 3; e = e.cause, depth++) {
    if (e instanceof ProxyError) return e.forUrl(url);
  }
  return undefined;
}
