/**
 * Fetching a crawled post's image for an admin who chose to see it. The URL comes from hostile
 * HTML, so: http(s) only, no private or local addresses (checked after DNS, and again on every
 * redirect), a size and time cap, raster image types only (an SVG served from this origin could
 * run script if opened directly).
 */
import dns from "node:dns/promises";
import net from "node:net";
import * as cheerio from "cheerio";
import type { Db } from "../db";
import { safeHttpUrl } from "../sanitize";

const MAX_BYTES = 5 * 1024 * 1024;
const TIMEOUT_MS = 10_000;
const ALLOWED_TYPES = /^image\/(png|jpeg|gif|webp|avif|bmp)$/;

/** True for loopback, private, link-local, CGNAT, multicast and reserved addresses (v4 and v6). */
export function isPrivateAddress(ip: string): boolean {
  if (net.isIPv4(ip)) {
    const [a, b] = ip.split(".").map(Number) as [number, number];
    return (
      a === 0 || a === 10 || a === 127 || a >= 224 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127) || (a === 198 && (b === 18 || b === 19))
    );
  }
  const v6 = ip.toLowerCase();
  if (v6.startsWith("::ffff:")) return isPrivateAddress(v6.slice(7));
  return v6 === "::" || v6 === "::1" || v6.startsWith("fc") || v6.startsWith("fd") || v6.startsWith("fe8") || v6.startsWith("fe9") || v6.startsWith("fea") || v6.startsWith("feb") || v6.startsWith("ff");
}

/** The absolute source of the n-th image of a post's HTML, or null. */
export async function postImageUrl(db: Db, postId: number, n: number): Promise<string | null> {
  const post = await db.post.findUnique({ where: { id: postId }, select: { html: true, url: true } });
  if (!post) return null;
  const $ = cheerio.load(post.html, null, false);
  const src = $("img").eq(n).attr("src");
  return safeHttpUrl(src, post.url);
}

export class ImageFetchError extends Error {}

/** Fetch an image with the checks above. */
export async function fetchRemoteImage(url: string): Promise<{ body: Uint8Array; contentType: string }> {
  let current = url;
  for (let hop = 0; hop < 4; hop++) {
    const u = new URL(current);
    if (u.protocol !== "http:" && u.protocol !== "https:") throw new ImageFetchError("not an http(s) URL");
    const host = u.hostname.replace(/^\[|\]$/g, "");
    const addresses = net.isIP(host) ? [{ address: host }] : await dns.lookup(host, { all: true });
    if (addresses.length === 0 || addresses.some((a) => isPrivateAddress(a.address))) throw new ImageFetchError("the image host is a private or local address");
    const res = await fetch(u, { redirect: "manual", signal: AbortSignal.timeout(TIMEOUT_MS), headers: { accept: "image/*" } });
    if (res.status >= 300 && res.status < 400 && res.headers.get("location")) {
      current = new URL(res.headers.get("location")!, u).toString();
      continue;
    }
    if (!res.ok) throw new ImageFetchError(`the image host answered ${res.status}`);
    const contentType = (res.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
    if (!ALLOWED_TYPES.test(contentType)) throw new ImageFetchError(`not a raster image (${contentType || "no type"})`);
    const length = Number(res.headers.get("content-length") ?? 0);
    if (length > MAX_BYTES) throw new ImageFetchError("image too large");
    const reader = res.body?.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    while (reader) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > MAX_BYTES) {
        await reader.cancel();
        throw new ImageFetchError("image too large");
      }
      chunks.push(value);
    }
    const body = new Uint8Array(size);
    let off = 0;
    for (const c of chunks) {
      body.set(c, off);
      off += c.byteLength;
    }
    return { body, contentType };
  }
  throw new ImageFetchError("too many redirects");
}
