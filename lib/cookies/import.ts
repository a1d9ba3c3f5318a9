/**
 * Login cookies an operator gives an account, read from what a browser hands out:
 *
 * - a `Cookie:` request header value copied from the developer tools (`SUB=…; SUBP=…`), which
 *   carries no domain: the cookies are scoped to the account's site ({@link cookieDomainsFor});
 * - a Netscape `cookies.txt` (curl, wget, yt-dlp and the "Get cookies.txt" extensions), seven
 *   tab-separated fields per line, `#HttpOnly_` prefix included;
 * - a JSON export: an array of `{name, value, domain, path, secure, hostOnly, expirationDate}`
 *   (Cookie-Editor, EditThisCookie) or Playwright's storage state `{cookies: [...]}`.
 *
 * A browser's export holds every site's cookies: only those of the account's site are kept, and
 * the others are counted (never stored). Every refusal says which line or entry and why.
 */
import { getPublicSuffix } from "tough-cookie";
import { platformEntry, type Platform } from "../platforms";
import type { Cookie } from "./cookie";

/** The formats {@link parseCookieInput} reads. */
export type CookieFormat = "header" | "netscape" | "json";

/** What an import kept and what it left out. */
export interface ParsedCookies {
  format: CookieFormat;
  cookies: Cookie[];
  /** Cookies of other sites in the input, by domain (not kept). */
  skipped: Record<string, number>;
  /** Cookies already expired (not kept). */
  expired: number;
}

/** Input that is not a cookie list, with the line or entry at fault. */
export class CookieInputError extends Error {
  override name = "CookieInputError";
  /**
   * @param message English, for the CLI.
   * @param code The refusal as a key of the dashboard's `accounts.cookies.errors` messages, with `values`.
   */
  constructor(
    message: string,
    readonly code: string,
    readonly values: Record<string, string | number> = {},
  ) {
    super(message);
  }
}

/**
 * Where a bad cookie is: the n-th cookie of a header, line n of cookies.txt, entry n of a JSON
 * list (`line`: the line that entry starts on, so that an editor finds it).
 */
interface Where {
  kind: "cookie" | "line" | "entry";
  n: number;
  line?: number;
}
const at = (w: Where) => `${w.kind} ${w.n}${w.kind === "entry" && w.line !== undefined ? ` (line ${w.line})` : ""}`;

/**
 * The latest expiry accepted, in seconds since 1970: the end of year 9999. Anything later (`1e308`,
 * a millisecond value taken for seconds) is not a date a browser wrote, and would overflow the
 * dates the dashboard shows.
 */
export const MAX_COOKIE_EXPIRY_SECONDS = 253_402_300_799;

/** Largest input accepted (a whole browser's cookies.txt is rarely over 100 KB). */
export const MAX_COOKIE_INPUT_BYTES = 512 * 1024;
/** Most cookies kept for one account. */
export const MAX_ACCOUNT_COOKIES = 300;

// RFC 6265 §4.1.1: a cookie name is a token; a value has no controls, whitespace, `"`, `,`, `;` or `\`.
const NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const VALUE = /^[\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]*$/;

/**
 * The registrable domains whose cookies an account may use: its entry host's (`bbs.x.edu.cn` →
 * `x.edu.cn`), plus the platform's other sites (Weibo's API is on `m.weibo.cn` for a `weibo.com`
 * entry; Tieba's login is Baidu's: the registry entry's `cookieDomains`, lib/platforms). An IP
 * address or single-label host stands for itself.
 */
export function cookieDomainsFor(entryUrl: string, platform: Platform): string[] {
  const host = new URL(entryUrl).hostname.toLowerCase().replace(/^\[|\]$/g, "");
  const own = registrable(host);
  // Local copies of the platforms (an address, localhost) are their own site and nothing more.
  const extra = !isPublic(host) ? [] : platformEntry(platform).cookieDomains;
  return [...new Set([own, ...extra])];
}

/** A host name that is on the public internet's naming (not an address, not `localhost`). */
function isPublic(host: string): boolean {
  return host.includes(".") && !/^[\d.]+$/.test(host) && !host.includes(":");
}

function registrable(host: string): string {
  if (!isPublic(host)) return host;
  return getPublicSuffix(host, { allowSpecialUseDomain: true }) ?? host;
}

