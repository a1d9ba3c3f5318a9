/**
 * Proxy URLs moved below the crawler (lib/net/proxy-url.ts): the configuration (lib/config.ts)
 * reads `CAMPUSWATCH_PROXY` with them, and lib/ never imports the crawler. This path stays for
 * the fetcher's own files and the CLI.
 */
export { maskProxyUrl, parseProxyUrl, PROXY_SCHEMES, ProxyUrlError } from "../../lib/net/proxy-url";
export type { ProxyConfig, ProxyScheme, ProxyUrlProblem } from "../../lib/net/proxy-url";
