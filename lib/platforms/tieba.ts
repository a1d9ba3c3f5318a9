/**
 * Baidu Tieba (贴吧): a bar's thread list (crawler/adapters/tieba). Entry URLs name a bar in any
 * form people paste (./tieba-urls.ts); each is stored as the desktop list.
 */
import { onHosts } from "./hosts";
import { isTiebaHost, tiebaBarFromUrl, tiebaEntryUrl } from "./tieba-urls";
import type { PlatformEntry } from "./types";

export const tieba = {
  id: "tieba",
  shapeLabel: "Tieba bar",
  colours: { chart: "#2f6fd6", badgeText: "#2559b5", badgeBackground: "#e8f0fc" },
  defaultCron: "*/15 * * * *",
  recognise: (url) => {
    if (isTiebaHost(url.hostname)) return true;
    // Another host (a local copy): the bar list's path shapes, desktop or mobile.
    return tiebaBarFromUrl(url) !== null && /^\/(f|mo\/q\/m|mo\/m)\/?$/.test(url.pathname);
  },
  isEntryUrl: (url) => tiebaBarFromUrl(url) !== null,
  normaliseEntryUrl: (url) => tiebaEntryUrl(url),
  entryUrlForms: ["https://tieba.baidu.com/f?kw=北江大学", "https://tieba.baidu.com/mo/q/m?kw=北江大学", "https://wapp.baidu.com/f?kw=北江大学"],
  // A thread URL (`/p/{tid}`) does not name its bar and is not counted.
  candidateOf: (url) => {
    const kw = url.searchParams.get("kw");
    return kw ? { url: `${url.origin}/f?kw=${encodeURIComponent(kw)}`, name: `${kw}吧` } : null;
  },
  // Thread and post ids are unique across all bars.
  siteKey: (url) => (onHosts(url.hostname.toLowerCase(), ["baidu.com"]) ? "tieba" : `tieba:${url.origin}`),
  cookieDomains: ["baidu.com"],
  features: { replies: true, subReplies: true, deletions: true, keywordWatch: "bar", cookies: true },
  fallback: false,
} as const satisfies PlatformEntry<"tieba">;