/** True when `domain` (a cookie's) is one of `allowed` or below one. */
function within(domain: string, allowed: readonly string[]): boolean {
  return allowed.some((d) => domain === d || domain.endsWith(`.${d}`));
}

/**
 * Read pasted or uploaded cookies for an account whose entry URL is `entryUrl`. The format is
 * recognised from the text. Throws {@link CookieInputError} when nothing usable is found or a
 * line is malformed.
 */
export function parseCookieInput(text: string, account: { entryUrl: string; platform: Platform }, now = Date.now()): ParsedCookies {
  if (Buffer.byteLength(text, "utf8") > MAX_COOKIE_INPUT_BYTES)
    throw new CookieInputError(`the cookie input is larger than ${MAX_COOKIE_INPUT_BYTES / 1024} KiB`, "tooLarge", { kib: MAX_COOKIE_INPUT_BYTES / 1024 });
  // Line numbers count from the text as given: only the BOM goes before the formats are read.
  const body = text.replace(/^\uFEFF/, "");
  const input = body.trim();
  if (input === "") throw new CookieInputError("no cookies given", "empty");
  const allowed = cookieDomainsFor(account.entryUrl, account.platform);
  const entryHost = new URL(account.entryUrl).hostname.toLowerCase();
  let format: CookieFormat;
  let all: Cookie[];
  if (input.startsWith("[") || input.startsWith("{")) {
    format = "json";
    all = parseJson(body);
  } else if (/^#\s*(Netscape )?HTTP Cookie File/i.test(input) || input.split(/\r?\n/).some((l) => l.split("\t").length >= 3)) {
    format = "netscape";
    all = parseNetscape(body);
  } else {
    format = "header";
    // A header names no domain: the cookies go to the account's own site (and its subdomains).
    const domain = registrable(entryHost);
    all = parseHeader(input).map((c) => ({ ...c, domain, hostOnly: !isPublic(entryHost) }));
  }
  const skipped: Record<string, number> = {};
  let expired = 0;
  const cookies: Cookie[] = [];
  for (const c of all) {
    if (!within(c.domain, allowed)) {
      skipped[c.domain] = (skipped[c.domain] ?? 0) + 1;
      continue;
    }
    if (c.expires !== undefined && c.expires <= now) {
      expired++;
      continue;
    }
    cookies.push(c);
  }
  if (cookies.length === 0) {
    const others = Object.keys(skipped);
    const found = `${others.slice(0, 5).join(", ")}${others.length > 5 ? ", …" : ""}`;
    if (others.length > 0)
      throw new CookieInputError(`none of the cookies is for ${allowed.join(" or ")} (found: ${found})`, "otherSites", { allowed: allowed.join(", "), found });
    if (expired > 0)
      throw new CookieInputError(`all ${expired} cookies have expired: sign in again in the browser and export them anew`, "allExpired", { count: expired });
    throw new CookieInputError("no cookies found", "empty");
  }
  if (cookies.length > MAX_ACCOUNT_COOKIES)
    throw new CookieInputError(`${cookies.length} cookies for one account: at most ${MAX_ACCOUNT_COOKIES}`, "tooMany", {
      count: cookies.length,
      max: MAX_ACCOUNT_COOKIES,
    });
  return { format, cookies, skipped, expired };
}

function checkPair(name: string, value: string, where: Where): void {
  if (!NAME.test(name))
    throw new CookieInputError(`${at(where)}: ${JSON.stringify(name.slice(0, 40))} is not a cookie name`, "badName", { ...where, name: name.slice(0, 40) });
  if (!VALUE.test(value)) throw new CookieInputError(`${at(where)}: the value of ${name} has characters a cookie cannot carry`, "badValue", { ...where, name });
}

/** `Cookie: a=b; c=d` or `a=b; c=d` (the domain is filled in by the caller). */
function parseHeader(input: string): Cookie[] {
  const line = input.replace(/^cookie:\s*/i, "");
  if (/[\r\n]/.test(line)) throw new CookieInputError("a Cookie header is one line: paste the value of the request's Cookie header", "headerLines");
  const out: Cookie[] = [];
  for (const [i, part] of line.split(";").entries()) {
    const pair = part.trim();
    if (pair === "") continue;
    const eq = pair.indexOf("=");
    if (eq <= 0)
      throw new CookieInputError(`cookie ${i + 1}: expected name=value, got ${JSON.stringify(pair.slice(0, 40))}`, "headerPair", {
        n: i + 1,
        text: pair.slice(0, 40),
      });
    const name = pair.slice(0, eq).trim();
    const value = pair
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, "$1");
    checkPair(name, value, { kind: "cookie", n: i + 1 });
    out.push({ name, value, domain: "", hostOnly: false, path: "/", secure: false });
  }
  return out;
}

