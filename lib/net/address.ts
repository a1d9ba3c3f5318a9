/**
 * The one address policy of CampusWatch: which network addresses it may contact, for every
 * outgoing request — the crawler (pages, redirect targets, OCR images, discovered links,
 * Chromium's sub-requests), the dashboard's image proxy and the notification channels (webhook,
 * DingTalk, WeCom, Feishu, the SMTP server).
 *
 * The classification is ipaddr.js's (its named IANA special-purpose ranges), never hand-written
 * prefixes. An address is public only when ipaddr.js calls it plain `unicast`, after unwrapping
 * an IPv4-mapped IPv6 address (`::ffff:7f00:1` is 127.0.0.1). Ranges that *embed* an IPv4
 * address in IPv6 — NAT64 (`64:ff9b::/96`, `64:ff9b:1::/48`), 6to4 (`2002::/16`), Teredo, SIIT
 * (`rfc6145`) and the deprecated IPv4-compatible `::/96` — are refused outright: a gateway on the
 * way may turn them into any IPv4 address, internal ones included.
 *
 * What may be internal (see {@link createAddressPolicy}):
 * - hosts an administrator registered on an internal address (an account's entry URL, a
 *   discovery seed, `CAMPUSWATCH_TRUSTED_HOSTS`) — but a host registered while it resolved to a
 *   public address keeps that class: if it later resolves to an internal one (DNS rebinding, a
 *   taken-over domain) it is refused, with that reason;
 * - hosts and CIDR ranges of `CAMPUSWATCH_ALLOW_INTERNAL` (lib/config.ts), for every request
 *   (an in-house SMTP relay or webhook receiver, an intranet image host).
 * Everything else must resolve to public addresses only, checked before the request and again
 * when the socket connects (./guarded-agent.ts: createGuardedAgent, pinnedLookup): the socket gets
 * only the checked addresses, so a DNS answer that changes in between cannot slip through. (Kept
 * apart so that what only classifies and parses — lib/config.ts reads it at every start — does not
 * load undici.)
 *
 * @example
 * const policy = createAddressPolicy({ trustedHosts: [new URL(account.entryUrl).host], allowInternal: allowInternalFromEnv() });
 * const fetcher = createFetcher({ addressPolicy: policy });
 */
import dns from "node:dns/promises";
import ipaddr from "ipaddr.js";
import { NonRetryableError } from "../errors";

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

// ---- resolving ---------------------------------------------------------------------------------

/** Resolves a host name to all of its addresses (the default is the system resolver, `dns.lookup`). */
export type Resolver = (host: string) => Promise<ResolvedAddress[]>;

/**
 * The system resolver: every address `dns.lookup` gives, in its order.
 *
 * Tests only: when `CAMPUSWATCH_TEST_DNS` is set (a JSON object `{"name": ["127.0.0.5", …]}`),
 * names are answered from it and from `localhost`, and any other name fails as ENOTFOUND without
 * asking the network — so that no test, and no CLI or dashboard process a test starts, sends a
 * DNS query (tests contact loopback only). Production never sets it.
 */
