/**
 * Weibo (微博): a user's timeline, read through the mobile JSON API (crawler/adapters/weibo).
 * Entry URLs name a user: `/u/{uid}`, `/p/100505{uid}`, and on Weibo's hosts `/{uid}`, `?uid=`.
 */
import { onHosts } from "./hosts";
import type { PlatformEntry } from "./types";

/** Weibo's own hosts (weibo.com, weibo.cn and their subdomains). */
export const WEIBO_HOSTS = /(^|\.)weibo\.(com|cn)$/i;

/** The uid in an entry URL: `/u/{uid}`, `/p/100505{uid}`, `/{uid}` (Weibo hosts), `?uid=` / `?value=`. */
export function weiboUidFromUrl(url: URL): string | null {
  const path = url.pathname;
  let m = /^\/u\/(\d{5,})/.exec(path) ?? /^\/p\/100505(\d{5,})/.exec(path);
  if (m?.[1]) return m[1];
  if (WEIBO_HOSTS.test(url.hostname)) {
    m = /^\/(\d{5,})(?:\/|$)/.exec(path);
    if (m?.[1]) return m[1];
    const q = url.searchParams.get("uid") ?? url.searchParams.get("value");
    if (q && /^\d{5,}$/.test(q)) return q;
  }
  return null;
}

export const weibo = {
  id: "weibo",
  shapeLabel: "Weibo user",
  colours: { chart: "#d9363e", badgeText: "#c6262e", badgeBackground: "#fdecec" },
  defaultCron: "*/10 * * * *",
  recognise: (url) => {
    if (WEIBO_HOSTS.test(url.hostname)) return true;
    return /^\/u\/\d{5,}\/?$/.test(url.pathname) || /^\/p\/100505\d{5,}\/?$/.test(url.pathname);
  },
  isEntryUrl: (url) => weiboUidFromUrl(url) !== null,
  normaliseEntryUrl: () => null,
  entryUrlForms: [
    "https://weibo.com/u/1234567890",
    "https://weibo.com/1234567890",
    "https://m.weibo.cn/u/1234567890",
    "https://m.weibo.cn/p/1005051234567890",
    "https://weibo.cn/1234567890",
  ],
  candidateOf: (url) => {
    const uid = weiboUidFromUrl(url);
    return uid ? { url: `${url.origin}/u/${uid}`, name: `Weibo ${uid}` } : null;
  },
  // A mid is unique across Weibo, so a user's timeline and a search reach the same post.
  siteKey: (url) => (onHosts(url.hostname.toLowerCase(), ["weibo.com", "weibo.cn"]) ? "weibo" : `weibo:${url.origin}`),
  cookieDomains: ["weibo.com", "weibo.cn", "sina.com.cn"],
  features: { replies: true, subReplies: true, deletions: true, keywordWatch: "word", cookies: true },
  fallback: false,
} as const satisfies PlatformEntry<"weibo">;
