/**
 * Which hosts the crawler may contact (SSRF protection): the address policy of lib/net/address.ts,
 * the one every outgoing request of CampusWatch goes through. The hosts an administrator
 * registered on an internal address (account entry URLs, discovery seeds,
 * `CAMPUSWATCH_TRUSTED_HOSTS`) and `CAMPUSWATCH_ALLOW_INTERNAL` may be internal; every other URL
 * comes from crawled content — a redirect target, an image read for OCR, a discovered link — and
 * is refused when its host resolves to anything but a public address.
 *
 * Two layers, both fed by the same policy:
 * - {@link AddressPolicy.check} before a request, for an early refusal that names the URL;
 * - {@link createGuardedAgent}, an undici Agent whose connector resolves and checks again at
 *   connect time and hands the socket only the checked addresses, so a DNS answer that changes
 *   between the check and the connection (DNS rebinding) cannot reach an internal address.
 *
 * Re-exported here so that the crawler keeps importing it from its fetch module.
 */
export { AddressRefusedError, createAddressPolicy, parseTrustedEntry, REBOUND_REASON, systemResolver } from "../../lib/net/address";
export type { AddressPolicy, AddressPolicyOptions, ResolvedAddress, Resolver } from "../../lib/net/address";
export { createGuardedAgent, pinnedLookup } from "../../lib/net/guarded-agent";
export type { GuardedAgentOptions } from "../../lib/net/guarded-agent";
