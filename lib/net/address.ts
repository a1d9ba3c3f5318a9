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

/** One address a host name resolves to (the shape of `dns.lookup(host, { all: true })`). */
export interface ResolvedAddress {
  address: string;
  family: number;
}

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

/**
 * Parse one trusted-host entry (CAMPUSWATCH_TRUSTED_HOSTS, a registered URL): a CIDR range
 * (`10.20.0.0/16`, `fd00::/8`), a whole URL (its host is taken) or a host as `URL.host` writes it
 * (`bbs.example.edu`, `127.0.0.1:3999`, `[::1]:8080`; a bare IPv6 address is bracketed). Hosts
 * come back normalised as `URL.host` (lower case, default port dropped, IPv4 in dotted form).
 * Throws a TypeError naming the entry when it is none of these: a typo must not pass silently.
 */
export function parseTrustedEntry(entry: string): { host: string } | { range: [ipaddr.IPv4 | ipaddr.IPv6, number] } {
  const raw = entry.trim();
  const isUrl = raw.includes("://");
  if (raw.includes("/") && !isUrl) {
    try {
      return { range: ipaddr.parseCIDR(raw) };
    } catch {
      throw new TypeError(`trusted host ${JSON.stringify(entry)} is not a valid CIDR range`);
    }
  }
  // A bare IPv6 address has no port; URL syntax wants it in brackets.
  const hostPart = !isUrl && !raw.startsWith("[") && ipaddr.IPv6.isValid(raw) ? `[${raw}]` : raw;
  try {
    const u = new URL(isUrl ? hostPart : `http://${hostPart}`);
    if (!u.hostname) throw new Error("no host");
    return { host: u.host };
  } catch {
    throw new TypeError(`trusted host ${JSON.stringify(entry)} is neither a host, host:port, URL nor CIDR range`);
  }
}
