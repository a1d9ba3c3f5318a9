/**
 * Recognising "you are blocked" answers that arrive as ordinary 200 pages: Baidu's security check,
 * generic captcha/verification walls, Weibo's visitor system. Returning such a page as a result
 * would make an adapter see an empty list and conclude nothing changed, so the fetcher turns a
 * match into a BlockedError. Pure: no I/O.
 */

/** Why a response was judged a block. */
export interface BlockSignal {
  reason: string;
  /**
   * Fresh visitor cookies from a real browser may lift it (Weibo's visitor system): the fetcher
   * then runs `refreshCookiesViaBrowser` once and retries.
   */
  cookieWall: boolean;
}

/** What {@link detectBlock} looks at. */
export interface BlockProbe {
  /** Final URL of the response (after redirects). */
  url: string;
  status: number;
  /** Decoded body (only the start is examined). */
  body: string;
  contentType?: string;
  /** A redirect's Location header, resolved against `url`, when the response is a redirect. */
  location?: string;
  /** The request expected JSON (Weibo's `ok: -100` only means "blocked" on its JSON API). */
  json?: boolean;
}

/** Bodies are examined up to here: block pages are small and say what they are near the top. */
const SCAN_CHARS = 64 * 1024;

/**
 * Terms that, in a short title, mark a verification page. The length limit is what keeps a forum
 * thread titled "验证码收不到怎么办 - 某某论坛" from being taken for a captcha: block pages have
 * terse titles, thread pages carry the thread and site name.
 */
const SHORT_TITLE_TERMS = /安全验证|验证码|人机验证|访问验证|滑动验证|captcha|security (check|verification)|verify you are human|are you a robot/i;
const SHORT_TITLE_MAX = 24;

/** Titles that mean a block whatever their length. */
const ALWAYS_TITLES: readonly [RegExp, string, boolean][] = [
  [/百度安全验证/, "Baidu security verification page (百度安全验证)", false],
  [/Sina Visitor System/i, "Weibo visitor system page", true],
  [/^\s*Just a moment\.\.\.\s*$|Attention Required! \| Cloudflare/i, "Cloudflare challenge page", false],
];

/** Return why this response is a block page, or undefined for a normal response. */
export function detectBlock(probe: BlockProbe): BlockSignal | undefined {
  const byUrl = blockedUrl(probe.location) ?? blockedUrl(probe.url);
  if (byUrl) return byUrl;

  const body = probe.body.slice(0, SCAN_CHARS);
  // Only small JSON is parsed: the visitor answer is a few bytes, and a big feed is not a block.
  if (probe.json && probe.body.length <= SCAN_CHARS) {
    const fromJson = jsonBlock(probe.body);
    if (fromJson) return fromJson;
  }

  const title = htmlTitle(body);
  if (title !== undefined) {
    for (const [re, reason, cookieWall] of ALWAYS_TITLES) if (re.test(title)) return { reason, cookieWall };
    if (title.length <= SHORT_TITLE_MAX && SHORT_TITLE_TERMS.test(title)) {
      return { reason: `verification page (title "${title}")`, cookieWall: false };
    }
  }
  // Baidu sometimes serves its check with an empty or generic title; its captcha script gives it away.
  if (/wappass\.baidu\.com\/static\/captcha|passport\.baidu\.com\/static\/.*captcha/i.test(body) && /安全验证/.test(body)) {
    return { reason: "Baidu security verification page (百度安全验证)", cookieWall: false };
  }
  return undefined;
}

/** Hosts and paths that only ever serve verification walls. */
function blockedUrl(url: string | undefined): BlockSignal | undefined {
  if (!url) return undefined;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  const host = u.hostname.toLowerCase();
  if (host === "wappass.baidu.com") return { reason: `redirected to Baidu verification (${host})`, cookieWall: false };
  if (host === "passport.weibo.com" || host === "passport.weibo.cn") {
    return { reason: `redirected to Weibo visitor/login (${host}${u.pathname})`, cookieWall: true };
  }
  return undefined;
}

/** Weibo's JSON API answers `{"ok": -100, "url": "https://passport.weibo.com/..."}` to a visitor without cookies. */
function jsonBlock(body: string): BlockSignal | undefined {
  const trimmed = body.trimStart();
  if (!trimmed.startsWith("{")) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    return undefined;
  }
  if (typeof parsed === "object" && parsed !== null && "ok" in parsed && Number(parsed.ok) === -100) {
    return { reason: "Weibo API answered ok: -100 (visitor cookies required)", cookieWall: true };
  }
  return undefined;
}

/** The text of the first `<title>`, entities for spaces collapsed; undefined when there is none. */
export function htmlTitle(html: string): string | undefined {
  const m = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html);
  if (!m) return undefined;
  return (m[1] ?? "")
    .replace(/&nbsp;|&#160;/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}
