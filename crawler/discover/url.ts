/**
 * URL normalization and "site" identity for discovery. Two spellings of one page must map to one
 * frontier entry, otherwise the crawl fetches it twice and the harvest rate counts it twice.
 */

/**
 * Query parameters that only track where a click came from. They change the URL, never the page,
 * so they are dropped (a link shared from Weibo and one from a newsletter are the same article).
 */
const TRACKING_PARAMS = /^(utm_[a-z]+|spm|from|share_source|share_medium|share_plat|wfr|fr|isappinstalled|scene|clicktime|_hsenc|_hsmi|gclid|fbclid)$/i;

/**
 * The canonical form of a link target, or null when it cannot be crawled: resolved against
 * `base`, http(s) only, fragment dropped, host lower-cased, default port dropped, dot segments
 * resolved, tracking parameters dropped and the remaining parameters sorted (order never changes
 * what a server returns in practice, and sorting turns `?a=1&b=2` and `?b=2&a=1` into one entry).
 */
export function normalizeUrl(href: string, base?: string | URL): string | null {
  const raw = href.trim();
  if (raw === "" || /^(javascript|mailto|tel|data|ftp|file):/i.test(raw)) return null;
  let u: URL;
  try {
    u = base === undefined ? new URL(raw) : new URL(raw, base);
  } catch {
    return null;
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") return null;
  if (!u.hostname) return null;
  u.hash = "";
  u.username = "";
  u.password = "";
  // WHATWG URL already lower-cases the host, drops default ports and resolves "/a/../b".
  const params = [...u.searchParams].filter(([k]) => !TRACKING_PARAMS.test(k));
  params.sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
  u.search = params.length === 0 ? "" : new URLSearchParams(params).toString();
  // Collapse "//" runs in the path: CMS templates often emit them and servers ignore them.
  u.pathname = u.pathname.replace(/\/{2,}/g, "/");
  return u.href;
}

/**
 * Second-level labels under which Chinese (and a few other) registries sell names: for
 * `bbs.nju.edu.cn` the site is `nju.edu.cn`, not `edu.cn`. A public-suffix list would be exact;
 * this short list covers the domains campus monitoring meets, without another dependency.
 */
const SECOND_LEVEL = new Set(["com", "edu", "gov", "net", "org", "ac", "co", "mil"]);

/**
 * The site a URL belongs to: its registrable domain (`www.nju.edu.cn` and `bbs.nju.edu.cn` are
 * one site, `nju.edu.cn`), an IP address as is, plus a non-default port (two local servers on one
 * address are two sites). Used for the same-site restriction, the block rules' on-site ratio and
 * candidate accounts.
 */
export function siteOf(url: string | URL): string {
  const u = typeof url === "string" ? new URL(url) : url;
  const host = u.hostname.toLowerCase();
  const port = u.port ? `:${u.port}` : "";
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.startsWith("[")) return host + port;
  const labels = host.split(".").filter(Boolean);
  if (labels.length <= 2) return labels.join(".") + port;
  const tld = labels[labels.length - 1] as string;
  const second = labels[labels.length - 2] as string;
  const keep = tld.length === 2 && SECOND_LEVEL.has(second) ? 3 : 2;
  return labels.slice(-keep).join(".") + port;
}

/** True when `url` is on one of `sites` (as given by {@link siteOf}). */
export function onSites(url: string, sites: ReadonlySet<string>): boolean {
  try {
    return sites.has(siteOf(url));
  } catch {
    return false;
  }
}