/** Netscape cookies.txt: domain, include-subdomains, path, secure, expiry (s, 0 = session), name, value. */
function parseNetscape(input: string): Cookie[] {
  const out: Cookie[] = [];
  for (const [i, raw] of input.split(/\r?\n/).entries()) {
    let line = raw.trim();
    let httpOnly = false;
    if (line.startsWith("#HttpOnly_")) {
      line = line.slice("#HttpOnly_".length);
      httpOnly = true;
    } else if (line === "" || line.startsWith("#")) continue;
    const f = line.split("\t");
    if (f.length !== 7) {
      throw new CookieInputError(
        `line ${i + 1}: expected 7 tab-separated fields (domain, subdomains, path, secure, expiry, name, value), got ${f.length}`,
        "netscapeFields",
        { n: i + 1, got: f.length },
      );
    }
    const [domainField, sub, path, secure, expiry, name, value] = f as [string, string, string, string, string, string, string];
    if (!/^(TRUE|FALSE)$/i.test(sub) || !/^(TRUE|FALSE)$/i.test(secure))
      throw new CookieInputError(`line ${i + 1}: the 2nd and 4th fields are TRUE or FALSE`, "netscapeBool", { n: i + 1 });
    if (!/^\d+(\.\d+)?$/.test(expiry) || Number(expiry) > MAX_COOKIE_EXPIRY_SECONDS) {
      throw new CookieInputError(`line ${i + 1}: the expiry is seconds since 1970, got ${JSON.stringify(expiry.slice(0, 20))}`, "netscapeExpiry", {
        n: i + 1,
        value: expiry.slice(0, 20),
      });
    }
    checkPair(name, value, { kind: "line", n: i + 1 });
    const domain = domainField.replace(/^\./, "").toLowerCase();
    if (!domain) throw new CookieInputError(`line ${i + 1}: no domain`, "noDomain", { kind: "line", n: i + 1 });
    const seconds = Number(expiry);
    out.push({
      name,
      value,
      domain,
      hostOnly: !/^TRUE$/i.test(sub) && !domainField.startsWith("."),
      path: path.startsWith("/") ? path : "/",
      secure: /^TRUE$/i.test(secure),
      httpOnly,
      expires: seconds > 0 ? Math.round(seconds * 1000) : undefined,
    });
  }
  return out;
}

/** A JSON export: an array of cookies, or an object with a `cookies` array (Playwright storage state). */
function parseJson(input: string): Cookie[] {
  let data: unknown;
  try {
    data = JSON.parse(input);
  } catch (e) {
    throw new CookieInputError(`not valid JSON: ${(e as Error).message}`, "json");
  }
  const list = Array.isArray(data)
    ? data
    : data && typeof data === "object" && Array.isArray((data as { cookies?: unknown }).cookies)
      ? (data as { cookies: unknown[] }).cookies
      : null;
  if (!list) throw new CookieInputError('expected a JSON array of cookies (or an object with a "cookies" array)', "jsonShape");
  let lines: number[] | undefined;
  return list.map((entry, i) => {
    const where: Where = {
      kind: "entry",
      n: i + 1,
      // Found only on the way to a refusal: scanning the text costs nothing when all is well.
      get line() {
        lines ??= jsonListEntryLines(input);
        return lines[i];
      },
    };
    if (!entry || typeof entry !== "object") throw new CookieInputError(`${at(where)}: not an object`, "jsonEntry", { n: i + 1 });
    const e = entry as Record<string, unknown>;
    const name = typeof e.name === "string" ? e.name : "";
    const value = typeof e.value === "string" ? e.value : "";
    const domainField = typeof e.domain === "string" ? e.domain : "";
    if (!domainField) throw new CookieInputError(`${at(where)}: no domain`, "noDomain", { ...where });
    checkPair(name, value, where);
    const expires = e.session === true ? undefined : jsonExpiry(e.expirationDate ?? e.expires, where);
    return {
      name,
      value,
      domain: domainField.replace(/^\./, "").toLowerCase(),
      hostOnly: typeof e.hostOnly === "boolean" ? e.hostOnly : !domainField.startsWith("."),
      path: typeof e.path === "string" && e.path.startsWith("/") ? e.path : "/",
      secure: e.secure === true,
      httpOnly: e.httpOnly === true,
      expires,
    };
  });
}

