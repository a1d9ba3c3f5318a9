/**
 * Fetching a crawled post's image for an admin who chose to see it. The URL comes from hostile
 * HTML, so: http(s) only; public addresses only, as lib/net/address.ts classifies them (every
 * spelling the URL parser accepts, IPv4-mapped and IPv4-embedding IPv6 included; checked after
 * DNS, and again on every redirect; the connection goes to the address that was checked); a size
 * and time cap; raster image types only (an SVG served from this origin could run script if
 * opened directly).
 */
import http from "node:http";
import https from "node:https";
import net from "node:net";
import * as cheerio from "cheerio";
import type { Db } from "../lib/db";
import {
  AddressRefusedError,
  addressRange,
  createAddressPolicy,
  stripBrackets,
  systemResolver,
  type AddressPolicy,
  type ResolvedAddress,
  type Resolver,
} from "../lib/net/address";
import { allowInternalFromEnv } from "../lib/config";
import { safeHttpUrl } from "../lib/sanitize";

const MAX_BYTES = 5 * 1024 * 1024;
const TIMEOUT_MS = 10_000;
const ALLOWED_TYPES = /^image\/(png|jpeg|gif|webp|avif|bmp)$/;

/** The absolute source of the n-th image of a post's HTML, or null. */
export async function postImageUrl(db: Db, postId: number, n: number): Promise<string | null> {
  const post = await db.post.findUnique({ where: { id: postId }, select: { html: true, url: true } });
  if (!post) return null;
  const $ = cheerio.load(post.html, null, false);
  const src = $("img").eq(n).attr("src");
  return safeHttpUrl(src, post.url);
}

export class ImageFetchError extends Error {}

export type { ResolvedAddress } from "../lib/net/address";

/** Options of {@link fetchRemoteImage}; the defaults are what the dashboard uses. */
export interface ImageFetchOptions {
  /** Resolve a host name to its addresses. @default lib/net/address.ts systemResolver (dns.lookup, all addresses) */
  resolve?: Resolver;
  /**
   * Whether an address may be contacted. @default the address policy of lib/net/address.ts: public
   * addresses, and internal ones of {@link allowInternal}
   */
  allowAddress?: (ip: string) => boolean;
  /** Hosts and CIDR ranges allowed on internal addresses. @default CAMPUSWATCH_ALLOW_INTERNAL */
  allowInternal?: readonly string[];
  /** Largest image accepted. @default 5 MiB */
  maxBytes?: number;
  /** Time allowed for the whole fetch, redirects included. @default 10000 */
  timeoutMs?: number;
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: http.IncomingMessage;
}

/**
 * One request to `u`, connected to `address` (already checked) whatever the host name resolves
 * to by then: resolving again at connect time would let a DNS answer that changes between the
 * check and the connection (DNS rebinding) reach a private address.
 */
function requestPinned(u: URL, address: ResolvedAddress, signal: AbortSignal): Promise<Answer> {
  const lookup: net.LookupFunction = (_host, opts, cb) =>
    opts.all ? cb(null, [address]) : (cb as (e: Error | null, a: string, f: number) => void)(null, address.address, address.family);
  const host = stripBrackets(u.hostname);
  return new Promise((resolve, reject) => {
    const req = (u.protocol === "https:" ? https : http).request(
      u,
      // For https the certificate is still checked against the host name (servername).
      { method: "GET", lookup, signal, headers: { accept: "image/*" }, servername: net.isIP(host) ? undefined : host },
      (res) => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: res }),
    );
    req.on("error", reject);
    req.end();
  });
}

/** A refusal of the image host, naming the address and its range. */
const refusal = (address: string, range: string) => new ImageFetchError(`the image host is a private or local address (${address}: ${range})`);

/** The image host's addresses when the address policy allows them all. */
async function checkedByPolicy(policy: AddressPolicy, u: URL): Promise<ResolvedAddress[]> {
  try {
    return await policy.check(u);
  } catch (e) {
    if (e instanceof AddressRefusedError) throw refusal(e.address, e.range);
    if (e instanceof Error && / resolves to no address$/.test(e.message)) throw new ImageFetchError("the image host has no address");
    throw e;
  }
}

/** The image host's addresses when `allowed` admits every one (a test's own rule). */
async function checkedBy(allowed: (ip: string) => boolean, host: string, resolve: Resolver): Promise<ResolvedAddress[]> {
  const addresses: ResolvedAddress[] = net.isIP(host) ? [{ address: host, family: net.isIP(host) }] : await resolve(host);
  if (addresses.length === 0) throw new ImageFetchError("the image host has no address");
  // Every address must be allowed, not just the first: which one a client would use is not ours to pick.
  const refused = addresses.find((a) => !allowed(a.address));
  if (refused) throw refusal(refused.address, addressRange(refused.address));
  return addresses;
}

/** Fetch an image with the checks described at the top of this module. */
export async function fetchRemoteImage(url: string, options: ImageFetchOptions = {}): Promise<{ body: Uint8Array; contentType: string }> {
  const resolveHost = options.resolve ?? systemResolver;
  // The one address policy (what every outgoing request obeys), unless a test decides per address.
  const policy = createAddressPolicy({
    trustedHosts: [],
    allowInternal: options.allowInternal ?? allowInternalFromEnv(),
    resolve: resolveHost,
    refusalReason: "not in CAMPUSWATCH_ALLOW_INTERNAL",
  });
  const allowed = options.allowAddress;
  const maxBytes = options.maxBytes ?? MAX_BYTES;
  const signal = AbortSignal.timeout(options.timeoutMs ?? TIMEOUT_MS);
  let current = url;
  for (let hop = 0; hop < 4; hop++) {
    const u = new URL(current);
    if (u.protocol !== "http:" && u.protocol !== "https:") throw new ImageFetchError("not an http(s) URL");
    // The WHATWG parser already turned 2130706433, 0177.0.0.1 and 0x7f.1 into 127.0.0.1.
    const host = stripBrackets(u.hostname);
    const addresses = allowed ? await checkedBy(allowed, host, resolveHost) : await checkedByPolicy(policy, u);
    const res = await requestPinned(u, addresses[0]!, signal);
    if (res.status >= 300 && res.status < 400 && res.headers.location) {
      res.body.resume();
      current = new URL(res.headers.location, u).toString();
      continue;
    }
    try {
      if (res.status < 200 || res.status >= 300) throw new ImageFetchError(`the image host answered ${res.status}`);
      const contentType = (res.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
      if (!ALLOWED_TYPES.test(contentType)) throw new ImageFetchError(`not a raster image (${contentType || "no type"})`);
      if (Number(res.headers["content-length"] ?? 0) > maxBytes) throw new ImageFetchError("image too large");
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        size += chunk.byteLength;
        if (size > maxBytes) throw new ImageFetchError("image too large");
        chunks.push(chunk);
      }
      return { body: new Uint8Array(Buffer.concat(chunks, size)), contentType };
    } finally {
      res.body.destroy();
    }
  }
  throw new ImageFetchError("too many redirects");
}
