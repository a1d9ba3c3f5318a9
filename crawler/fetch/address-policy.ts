/**
 * Which hosts the crawler may contact (SSRF protection). The hosts an administrator registered
 * (account entry URLs, discovery seeds, `CAMPUSWATCH_TRUSTED_HOSTS`) may be anywhere, loopback
 * included; every other URL comes from crawled content — a redirect target, an image read for
 * OCR, a discovered link — and is refused when its host resolves to anything but a public
 * address (see lib/net/address.ts for what "public" means).
 *
 * Two layers, both fed by the same policy:
 * - {@link AddressPolicy.check} before a request, for an early refusal that names the URL;
 * - {@link createGuardedAgent}, an undici Agent whose connector resolves and checks again at
 *   connect time and hands the socket only the checked addresses, so a DNS answer that changes
 *   between the check and the connection (DNS rebinding) cannot reach an internal address.
 *
 * @example
 * const policy = createAddressPolicy({ trustedHosts: [new URL(account.entryUrl).host, ...trustedHostsFromEnv()] });
 * const fetcher = createFetcher({ addressPolicy: policy });
 */
import dns from "node:dns/promises";
import type { LookupAddress, LookupOneOptions } from "node:dns";
import type net from "node:net";
import ipaddr from "ipaddr.js";
import { Agent, buildConnector } from "undici";
import { NonRetryableError } from "../errors";
import { addressRange, isIpLiteral, isPublicAddress, parseTrustedEntry, stripBrackets, type ResolvedAddress } from "../../lib/net/address";

export { parseTrustedEntry } from "../../lib/net/address";
export type { ResolvedAddress } from "../../lib/net/address";

/** Resolves a host name to all of its addresses (the default is the system resolver, `dns.lookup`). */
export type Resolver = (host: string) => Promise<ResolvedAddress[]>;

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

/**
 * A URL (or a connection) refused because its host is internal and not registered. A
 * NonRetryableError: the worker records it on the crawl run with the URL, and nothing retries it.
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
  ) {
    const via = redirectedFrom ? ` (redirect from ${redirectedFrom})` : "";
    super(`refused ${url}${via}: ${describeAddress(address, range, hostName)} (not a registered host)`, url);
  }

  /** The same refusal, saying which page redirected to it. */
  viaRedirect(from: string): AddressRefusedError {
    return new AddressRefusedError(this.url ?? "", this.address, this.range, this.hostName, from);
  }

  /** The same refusal naming the full URL (a connect-time refusal knows only the origin). */
  forUrl(url: string): AddressRefusedError {
    return url === this.url ? this : new AddressRefusedError(url, this.address, this.range, this.hostName, this.redirectedFrom);
  }
}

/** "127.0.0.1 is a loopback address" / "evil.example resolves to 10.0.0.1, a private address". */
function describeAddress(address: string, range: string, hostName?: string): string {
  const word = RANGE_WORDS[range] ?? range;
  // "an unspecified", "an IPv4-…", but "a unique-local" (a "you" sound).
  const kind = `${/^(?:[aeio]|un(?!i))/i.test(word) ? "an" : "a"} ${word} address`;
  return hostName ? `${hostName} resolves to ${address}, ${kind}` : `${address} is ${kind}`;
}

/** Decides which URLs the crawler may fetch; build one with {@link createAddressPolicy}. */
export interface AddressPolicy {
  /**
   * True when the URL's host (`URL.host`: host name plus a non-default port) is one the
   * administrator registered, or an IP literal inside a trusted CIDR range.
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
   * Registered hosts, each as `URL.host` (`bbs.example.edu`, `127.0.0.1:3999`, `[::1]:8080`), a
   * whole URL (its host is taken) or a CIDR range (`10.20.0.0/16`, `fd00::/8`: any port, any
   * name resolving into it). A host without a port means the URL's default port only.
   */
  trustedHosts: Iterable<string>;
  /** @default dns.lookup with all addresses */
  resolve?: Resolver;
}

/** The system resolver: every address `dns.lookup` gives, in its order. */
export const systemResolver: Resolver = async (host) => dns.lookup(host, { all: true });

