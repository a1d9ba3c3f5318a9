/**
 * Local copies of the monitored platforms — Weibo (m.weibo.cn API), Baidu Tieba, a Discuz! X
 * board, Hexo/WordPress-like blogs and WeChat articles — for tests, the demo (`npm start`) and benchmarks.
 * Plain TypeScript (no test-runner imports). Markup and JSON are modelled on the real captures
 * in ../shared/fixtures/real, dates are printed in each platform's short forms against a clock
 * the caller controls, and everything is generated from a seed, so runs are reproducible.
 *
 * ## Start a site
 * ```ts
 * import { startLocalPlatforms } from "../support/platforms";
 * const site = await startLocalPlatforms({
 *   seed: 7,
 *   accounts: { weibo: 3, tieba: 2, discuz: 2, blog: 3 },   // 10 accounts
 *   postsPerAccount: 30, repliesPerPost: [0, 12],           // ≈ 300 posts, ≈ 1,200 replies
 *   pageSizes: { weibo: 5, discuz: 10 },                    // optional: smaller pages
 *   realCaptures: true,                                     // optional: also serve the captures
 * });
 * site.entryUrl("tieba-1");        // "http://127.0.0.1:PORT/f?kw=%E5%8D%97…" — register this
 * site.accounts;                   // LocalAccount[] with key, platform, name, slug, posts
 * const now = site.clock.now();    // use as the crawl's `now`
 * await site.close();
 * ```
 * Account keys are `{platform}-{k}`. Entry URLs: Weibo `/u/{uid}`, Tieba `/f?kw={bar}`,
 * Discuz! `/bbs/forum.php?mod=forumdisplay&fid={fid}`, blogs `/blog/{slug}/` (odd-numbered blogs
 * have a WordPress-style RSS feed at `/blog/{slug}/feed/`, see `blogFeeds`), WeChat articles
 * `/s/{token}` (one article per account, none unless `accounts.wechat` asks; ./wechat.ts).
 * Every account's oldest post is pinned (`pinOldest`), Weibo posts longer than 140 characters
 * are served cut with `isLongText`, lists of Tieba and Discuz! are ordered by last reply.
 *
 * ## Change it (the server renders the model on every request)
 * ```ts
 * site.clock.advance(60 * 60_000);                       // an hour later
 * const p = site.addPost("weibo-1", { text: "食堂又涨价了", long: true, pinned: false });
 * site.addReply(p.id, { text: "同意", at: site.clock.now() });
 * site.editPost(p.id, { text: "改过的内容" });            // editedAt = clock.now()
 * site.pin(p.id);                                         // or pin(id, false)
 * site.setEncoding("discuz-1", "gbk");                    // serve that board as GBK
 * site.simulateActivity({ posts: 20, replies: 100, withinMs: 3_600_000 }); // seeded random activity
 * site.platformIdOf(p);                                    // the platformId adapters give it
 * ```
 * Posts/replies dated after `clock.now()` are invisible until the clock passes them.
 *
 * ## Faults (first matching fault answers; `times` defaults to always)
 * ```ts
 * site.fault("/f?kw=", { type: "captcha" });                        // Baidu "百度安全验证" page (HTTP 200)
 * site.fault("/api/container/getIndex", { type: "status", status: 418, times: 1 }); // 418 then success
 * site.fault(/\/p\/\d+/, { type: "slow", delayMs: 200 });
 * site.fault((u) => u.pathname === "/blog/aqing/", { type: "redirectLoop" });
 * const h = site.fault("/statuses/extend", { type: "body", body: '{"ok":-100}' }); h.hits; h.clear();
 * site.clearFaults();
 * ```
 *
 * ## Member logins (./login.ts)
 * ```ts
 * const cookie = site.logins.signIn("tieba");   // "BDUSS=…": give it to the account
 * site.logins.membersOnly("discuz-1");           // visitors get "抱歉，您尚未登录…"
 * site.logins.expire("tieba");                   // the same cookie is a visitor's from now on
 * ```
 *
 * ## Request log
 * ```ts
 * site.requests();                                         // every request, in order
 * site.requests({ accountKey: "tieba-1", kind: "list" }).length;
 * const mark = site.lastSeq(); …crawl…; site.requests({ afterSeq: mark });
 * site.clearRequests();
 * ```
 * Each entry: `{ seq, method, url, path, origin, platform, accountKey, kind: "list"|"item"|"other",
 * status, fault, at }` (`at` is the local clock's time). Kinds: Weibo getIndex, Tieba `/f`,
 * Discuz! forumdisplay, blog listings and feeds are `list`; long text, comments, threads and
 * articles are `item`; robots.txt and shells are `other`.
 *
 * ## Real captures
 * With `realCaptures`, `site.captures` maps weibo / weiboCn / tieba / discuz / hexo / wordpress
 * to `{ origin, entryUrl, platform }`, each on its own port so the captures' root-relative links
 * work. When ../shared is absent, `site.captures` is null and `site.capturesSkipReason` says why;
 * callers skip (tests with `describe.skipIf`).
 */
export { startLocalPlatforms } from "./server";
export type { Fault, FaultHandle, FaultMatch, LocalPlatforms, LocalPlatformsOptions, RequestFilter, RequestLogEntry } from "./server";
export { PlatformModel, createClock, createRng, DEFAULT_NOW } from "./model";
export type { Clock, LocalAccount, LocalPost, LocalReply, ModelOptions, NewPost, NewReply, Rng } from "./model";
export { DEFAULT_PAGE_SIZES } from "./responses";
export type { PageSizes } from "./responses";
export { CAPTURE_SITES, DEFAULT_CAPTURES_DIR, locateCaptures } from "./captures";
export type { CaptureSite, CaptureSiteName } from "./captures";
export { TOPICS } from "./text";
export type { Topic } from "./text";
export { BAIDU_CAPTCHA_PAGE } from "./tieba";
export { SESSION_COOKIES } from "./login";
export type { LocalLogins } from "./login";
