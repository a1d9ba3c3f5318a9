/**
 * Blogs (博客): any other http(s) site, read through its feed or its pages (crawler/adapters/blog).
 * The fallback platform: it takes every http(s) URL, so it is tried last.
 */
import type { PlatformEntry } from "./types";

export const blog = {
  id: "blog",
  shapeLabel: "blog",
  colours: { chart: "#8250df", badgeText: "#6a3fb0", badgeBackground: "#f4eefc" },
  defaultCron: "0 * * * *",
  recognise: (url) => url.protocol === "http:" || url.protocol === "https:",
  isEntryUrl: () => true,
  normaliseEntryUrl: () => null,
  entryUrlForms: ["https://blog.example.edu.cn/someone/"],
  candidateOf: (url) => ({ url: `${url.origin}/`, name: url.host }),
  /**
   * Its own entry URL: blogs are not merged across accounts. One origin often hosts many blogs (a
   * campus blog platform, WordPress multisite) whose comment ids are numbers per installation.
   */
  siteKey: (url) => {
    const u = new URL(url.href);
    u.hash = "";
    return `blog:${u.href}`;
  },
  cookieDomains: [],
  features: { replies: true, subReplies: true, deletions: true, keywordWatch: null, cookies: true },
  fallback: true,
} as const satisfies PlatformEntry<"blog">;
