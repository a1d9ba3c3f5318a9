/**
 * The crawler's fetcher: the only code that opens sockets. Other modules import from here only;
 * the files behind it are internal.
 *
 * One fetcher per account (its own cookies and browser context), all sharing the process-wide
 * {@link defaultHostScheduler} (one request in flight per host, delay, robots.txt cache):
 *
 * @example
 * const fetcher = createFetcher({ mode: account.fetchMode, onRequest: (i) => tally(i.kind) });
 * try {
 *   const page = await fetcher.get(url, { kind: "list" });
 * } finally {
 *   await fetcher.close();
 * }
 * // At process exit (CLI, worker shutdown), so Chromium does not linger for browserIdleMs:
 * await closeSharedBrowser();
 */
export { createFetcher, DEFAULT_USER_AGENT } from "./fetcher";
export type { FetcherOptions, FetcherStats, PoliteFetcher, RequestInfo, RobotsPolicy } from "./fetcher";
export { HostScheduler, defaultHostScheduler } from "./politeness";
export { decodeBody } from "./decode";
export type { DecodedBody } from "./decode";
export { detectBlock } from "./captcha";
export type { BlockProbe, BlockSignal } from "./captcha";
export { closeSharedBrowser } from "./browser";
export { AddressRefusedError, createAddressPolicy, createGuardedAgent, parseTrustedEntry, systemResolver } from "./address-policy";
export type { AddressPolicy, AddressPolicyOptions, GuardedAgentOptions, Resolver } from "./address-policy";
export { createProxyAgent, maskProxyUrl, parseProxyUrl, PROXY_SCHEMES, ProxyError, ProxyUrlError } from "./proxy";
export type { ProxyConfig, ProxyFailure, ProxyScheme, ProxySetting } from "./proxy";
export { parseListValidators } from "./conditional";
export type { ListValidators } from "./conditional";
