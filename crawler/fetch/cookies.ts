/**
 * A small in-memory cookie jar, one per fetcher (= per account), so each account keeps its own
 * session: forum session cookies, and Weibo's visitor cookies copied from Chromium. It implements
 * the parts of RFC 6265 crawling needs (Domain, Path, Expires/Max-Age, Secure) and nothing more:
 * no public-suffix list, so a Domain attribute is only accepted when it domain-matches the host
 * that set it.
 */

/** One stored cookie. */
export interface Cookie {
  name: string;
  value: string;
  /** Lower-case domain without a leading dot. */
  domain: string;
  /** True when set without a Domain attribute: sent to exactly that host only. */
  hostOnly: boolean;
  path: string;
  /** Expiry in ms since epoch; undefined for a session cookie (lives as long as the jar). */
  expires?: number;
  secure: boolean;
}

/** A cookie as Playwright's BrowserContext.cookies() returns it (the fields we use). */
export interface BrowserCookie {
  name: string;
  value: string;
  domain: string;
  path: string;
  /** Seconds since epoch, -1 for a session cookie. */
  expires: number;
  secure: boolean;
}

/** Cookies of one account: remembered from Set-Cookie (or Chromium) and sent back where they apply. */
export class CookieJar {
  private readonly cookies = new Map<string, Cookie>();

  /** Remember the Set-Cookie headers of a response from `url`. */
  setFromResponse(url: string, setCookies: readonly string[]): void {
    const u = new URL(url);
    for (const header of setCookies) {
      const cookie = parseSetCookie(header, u);
      if (cookie) this.put(cookie);
    }
  }

  /** Add (or with a past expiry, remove) one cookie. */
  put(cookie: Cookie): void {
    const key = `${cookie.domain};${cookie.path};${cookie.name}`;
    if (cookie.expires !== undefined && cookie.expires <= Date.now()) this.cookies.delete(key);
    else this.cookies.set(key, cookie);
  }

  /** The Cookie header value to send to `url`, or undefined when no cookie applies. */
  headerFor(url: string): string | undefined {
    const u = new URL(url);
    const host = u.hostname.toLowerCase();
    const now = Date.now();
    const matching = [...this.cookies.values()].filter(
      (c) =>
        (c.expires === undefined || c.expires > now) &&
        (c.hostOnly ? host === c.domain : domainMatches(host, c.domain)) &&
        pathMatches(u.pathname, c.path) &&
        (!c.secure || u.protocol === "https:"),
    );
    if (matching.length === 0) return undefined;
    // RFC 6265 §5.4: longer paths first, so the most specific cookie wins on servers that take the first.
    matching.sort((a, b) => b.path.length - a.path.length);
    return matching.map((c) => `${c.name}=${c.value}`).join("; ");
  }

  /** Every live cookie, e.g. to seed a browser context. */
  all(): Cookie[] {
    const now = Date.now();
    return [...this.cookies.values()].filter((c) => c.expires === undefined || c.expires > now);
  }

  /** Take cookies from a browser context (Weibo's visitor cookies are set by script in Chromium). */
  importBrowserCookies(cookies: readonly BrowserCookie[]): number {
    for (const c of cookies) {
      const hostOnly = !c.domain.startsWith(".");
      this.put({
        name: c.name,
        value: c.value,
        domain: c.domain.replace(/^\./, "").toLowerCase(),
        hostOnly,
        path: c.path || "/",
        expires: c.expires > 0 ? c.expires * 1000 : undefined,
        secure: c.secure,
      });
    }
    return cookies.length;
  }
}

/** Parse one Set-Cookie header received from `url`; undefined when malformed or not allowed. */
export function parseSetCookie(header: string, url: URL): Cookie | undefined {
  const [pair = "", ...attrs] = header.split(";");
  const eq = pair.indexOf("=");
  if (eq <= 0) return undefined;
  const name = pair.slice(0, eq).trim();
  const value = pair.slice(eq + 1).trim().replace(/^"(.*)"$/, "$1");
  if (!name) return undefined;
  const host = url.hostname.toLowerCase();
  const cookie: Cookie = { name, value, domain: host, hostOnly: true, path: defaultPath(url.pathname), secure: false };
  let maxAge: number | undefined;
  let expires: number | undefined;
  for (const attr of attrs) {
    const i = attr.indexOf("=");
    const key = (i < 0 ? attr : attr.slice(0, i)).trim().toLowerCase();
    const val = i < 0 ? "" : attr.slice(i + 1).trim();
    if (key === "domain" && val) {
      const domain = val.replace(/^\./, "").toLowerCase();
      // A host may only set cookies for itself or a parent domain, never for an unrelated site.
      if (!domainMatches(host, domain)) return undefined;
      cookie.domain = domain;
      cookie.hostOnly = false;
    } else if (key === "path" && val.startsWith("/")) {
      cookie.path = val;
    } else if (key === "max-age" && /^-?\d+$/.test(val)) {
      maxAge = Number(val);
    } else if (key === "expires") {
      const t = Date.parse(val);
      if (!Number.isNaN(t)) expires = t;
    } else if (key === "secure") {
      cookie.secure = true;
    }
  }
  // Max-Age wins over Expires (RFC 6265 §5.3 step 3).
  if (maxAge !== undefined) cookie.expires = maxAge <= 0 ? 0 : Date.now() + maxAge * 1000;
  else if (expires !== undefined) cookie.expires = expires;
  return cookie;
}

function domainMatches(host: string, domain: string): boolean {
  return host === domain || host.endsWith(`.${domain}`);
}

function pathMatches(requestPath: string, cookiePath: string): boolean {
  if (requestPath === cookiePath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith("/") || requestPath[cookiePath.length] === "/";
}

function defaultPath(pathname: string): string {
  const i = pathname.lastIndexOf("/");
  return i <= 0 ? "/" : pathname.slice(0, i);
}
