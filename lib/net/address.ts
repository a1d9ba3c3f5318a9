/**
 * Which network addresses CampusWatch may contact on behalf of crawled content. Shared by the
 * dashboard's image proxy and the crawler (redirect targets, OCR images, discovered links,
 * Chromium's sub-requests): anything that hostile HTML can point at.
 *
 * The classification is ipaddr.js's (its named IANA special-purpose ranges), never hand-written
 * prefixes. An address is public only when ipaddr.js calls it plain `unicast`, after unwrapping
 * an IPv4-mapped IPv6 address (`::ffff:7f00:1` is 127.0.0.1). Ranges that *embed* an IPv4
 * address in IPv6 — NAT64 (`64:ff9b::/96`, `64:ff9b:1::/48`), 6to4 (`2002::/16`), Teredo, SIIT
 * (`rfc6145`) and the deprecated IPv4-compatible `::/96` — are refused outright: a gateway on the
 * way may turn them into any IPv4 address, internal ones included.
 */
import ipaddr from "ipaddr.js";

/** IPv4-compatible IPv6 (`::a.b.c.d`, deprecated by RFC 4291): ipaddr.js files it under unicast. */
const IPV4_COMPATIBLE = ipaddr.parseCIDR("::/96");

/** What an address is, for people and for refusal messages (e.g. "loopback", "private", "uniqueLocal"). */
export function addressRange(ip: string): string {
  const bare = stripBrackets(ip);
  if (!ipaddr.isValid(bare)) return "invalid";
  let addr = ipaddr.parse(bare);
  if (addr.kind() === "ipv6") {
    const v6 = addr as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) addr = v6.toIPv4Address();
    else if (v6.match(IPV4_COMPATIBLE)) return v6.range() === "unicast" ? "ipv4Compatible" : v6.range();
  }
  return addr.range();
}

/**
 * True only for a globally routable unicast address. Anything that does not parse as an IP
 * address (a host name, an empty string) is not public: resolve names first.
 */
export function isPublicAddress(ip: string): boolean {
  return addressRange(ip) === "unicast";
}

/** True when `host` (a URL hostname, brackets allowed) is an IP literal rather than a name. */
export function isIpLiteral(host: string): boolean {
  return ipaddr.isValid(stripBrackets(host));
}

/** `[::1]` → `::1`: URL.hostname keeps the brackets of an IPv6 literal. */
export function stripBrackets(host: string): string {
  return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
}