export const systemResolver: Resolver = async (host) => {
  const table = testDnsTable();
  if (!table) return dns.lookup(host, { all: true });
  // An IP literal is its own answer, as dns.lookup gives it without asking anyone.
  const bare = stripBrackets(host);
  if (isIpLiteral(bare)) return [{ address: bare, family: bare.includes(":") ? 6 : 4 }];
  const name = host.toLowerCase().replace(/\.$/, "");
  const answer = name === "localhost" || name.endsWith(".localhost") ? ["127.0.0.1", "::1"] : table[name];
  if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host} (CAMPUSWATCH_TEST_DNS)`), { code: "ENOTFOUND", hostname: host });
  return answer.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
};

/** The addresses of a URL host name: an IP literal (brackets allowed) is its own address, a name goes through `resolve`. */
export async function addressesOf(hostname: string, resolve: Resolver = systemResolver): Promise<ResolvedAddress[]> {
  const bare = stripBrackets(hostname);
  if (isIpLiteral(bare)) return [{ address: bare, family: bare.includes(":") ? 6 : 4 }];
  return resolve(bare);
}

let testDns: { raw: string; table: Record<string, string[]> } | undefined;

/** The parsed `CAMPUSWATCH_TEST_DNS`, or null when unset; parsed again only when the value changes. */
function testDnsTable(): Record<string, string[]> | null {
  const raw = process.env.CAMPUSWATCH_TEST_DNS;
  if (!raw) return null;
  if (testDns?.raw !== raw) {
    const parsed: unknown = JSON.parse(raw);
    const table: Record<string, string[]> = {};
    for (const [name, list] of Object.entries(parsed as Record<string, unknown>)) {
      if (!Array.isArray(list) || !list.every((a) => typeof a === "string" && ipaddr.isValid(a)))
        throw new Error(`CAMPUSWATCH_TEST_DNS: ${JSON.stringify(name)} must map to a list of IP addresses`);
      table[name.toLowerCase()] = list as string[];
    }
    testDns = { raw, table };
  }
  return testDns.table;
}

// ---- address class at registration, link-local and metadata --------------------------------------

/**
 * Where a registered host was when it was registered: `public` when every address it resolved to
 * was public, else `internal` (an intranet board, the demo on loopback). Stored on the account:
 * a `public` host is never trusted on an internal address later.
 */
export type AddressClass = "public" | "internal";

/** The class of a host from its addresses (every one must be public for `public`). */
export function addressClassOf(addresses: readonly ResolvedAddress[]): AddressClass {
  return addresses.length > 0 && addresses.every((a) => isPublicAddress(a.address)) ? "public" : "internal";
}

/**
 * Link-local ranges and the cloud instance-metadata endpoints: never a place to crawl, whoever
 * registers it. 169.254.0.0/16 holds AWS, Azure, GCP, Huawei and Tencent Cloud's 169.254.169.254
 * (Tencent: 169.254.0.23); Alibaba Cloud answers on 100.100.100.200, Oracle on 192.0.0.192, AWS
 * over IPv6 on fd00:ec2::254 and GCP on fd20:ce::254.
 */
const METADATA_RANGES: [ipaddr.IPv4 | ipaddr.IPv6, number][] = [
  "169.254.0.0/16",
  "fe80::/10",
  "100.100.100.200/32",
  "192.0.0.192/32",
  "fd00:ec2::254/128",
  "fd20:ce::254/128",
].map((cidr) => ipaddr.parseCIDR(cidr));

/** Host names of metadata services (they resolve inside the cloud only, so the name itself is refused). */
const METADATA_NAMES = new Set([
  "metadata",
  "metadata.google.internal",
  "metadata.goog",
  "metadata.azure.internal",
  "instance-data",
  "instance-data.ec2.internal",
  "metadata.tencentyun.com",
  "metadata.platformequinix.com",
]);

/** True for a link-local or cloud-metadata address (IPv4-mapped IPv6 unwrapped). */
export function isMetadataAddress(ip: string): boolean {
  const bare = stripBrackets(ip);
  if (!ipaddr.isValid(bare)) return false;
  const addr = ipaddr.process(bare);
  return METADATA_RANGES.some(([range, bits]) => range.kind() === addr.kind() && addr.match(range, bits));
}

/** True for the host name of a cloud metadata service (`metadata.google.internal`, …). */
export function isMetadataName(host: string): boolean {
  return METADATA_NAMES.has(host.toLowerCase().replace(/\.$/, ""));
}

// ---- refusals ------------------------------------------------------------------------------------

/** Human words for ipaddr.js range names, for refusal messages. */
const RANGE_WORDS: Record<string, string> = {
  linkLocal: "link-local",
  uniqueLocal: "unique-local",
  carrierGradeNat: "carrier-grade NAT",
  rfc6052: "NAT64",
  rfc6145: "SIIT (IPv4-translated)",
  ipv4Compatible: "IPv4-compatible IPv6",
  teredo: "Teredo",
  "6to4": "6to4",
};

/** The default reason in a refusal: the crawler's case, a URL from crawled content. */
const NOT_REGISTERED = "not a registered host";

/**
 * A URL (or a connection) refused because its host is internal and not allowed. A
 * NonRetryableError: the crawler's worker records it on the crawl run with the URL and nothing
 * retries it; a notification records it as the delivery's final error.
 */
export class AddressRefusedError extends NonRetryableError {
  override name = "AddressRefused";
  constructor(
    /** The URL refused (for a connect-time refusal: the origin being connected to). */
    url: string,
    /** The offending address. */
    readonly address: string,
    /** ipaddr.js's name of its range ("loopback", "private", "uniqueLocal"…). */
    readonly range: string,
    /** The host name, when the URL named a host rather than an address. */
    readonly hostName?: string,
    /** The page whose redirect pointed here, when the refused URL was a redirect target. */
    readonly redirectedFrom?: string,
    /** Why internal is not allowed here, in the message's closing parentheses. */
    readonly reason: string = NOT_REGISTERED,
  ) {
    const via = redirectedFrom ? ` (redirect from ${redirectedFrom})` : "";
    super(`refused ${url}${via}: ${describeAddress(address, range, hostName)} (${reason})`, url);
  }

  /** The same refusal, saying which page redirected to it. */
  viaRedirect(from: string): AddressRefusedError {
    return new AddressRefusedError(this.url ?? "", this.address, this.range, this.hostName, from, this.reason);
  }

  /** The same refusal naming the full URL (a connect-time refusal knows only the origin). */
  forUrl(url: string): AddressRefusedError {
    return url === this.url ? this : new AddressRefusedError(url, this.address, this.range, this.hostName, this.redirectedFrom, this.reason);
  }
}

/** "127.0.0.1 is a loopback address" / "evil.example resolves to 10.0.0.1, a private address". */
function describeAddress(address: string, range: string, hostName?: string): string {
  const word = RANGE_WORDS[range] ?? range;
  // "an unspecified", "an IPv4-…", but "a unique-local" (a "you" sound).
  const kind = `${/^(?:[aeio]|un(?!i))/i.test(word) ? "an" : "a"} ${word} address`;
  return hostName ? `${hostName} resolves to ${address}, ${kind}` : `${address} is ${kind}`;
}

/** The reason given when a host registered on a public address now resolves to an internal one. */
export const REBOUND_REASON =
  "registered on a public address: refused as DNS rebinding or a taken-over domain; if the host really moved inside, register it again or list it in CAMPUSWATCH_ALLOW_INTERNAL";

// ---- the policy ----------------------------------------------------------------------------------

/** Decides which URLs may be contacted; build one with {@link createAddressPolicy}. */
export interface AddressPolicy {
  /**
   * True when the URL's host (`URL.host`: host name plus a non-default port) is one the
   * administrator registered on an internal address or allowed, or an IP literal inside a trusted
   * or allowed CIDR range.
   */
  isTrusted(url: string | URL): boolean;
  /**
   * Throws {@link AddressRefusedError} unless the URL is trusted or every address its host
   * resolves to is public (or in a trusted range). Resolves to the addresses to connect to.
   * Resolver failures (unknown host) are thrown as they are: they are network errors.
   */
  check(url: string | URL): Promise<ResolvedAddress[]>;
  /**
   * Lower level, for connect-time hooks (the undici agent here, Chromium's request routing):
   * resolve `hostname` (an IP literal resolves to itself) with this policy's resolver; with
   * `checked`, refuse as {@link check} does, naming `url` in the error.
   */
  resolveHost(hostname: string, opts: { checked: boolean; url: string }): Promise<ResolvedAddress[]>;
}

/** Options of {@link createAddressPolicy}. */
export interface AddressPolicyOptions {
  /**
   * Registered hosts that may be anywhere, each as `URL.host` (`bbs.example.edu`,
   * `127.0.0.1:3999`, `[::1]:8080`), a whole URL (its host is taken) or a CIDR range
   * (`10.20.0.0/16`, `fd00::/8`: any port, any name resolving into it). A host without a port
   * means the URL's default port only.
   */
  trustedHosts: Iterable<string>;
  /**
   * `CAMPUSWATCH_ALLOW_INTERNAL` (lib/config.ts allowInternalFromEnv): hosts and CIDR ranges that
   * may be internal for any request. Unlike {@link trustedHosts}, a host without a port here means
   * that host on any port (an SMTP relay has no "default port" of a URL). @default none
   */
  allowInternal?: Iterable<string>;
  /**
   * Hosts (as `URL.host`, or whole URLs) registered while they resolved to public addresses: not
   * trusted, and refused with {@link REBOUND_REASON} when they now resolve inside.
   */
  registeredPublic?: Iterable<string>;
  /** Why internal is refused, in refusal messages. @default "not a registered host" */
  refusalReason?: string;
  /** @default {@link systemResolver} */
  resolve?: Resolver;
}

/** Build the policy of one crawl (one account, or one discovery run), of the image proxy or of a notification. */
export function createAddressPolicy(opts: AddressPolicyOptions): AddressPolicy {
  const hosts = new Set<string>();
  const anyPortHosts = new Set<string>();
  const ranges: [ipaddr.IPv4 | ipaddr.IPv6, number][] = [];
  for (const entry of opts.trustedHosts) {
    const parsed = parseTrustedEntry(entry);
    if ("host" in parsed) hosts.add(parsed.host);
    else ranges.push(parsed.range);
  }
  for (const entry of opts.allowInternal ?? []) {
    const parsed = parseTrustedEntry(entry);
    if ("range" in parsed) ranges.push(parsed.range);
    else if (new URL(`http://${parsed.host}`).port) hosts.add(parsed.host);
    else anyPortHosts.add(parsed.host);
  }
  const rebound = new Set<string>();
  for (const entry of opts.registeredPublic ?? []) {
    const parsed = parseTrustedEntry(entry);
    if ("host" in parsed) rebound.add(parsed.host);
  }
  const resolver = opts.resolve ?? systemResolver;
  const refusalReason = opts.refusalReason ?? NOT_REGISTERED;

  function inTrustedRange(ip: string): boolean {
    if (ranges.length === 0 || !ipaddr.isValid(ip)) return false;
    const addr = ipaddr.process(ip); // unwraps ::ffff:a.b.c.d, so a v4 range covers it
    return ranges.some(([net, bits]) => net.kind() === addr.kind() && addr.match(net, bits));
  }

  function isTrusted(url: string | URL): boolean {
    const u = toUrl(url);
    if (hosts.has(u.host) || anyPortHosts.has(u.hostname)) return true;
    return isIpLiteral(u.hostname) && inTrustedRange(stripBrackets(u.hostname));
  }

  /** The first address that may not be contacted, or undefined when all may. */
  function firstRefused(addresses: ResolvedAddress[]): ResolvedAddress | undefined {
    return addresses.find((a) => !isPublicAddress(a.address) && !inTrustedRange(a.address));
  }

  async function resolveHost(hostname: string, { checked, url }: { checked: boolean; url: string }): Promise<ResolvedAddress[]> {
    const addresses = await addressesOf(hostname, resolver);
    if (addresses.length === 0) throw new NonRetryableError(`${hostname} resolves to no address`, url);
    if (!checked) return addresses;
    // Every address must be public, not just the first: which one the socket uses is not ours to pick.
    const bad = firstRefused(addresses);
    if (bad) {
      const name = isIpLiteral(hostname) ? undefined : stripBrackets(hostname);
      const reason = rebound.has(hostOf(url)) ? REBOUND_REASON : refusalReason;
      throw new AddressRefusedError(url, bad.address, addressRange(bad.address), name, undefined, reason);
    }
    return addresses;
  }

  return {
    isTrusted,
    resolveHost,
    async check(url) {
      const u = toUrl(url);
      return resolveHost(u.hostname, { checked: !isTrusted(u), url: u.href });
    },
  };
}

/** `URL.host` of a URL, or "" when it does not parse. */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "";
  }
}

function toUrl(url: string | URL): URL {
  return typeof url === "string" ? new URL(url) : url;
}
