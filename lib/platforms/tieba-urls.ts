/**
 * Which bar a Tieba URL names, and the desktop list URL the adapter crawls for it.
 *
 * People paste what their phone shows. The forms seen in the wild for one bar:
 * - desktop: `https://tieba.baidu.com/f?kw={bar}&ie=utf-8` (also `&fr=…`, `&pn=…`);
 * - mobile web: `https://tieba.baidu.com/mo/q/m?kw={bar}&lp=5024&…`, with `word=` instead of `kw=`
 *   from search results; old WAP `https://tieba.baidu.com/mo/m?kw={bar}`;
 * - other hosts of the same site: `wapp.baidu.com/f?kw=` (and its `/f/q-…/m?kw=` paths),
 *   `c.tieba.baidu.com/mo/q/m?kw=` and `c.tieba.baidu.com/f/frs?kw=` (the client's host),
 *   `jump2.bdimg.com/f?kw=`, `dq.tieba.com/f?kw=`;
 * - old links encode the bar in GBK (`/f?kw=%D6%D0%B9%FA`: Tieba's default `ie` was gbk).
 * Every one of them is crawled as the desktop list on tieba.baidu.com, the only form the adapter
 * reads. A local copy of the platform (any other host) keeps its own origin.
 */
// No Node built-ins or iconv here: the platform registry (./index.ts) uses these recognisers and
// is imported by client components. TextDecoder knows GBK in browsers and in Node (full ICU).

/** Hosts that serve Tieba under another name; a bar on them is crawled on tieba.baidu.com. */
const TIEBA_HOST = /(^|\.)(tieba\.baidu\.com|tieba\.com|wapp\.baidu\.com|jump2\.bdimg\.com)$/i;

/** Paths that show one bar's thread list, given `kw=` or `word=`. */
const BAR_PATH = /^\/(f|f\/frs|mo\/q\/m|mo\/m|mo\/q\/frs|f\/q-[^/]*\/m|m)\/?$/i;

/** True for a host that is Tieba itself (or one of its other names). */
export function isTiebaHost(hostname: string): boolean {
  return TIEBA_HOST.test(hostname);
}

/**
 * The bar a URL names (`kw=` or `word=` on a list path), decoded, or null when the URL is not a
 * bar list (a thread `/p/{tid}`, a user page, another site's page).
 */
export function tiebaBarFromUrl(url: URL): string | null {
  if (!BAR_PATH.test(url.pathname)) return null;
  const raw = rawParam(url.search, "kw") ?? rawParam(url.search, "word");
  if (raw === null) return null;
  const bar = decodeBar(raw, url.searchParams.get("ie")).replace(/\s+/g, " ").trim();
  return bar === "" ? null : bar;
}

/**
 * The desktop list URL of the bar `url` names (`https://tieba.baidu.com/f?kw=…&ie=utf-8`), or null
 * when the URL names no bar. Tieba's own hosts map to https://tieba.baidu.com; another host (a
 * local copy of the platform) keeps its origin.
 */
export function tiebaDesktopListUrl(url: URL): string | null {
  const bar = tiebaBarFromUrl(url);
  if (bar === null) return null;
  const origin = isTiebaHost(url.hostname) ? "https://tieba.baidu.com" : url.origin;
  return `${origin}/f?kw=${encodeURIComponent(bar)}&ie=utf-8`;
}

/** The still-percent-encoded value of a query parameter (so GBK bytes can be told apart). */
function rawParam(search: string, name: string): string | null {
  for (const pair of search.replace(/^\?/, "").split("&")) {
    const eq = pair.indexOf("=");
    const key = eq === -1 ? pair : pair.slice(0, eq);
    if (key === name) return eq === -1 ? "" : pair.slice(eq + 1);
  }
  return null;
}

/**
 * Decode a bar name: UTF-8 unless it is not valid UTF-8 and the URL does not say `ie=utf-8`,
 * in which case it is GBK (old links, and Tieba's own default before it moved to UTF-8).
 */
function decodeBar(raw: string, ie: string | null): string {
  const bytes = percentBytes(raw.replace(/\+/g, " "));
  const utf8 = new TextDecoder("utf-8", { fatal: false }).decode(bytes);
  if (!utf8.includes("\ufffd") || /^utf-?8$/i.test(ie ?? "")) return utf8;
  return new TextDecoder("gbk").decode(bytes);
}

const UTF8 = new TextEncoder();

function percentBytes(s: string): Uint8Array {
  const out: number[] = [];
  // Split keeps the "%XX" escapes as their own pieces; the rest is literal text (UTF-8).
  for (const piece of s.split(/(%[0-9a-f]{2})/i)) {
    if (/^%[0-9a-f]{2}$/i.test(piece)) out.push(parseInt(piece.slice(1), 16));
    else out.push(...UTF8.encode(piece));
  }
  return Uint8Array.from(out);
}

/**
 * The entry URL to store for a Tieba bar URL someone registers: the desktop list when they gave
 * a mobile form, another host's form or a GBK-encoded bar; null when the URL is already the
 * desktop list (kept exactly as given) or names no bar.
 */
export function tiebaEntryUrl(url: URL): string | null {
  const desktop = tiebaDesktopListUrl(url);
  if (desktop === null) return null;
  const onDesktopHost = !isTiebaHost(url.hostname) || url.hostname.toLowerCase() === "tieba.baidu.com";
  const plainKw = url.searchParams.get("kw") === tiebaBarFromUrl(url);
  return onDesktopHost && url.pathname === "/f" && plainKw ? null : desktop;
}