/** Build the policy of one crawl (one account, or one discovery run). */
export function createAddressPolicy(opts: AddressPolicyOptions): AddressPolicy {
  const hosts = new Set<string>();
  const ranges: [ipaddr.IPv4 | ipaddr.IPv6, number][] = [];
  for (const entry of opts.trustedHosts) {
    const parsed = parseTrustedEntry(entry);
    if ("host" in parsed) hosts.add(parsed.host);
    else ranges.push(parsed.range);
  }
  const resolver = opts.resolve ?? systemResolver;

  function inTrustedRange(ip: string): boolean {
    if (ranges.length === 0 || !ipaddr.isValid(ip)) return false;
    const addr = ipaddr.process(ip); // unwraps ::ffff:a.b.c.d, so a v4 range covers it
    return ranges.some(([net, bits]) => net.kind() === addr.kind() && addr.match(net, bits));
  }

  function isTrusted(url: string | URL): boolean {
    const u = toUrl(url);
    if (hosts.has(u.host)) return true;
    return isIpLiteral(u.hostname) && inTrustedRange(stripBrackets(u.hostname));
  }

  /** The first address that may not be contacted, or undefined when all may. */
  function firstRefused(addresses: ResolvedAddress[]): ResolvedAddress | undefined {
    return addresses.find((a) => !isPublicAddress(a.address) && !inTrustedRange(a.address));
  }

  async function addressesOf(hostname: string): Promise<ResolvedAddress[]> {
    const bare = stripBrackets(hostname);
    if (isIpLiteral(bare)) return [{ address: bare, family: bare.includes(":") ? 6 : 4 }];
    return resolver(bare);
  }

  async function resolveHost(hostname: string, { checked, url }: { checked: boolean; url: string }): Promise<ResolvedAddress[]> {
    const addresses = await addressesOf(hostname);
    if (addresses.length === 0) throw new NonRetryableError(`${hostname} resolves to no address`, url);
    if (!checked) return addresses;
    // Every address must be public, not just the first: which one the socket uses is not ours to pick.
    const bad = firstRefused(addresses);
    if (bad) throw new AddressRefusedError(url, bad.address, addressRange(bad.address), isIpLiteral(hostname) ? undefined : stripBrackets(hostname));
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

/** Options of {@link createGuardedAgent}: undici Agent options without `connect`, which the guard owns. */
export type GuardedAgentOptions = Omit<Agent.Options, "connect"> & { connectTimeoutMs?: number };

/**
 * An undici Agent that enforces `policy` when it opens a connection: the host is resolved with
 * the policy's resolver, every address checked (unless the host is trusted), and only those
 * addresses handed to the socket. IP literals skip DNS, so they are checked right here.
 */
export function createGuardedAgent(policy: AddressPolicy, options: GuardedAgentOptions = {}): Agent {
  const { connectTimeoutMs, ...agentOptions } = options;
  // One connector per mode, built once: the lookup function is fixed when a connector is built.
  const base = (checked: boolean) => buildConnector({ timeout: connectTimeoutMs ?? 10_000, lookup: pinnedLookup(policy, checked) });
  const trustedConnect = base(false);
  const checkedConnect = base(true);
  const connect: buildConnector.connector = (opts, callback) => {
    const fail = (err: unknown) => callback(err instanceof Error ? err : new Error(String(err)), null);
    const origin = originOf(opts);
    // The lookup knows only the host name: name the origin in its refusal here.
    const done: buildConnector.Callback = (...args) => {
      const [err] = args;
      if (err instanceof AddressRefusedError) fail(err.forUrl(origin));
      else callback(...args);
    };
    try {
      if (policy.isTrusted(origin)) return trustedConnect(opts, done);
      if (!isIpLiteral(opts.hostname)) return checkedConnect(opts, done);
    } catch (err) {
      return fail(err);
    }
    // net.connect does not call `lookup` for an address: check it before connecting.
    policy.resolveHost(opts.hostname, { checked: true, url: origin }).then(() => {
      try {
        checkedConnect(opts, done);
      } catch (err) {
        fail(err);
      }
    }, fail);
  };
  return new Agent({ ...agentOptions, connect });
}

/** A net `lookup` that answers with the policy's (checked) addresses: what the socket connects to. */
function pinnedLookup(policy: AddressPolicy, checked: boolean): net.LookupFunction {
  return (hostname, options, callback) => {
    policy.resolveHost(hostname, { checked, url: `http://${hostname}/` }).then(
      (addresses) => {
        const wanted = (options as LookupOneOptions).family;
        const usable = wanted === 4 || wanted === 6 ? addresses.filter((a) => a.family === wanted) : addresses;
        if (usable.length === 0) {
          callback(Object.assign(new Error(`${hostname} has no IPv${String(wanted)} address`), { code: "ENOTFOUND" }), "", 0);
        } else if (options.all) {
          callback(
            null,
            usable.map((a): LookupAddress => ({ address: a.address, family: a.family })),
          );
        } else {
          callback(null, usable[0]!.address, usable[0]!.family);
        }
      },
      (err: unknown) => callback(err instanceof Error ? err : new Error(String(err)), "", 0),
    );
  };
}

/** `http://host:port/` of a connection; undici passes `host` as URL.host, the form trust is keyed by. */
function originOf(opts: buildConnector.Options): string {
  if (opts.host) return `${opts.protocol}//${opts.host}/`;
  const name = opts.hostname.includes(":") ? `[${opts.hostname}]` : opts.hostname;
  return `${opts.protocol}//${name}${opts.port ? `:${opts.port}` : ""}/`;
}

function toUrl(url: string | URL): URL {
  return typeof url === "string" ? new URL(url) : url;
}
