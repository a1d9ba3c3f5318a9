/**
 * Blogs in the field (issue 13): one canonical source per post (three crawls of unchanged pages
 * leave every post at version 1), titles as the article shows them (never the site name in the
 * header's <h1>), and WordPress comments stored as replies under what they answer. Through the
 * real worker, fetcher and SQLite, against local Hexo/NexT (Atom feed) and WordPress (RSS feed,
 * archive pages, REST API and comment feeds) blogs.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { htmlToText } from "../../../crawler/text";
import { crawlFixture, type CrawlFixture } from "../crawl/support";

const HEXO = "blog-1";
const WP = "blog-2";

/** Stored replies of an account: platformId → parent's platformId. */
async function replyParents(f: CrawlFixture, key: string): Promise<Map<string, string | null>> {
  const rows = await f.t.db.post.findMany({ where: { accountId: f.ids.get(key)!, kind: "reply" }, include: { parent: { select: { platformId: true } } } });
  return new Map(rows.map((r) => [r.platformId, r.parent?.platformId ?? null]));
}

describe("a Hexo/NexT blog with an Atom feed and a WordPress blog with an RSS feed and archive pages", () => {
  let f: CrawlFixture;
  beforeAll(async () => {
    f = await crawlFixture({
      seed: 21,
      accounts: { weibo: 0, tieba: 0, discuz: 0, blog: 2 },
      postsPerAccount: 25,
      blogFeeds: true,
      pageSizes: { blog: 10, feed: 10 },
    });
    f.site.account(HEXO).blogFeed = "atom";
    f.site.account(WP).blogTheme = "wordpress";
    // The re-check window covers every post: each crawl reads the feed, every listing page and
    // every article again, which is what used to flip posts between feed text and page text.
    for (const key of [HEXO, WP]) await f.t.db.account.update({ where: { id: f.ids.get(key)! }, data: { recheckDays: 3650 } });
  });
  afterAll(async () => f?.close());

  it.each([HEXO, WP])("%s: three crawls of unchanged pages leave every post at version 1, 0 changed, 0 new", async (key) => {
    const runs = [await f.crawl(key), await f.crawl(key), await f.crawl(key)];
    for (const run of runs) expect(run.errors, key).toEqual([]);
    expect(runs.map((r) => [r.newPosts, r.changedPosts])).toEqual([
      [25, 0],
      [0, 0],
      [0, 0],
    ]);
    // The feed was read, and so were the listing pages beyond its window and the articles.
    const log = f.site.requests({ accountKey: key });
    expect(log.some((r) => r.path.endsWith(key === HEXO ? "/atom.xml" : "/feed/"))).toBe(true);
    expect(log.some((r) => r.path.includes("/page/3/"))).toBe(true);

    const stored = await f.stored(key);
    const account = f.site.account(key);
    expect(stored.size).toBe(25);
    for (const post of f.site.model.visiblePosts(account)) {
      const s = stored.get(f.site.platformIdOf(post))!;
      expect(s.version).toBe(1);
      // The article page's text: no sharing box, no feed-only "最先出现在" line.
      expect(s.text).toBe(htmlToText(post.html));
      // The article's own title, not the site name in the header's <h1 class="site-title">.
      expect(s.title).toBe(post.title);
      expect(s.title).not.toBe(account.name);
    }
    expect(await f.t.db.postVersion.count({ where: { post: { accountId: f.ids.get(key)! } } })).toBe(0);
  });

  it("an edit seen in the feed is stored once, from the article page, as version 2", async () => {
    const post = f.site.model.visiblePosts(f.site.account(WP))[1]!;
    f.site.clock.advance(60_000);
    f.site.editPost(post.id, { title: "  图书馆\n开放时间   调整 ", text: "图书馆周末开放到晚上十点。" });
    const run = await f.crawl(WP);
    expect([run.newPosts, run.changedPosts]).toEqual([0, 1]);
    const again = await f.crawl(WP);
    expect([again.newPosts, again.changedPosts]).toEqual([0, 0]);
    const s = (await f.stored(WP)).get(f.site.platformIdOf(post))!;
    expect(s).toMatchObject({ version: 2, text: "图书馆周末开放到晚上十点。", title: "图书馆 开放时间 调整" });
  });
});

