/**
 * WeChat official-account articles (微信公众号文章): one article page per account
 * (crawler/adapters/wechat), re-read on its interval for edits and for WeChat's removed/expired
 * page. An account's list of articles is only served to the WeChat app (its tokens are the
 * app's), so an entry URL is an article: `mp.weixin.qq.com/s/{token}` or
 * `mp.weixin.qq.com/s?__biz=…&mid=…&idx=…&sn=…`.
 */
import { onHosts } from "./hosts";
import type { PlatformEntry } from "./types";

/** WeChat's article host. */
const WECHAT_HOSTS = ["mp.weixin.qq.com"];

/** The query parameters that name an article (`__biz` the account, `mid` and `idx` the message, `sn` its signature). */
const ARTICLE_PARAMS = ["__biz", "mid", "idx", "sn"] as const;

/**
 * The article a URL names, by its path shape on any host (a local copy is crawled like the real
 * site): `/s/{token}`, or `/s` with `__biz` and `mid`. Its id is what the adapter stores the
 * article as: the token, or `{__biz}_{mid}_{idx}`. Null when the URL names no article.
 */
export function wechatArticleOf(url: URL): { id: string; url: string } | null {
  const token = /^\/s\/([A-Za-z0-9_-]{6,})\/?$/.exec(url.pathname)?.[1];
  if (token) return { id: token, url: `${url.origin}/s/${token}` };
  if (!/^\/s\/?$/.test(url.pathname)) return null;
  const biz = url.searchParams.get("__biz");
  const mid = url.searchParams.get("mid");
  if (!biz || !mid || !/^\d+$/.test(mid)) return null;
  const idx = url.searchParams.get("idx") ?? "1";
  // The tracking parameters (chksm, scene, #wechat_redirect…) are not the article's: dropped.
  const query = ARTICLE_PARAMS.filter((k) => url.searchParams.has(k))
    .map((k) => `${k}=${encodeURIComponent(url.searchParams.get(k)!)}`)
    .join("&");
  return { id: `${biz}_${mid}_${idx}`, url: `${url.origin}/s?${query}` };
}

export const wechat = {
  id: "wechat",
  shapeLabel: "WeChat article",
  colours: { chart: "#07c160", badgeText: "#05803f", badgeBackground: "#e7f8ee" },
  // An article changes rarely once published; removals are what is watched for.
  defaultCron: "23 */2 * * *",
  recognise: (url) => onHosts(url.hostname.toLowerCase(), WECHAT_HOSTS) || wechatArticleOf(url) !== null,
  isEntryUrl: (url) => wechatArticleOf(url) !== null,
  normaliseEntryUrl: (url) => {
    const article = wechatArticleOf(url);
    return article && article.url !== url.href ? article.url : null;
  },
  entryUrlForms: [
    "https://mp.weixin.qq.com/s/AbCdEfGhIjKlMnOpQrStUv",
    "https://mp.weixin.qq.com/s?__biz=MzA3NjA1NzQ2MQ==&mid=2650000001&idx=1&sn=0123456789abcdef0123456789abcdef",
  ],
  candidateOf: (url) => {
    const article = wechatArticleOf(url);
    return article ? { url: article.url, name: `WeChat ${article.id}` } : null;
  },
  // An article's id names it across WeChat, whichever account (entry URL form) reached it.
  siteKey: (url) => (onHosts(url.hostname.toLowerCase(), WECHAT_HOSTS) ? "wechat" : `wechat:${url.origin}`),
  cookieDomains: ["weixin.qq.com"],
  features: { replies: false, subReplies: false, deletions: true, keywordWatch: null, cookies: false },
  fallback: false,
} as const satisfies PlatformEntry<"wechat">;
