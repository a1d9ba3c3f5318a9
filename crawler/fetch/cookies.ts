/**
 * The cookie jar of one fetcher (= one account), so each account keeps its own session: forum
 * session cookies, Weibo's visitor cookies copied from Chromium, and the login cookies an operator
 * gave the account (lib/cookies). RFC 6265 is tough-cookie's: Domain, Path, Expires/Max-Age,
 * Secure, and the public-suffix list, so a server cannot set a cookie for `com.cn` or for a site
 * it is not, and a cookie is only ever sent to the hosts it belongs to.
 */
import { Cookie as ToughCookie, CookieJar as ToughJar, MemoryCookieStore } from "tough-cookie";
import type { Cookie } from "../../lib/cookies/cookie";

// The shape of one stored cookie lives below the crawler (the login-cookie import needs it too).
export type { Cookie } from "../../lib/cookies/cookie";

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

/** Cookies of one account: remembered from Set-Cookie (or Chromium, or the operator) and sent back where they apply. */
export class CookieJar {
  // A synchronous store: every call below is synchronous, so headers are built without awaiting.
  private readonly jar = new ToughJar(new MemoryCookieStore(), { allowSpecialUseDomain: true, rejectPublicSuffixes: true });
  /**
   * Whether a cookie was ever offered to the jar. Most accounts never get one (public boards and
   * bars), and asking tough-cookie for the header of each request was 1.7% of a crawl's CPU.
   */
  private offered = false;

  /** Remember the Set-Cookie headers of a response from `url`; a header the RFC refuses is ignored. */
  setFromResponse(url: string, setCookies: readonly string[]): void {
    for (const header of setCookies) {
      this.offered = true;
      try {
        this.jar.setCookieSync(header, url, { ignoreError: true });
      } catch {
        // Malformed or refused (another site's domain, a public suffix): dropped, like a browser does.
      }
    }
  }

  /** Add (or with a past expiry, remove) one cookie. */
  put(cookie: Cookie): void {
    const tough = toTough(cookie);
    const url = `${cookie.secure ? "https" : "http"}://${cookie.domain}${cookie.path.startsWith("/") ? cookie.path : "/"}`;
    this.offered = true;
    try {
      this.jar.setCookieSync(tough, url, { ignoreError: true });
    } catch {
      // A cookie for a public suffix: never stored.
    }
  }

  /** The Cookie header value to send to `url`, or undefined when no cookie applies. */
  headerFor(url: string): string | undefined {
    if (!this.offered) return undefined;
    let header: string;
    try {
      header = this.jar.getCookieStringSync(url);
    } catch {
      return undefined;
    }
    return header === "" ? undefined : header;
  }

  /** Every live cookie, e.g. to seed a browser context. */
  all(): Cookie[] {
    const now = Date.now();
    const out: Cookie[] = [];
    const serialized = this.jar.serializeSync();
    for (const json of serialized?.cookies ?? []) {
      const c = ToughCookie.fromJSON(json);
      if (!c || !c.domain) continue;
      const expiry = c.expiryTime();
      if (expiry !== undefined && expiry !== Infinity && expiry <= now) continue;
      out.push(fromTough(c));
    }
    return out;
  }

  /** Take cookies from a browser context (Weibo's visitor cookies are set by script in Chromium). */
  importBrowserCookies(cookies: readonly BrowserCookie[]): number {
    for (const c of cookies) {
      this.put({
        name: c.name,
        value: c.value,
        domain: c.domain.replace(/^\./, "").toLowerCase(),
        hostOnly: !c.domain.startsWith("."),
        path: c.path || "/",
        expires: c.expires > 0 ? c.expires * 1000 : undefined,
        secure: c.secure,
      });
    }
    return cookies.length;
  }
}

/** Parse one Set-Cookie header received from `url`; undefined when malformed or not allowed there. */
export function parseSetCookie(header: string, url: URL): Cookie | undefined {
  const jar = new CookieJar();
  jar.setFromResponse(url.href, [header]);
  return jar.all()[0];
}

function toTough(c: Cookie): ToughCookie {
  return new ToughCookie({
    key: c.name,
    value: c.value,
    domain: c.domain,
    hostOnly: c.hostOnly,
    path: c.path || "/",
    secure: c.secure,
    httpOnly: c.httpOnly ?? false,
    // A past expiry is kept as such: tough-cookie then removes the cookie, as RFC 6265 says.
    expires: c.expires === undefined ? "Infinity" : new Date(c.expires),
  });
}

function fromTough(c: ToughCookie): Cookie {
  const expiry = c.expiryTime();
  return {
    name: c.key,
    value: c.value,
    domain: (c.domain ?? "").replace(/^\./, "").toLowerCase(),
    hostOnly: c.hostOnly === true,
    path: c.path ?? "/",
    expires: expiry === undefined || expiry === Infinity ? undefined : expiry,
    secure: c.secure,
    httpOnly: c.httpOnly,
  };
}