describe("WordPress comments are replies under what they answer", () => {
  let f: CrawlFixture;
  beforeAll(async () => {
    f = await crawlFixture({
      seed: 22,
      accounts: { weibo: 0, tieba: 0, discuz: 0, blog: 2 },
      postsPerAccount: 12,
      blogFeeds: true,
      pageSizes: { blog: 5, feed: 5 },
    });
    for (const key of [HEXO, WP]) f.site.account(key).blogTheme = "wordpress";
  });
  afterAll(async () => f?.close());

  /** Comments on a recent post and an old one (beyond the feed), one of them answering another. */
  function seed(key: string): { recent: string; old: string; ids: Record<string, string> } {
    const posts = f.site.model.visiblePosts(f.site.account(key));
    const recent = posts[0]!;
    const old = posts[8]!;
    const at = (min: number) => new Date(recent.publishedAt.getTime() + min * 60_000);
    const a = f.site.addReply(recent.id, { text: "食堂的菜价确实涨了", author: "阿青", at: at(5) });
    const b = f.site.addReply(recent.id, { text: "同意楼上", author: "小北", at: at(9), parentId: a.id });
    const c = f.site.addReply(recent.id, { text: "我觉得还好", author: "南风", at: at(12) });
    const d = f.site.addReply(old.id, { text: "老文章也有人看", author: "阿青", at: new Date(old.publishedAt.getTime() + 3_600_000) });
    return { recent: f.site.platformIdOf(recent), old: f.site.platformIdOf(old), ids: { a: a.id, b: b.id, c: c.id, d: d.id } };
  }

  it("through the REST API: stored once, parents right (post, or the comment answered), no duplicates on re-crawl", async () => {
    const s = seed(WP);
    const first = await f.crawl(WP);
    expect(first.errors).toEqual([]);
    expect(first.newPosts).toBe(12 + 4);
    expect(Object.fromEntries(await replyParents(f, WP))).toEqual({ [s.ids.a!]: s.recent, [s.ids.b!]: s.ids.a, [s.ids.c!]: s.recent, [s.ids.d!]: s.old });
    const api = f.site.requests({ accountKey: WP }).filter((r) => r.path.endsWith("/wp-json/wp/v2/comments"));
    // Only the two posts with comments were asked for theirs.
    expect(api.map((r) => new URL(r.url, f.site.origin).searchParams.get("post")).sort()).toEqual([s.recent, s.old].map((p) => p.split("/")[4]).sort());

    const mark = f.site.lastSeq();
    const again = await f.crawl(WP);
    expect([again.newPosts, again.changedPosts]).toEqual([0, 0]);
    expect(f.site.requests({ afterSeq: mark }).filter((r) => r.kind === "item")).toEqual([]);

    // A new comment changes the count the feed shows: that post's comments are read again, the new one stored once.
    f.site.clock.advance(3_600_000);
    const post = f.site.model.post(s.recent.split("/")[4]!)!;
    const e = f.site.addReply(post.id, { text: "回复南风：我也这么想", author: "阿青", parentId: s.ids.c });
    const third = await f.crawl(WP);
    expect([third.newPosts, third.changedPosts]).toEqual([1, 0]);
    expect((await replyParents(f, WP)).get(e.id)).toBe(s.ids.c);
    const stored = await f.t.db.post.findFirstOrThrow({ where: { accountId: f.ids.get(WP)!, platformId: e.id } });
    expect(stored).toMatchObject({ kind: "reply", author: "阿青", text: "回复南风：我也这么想" });
    expect(stored.publishedAt.getTime()).toBe(Math.floor(e.publishedAt.getTime() / 1000) * 1000);
  });

  it("REST API closed (401): the post's comment feed is read instead, threaded replies still under their comment", async () => {
    const closed = f.site.fault(/\/wp-json\//, {
      type: "status",
      status: 401,
      body: '{"code":"rest_cannot_access","message":"只有已登录用户才能访问REST API。","data":{"status":401}}',
    });
    const s = seed(HEXO);
    const run = await f.crawl(HEXO);
    expect(run.errors).toEqual([]);
    expect(run.newPosts).toBe(12 + 4);
    expect(Object.fromEntries(await replyParents(f, HEXO))).toEqual({ [s.ids.a!]: s.recent, [s.ids.b!]: s.ids.a, [s.ids.c!]: s.recent, [s.ids.d!]: s.old });
    // The closed API was asked once; then the feeds.
    expect(closed.hits).toBe(1);
    const b = await f.t.db.post.findFirstOrThrow({ where: { accountId: f.ids.get(HEXO)!, platformId: s.ids.b! } });
    expect(b.text).toBe("同意楼上"); // the "回复给阿青。" line is the feed's, not the comment's
    const again = await f.crawl(HEXO);
    expect([again.newPosts, again.changedPosts]).toEqual([0, 0]);
    closed.clear();
  });
});

describe("issue 30 item 7: an article page that cannot be fetched", () => {
  let g: CrawlFixture | undefined;
  afterAll(async () => g?.close());

  it.each([
    ["HTTP 500", { type: "status" as const, status: 500 }],
    ["HTTP 503 (a block)", { type: "status" as const, status: 503 }],
  ])("%s: the listing's excerpt is stored as the text, marked incomplete and warned; the next crawl completes it", async (_name, fault) => {
    await g?.close();
    g = await crawlFixture({ seed: 36, accounts: { weibo: 0, tieba: 0, discuz: 0, blog: 1 }, postsPerAccount: 3 });
    const key = "blog-1";
    const post = g.site.account(key).posts[1]!;
    const pid = g.site.platformIdOf(post);
    const articlePath = new URL(pid, g.site.origin).pathname;
    const failing = g.site.fault((u) => u.pathname === articlePath, fault);

    const r1 = await g.crawl(key);
    expect(failing.hits).toBeGreaterThan(0);
    expect(r1.errors).toEqual([]);
    // One warning each time the run met the post (its feed entry and its listing row).
    expect(r1.warnings.length).toBeGreaterThan(0);
    for (const w of r1.warnings) expect(w).toMatchObject({ url: new URL(articlePath, g.site.origin).href, field: "body" });
    const cut = await g.t.db.post.findFirstOrThrow({ where: { accountId: g.ids.get(key)!, platformId: pid } });
    expect(cut).toMatchObject({ incomplete: true, version: 1 });
    // The excerpt the listing shows: text, not an empty body.
    expect(cut.text.length).toBeGreaterThan(0);
    expect(htmlToText(post.html).startsWith(cut.text.replace(/…$|\.\.\.$/, "").slice(0, 10))).toBe(true);

    failing.clear();
    g.site.clock.advance(60_000);
    const r2 = await g.crawl(key);
    expect(r2.errors).toEqual([]);
    const whole = await g.t.db.post.findFirstOrThrow({ where: { id: cut.id } });
    expect(whole).toMatchObject({ incomplete: false, version: 1, text: htmlToText(post.html) });
    expect(await g.t.db.postVersion.count({ where: { postId: cut.id } })).toBe(0);
  });
});