/**
 * A JSON export's expiry as ms since 1970, undefined for a session cookie. Cookie-Editor writes
 * `expirationDate` (s, fractional), Playwright `expires` (s, -1 = session), some tools ISO text.
 * Anything else — a negative other than -1, `NaN` or `Infinity` as text, `1e308`, a date past
 * year 9999, text that is not a date — is refused with the entry and its line: guessing "session"
 * would keep a cookie the operator meant to expire, and a huge number breaks every date shown.
 */
function jsonExpiry(exp: unknown, where: Where): number | undefined {
  if (exp === undefined || exp === null || exp === -1 || exp === 0 || exp === "") return undefined;
  let ms = Number.NaN;
  if (typeof exp === "number") ms = exp * 1000;
  else if (typeof exp === "string") ms = /^\d+(\.\d+)?$/.test(exp.trim()) ? Number(exp) * 1000 : Date.parse(exp);
  if (!Number.isFinite(ms) || ms <= 0 || ms > MAX_COOKIE_EXPIRY_SECONDS * 1000) {
    const value = String(typeof exp === "string" || typeof exp === "number" ? exp : JSON.stringify(exp)).slice(0, 30);
    throw new CookieInputError(`${at(where)}: the expiry ${JSON.stringify(value)} is not a date between 1970 and 9999`, "expiry", {
      kind: where.kind,
      n: where.n,
      line: where.line ?? where.n,
      value,
    });
  }
  return Math.round(ms);
}

/**
 * The line on which each entry of a cookie JSON's list starts (the top-level array, or the
 * `cookies` array of a top-level object), for refusals. `text` is known to be valid JSON.
 */
export function jsonListEntryLines(text: string): number[] {
  const out: number[] = [];
  const stack: { array: boolean; list: boolean }[] = [];
  let line = 1;
  let rootKey: string | null = null;
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === "\n") line++;
    if (/\s/.test(ch) || ch === ":") {
      if (ch === ":") expectKey = false;
      continue;
    }
    const top = stack[stack.length - 1];
    if (ch === ",") {
      expectKey = top !== undefined && !top.array;
      continue;
    }
    if (ch === "]" || ch === "}") {
      stack.pop();
      expectKey = false;
      continue;
    }
    // A value (or an object's key) starts here.
    if (top?.list) out.push(line);
    if (ch === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      if (expectKey && stack.length === 1) rootKey = JSON.parse(text.slice(i, j + 1)) as string;
      i = j;
    } else if (ch === "{" || ch === "[") {
      const list = ch === "[" && (stack.length === 0 || (stack.length === 1 && !stack[0]!.array && rootKey === "cookies"));
      stack.push({ array: ch === "[", list });
      expectKey = ch === "{";
    } else {
      while (i + 1 < text.length && !/[\s,\]}]/.test(text[i + 1]!)) i++;
    }
  }
  return out;
}

/** What the dashboard and CLI show of stored cookies: domains, counts and expiry, never values. */
export interface CookieSummary {
  domain: string;
  count: number;
  /** The earliest expiry among them (ISO), null when all are session cookies. */
  expiresAt: string | null;
}

/** Summarise cookies by domain for display. */
export function summariseCookies(cookies: readonly Cookie[]): CookieSummary[] {
  const by = new Map<string, { count: number; expires: number | null }>();
  for (const c of cookies) {
    const s = by.get(c.domain) ?? { count: 0, expires: null };
    s.count++;
    if (c.expires !== undefined) s.expires = s.expires === null ? c.expires : Math.min(s.expires, c.expires);
    by.set(c.domain, s);
  }
  return [...by.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([domain, s]) => ({ domain, count: s.count, expiresAt: s.expires === null ? null : new Date(s.expires).toISOString() }));
}
