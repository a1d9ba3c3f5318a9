/**
 * Hashes carry their cleaning version (crawler/text.ts contentHash): a change of cleaning
 * re-hashes stored posts without recording them as edited, while a real edit is still recorded.
 * Acted out with a future cleaning (version 2) put in force for the test, over real crawls of
 * local platforms into a real database (forums, Weibo with its long texts, a blog with a feed, so
 * that list-excerpt hashes are covered too), with a re-check window that reopens every post.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLEANING_VERSION, hashDigest, hashVersion, htmlToText, replaceCleaning, type Cleaning } from "../../../crawler/text";
import { crawlFixture, type CrawlFixture } from "./support";

const KEYS = ["weibo-1", "tieba-1", "discuz-1", "blog-1"] as const;

/** The next cleaning: full-width commas read as ASCII ones (most generated posts have one). */
const NEXT: Cleaning = { version: CLEANING_VERSION + 1, text: (html) => htmlToText(html).replace(/，/g, ",") };

describe("a change of cleaning", () => {
  let f: CrawlFixture;
  beforeAll(async () => {
    f = await crawlFixture({
      seed: 318,
      weiboDates: "rfc",
      accounts: { weibo: 1, tieba: 1, discuz: 1, blog: 1 },
      blogFeeds: true,
      postsPerAccount: 12,
      repliesPerPost: [0, 3],
      pageSizes: { weibo: 10, weiboComments: 5, tiebaFloors: 4, discuz: 10, discuzPosts: 4, blog: 10 },
    });
    for (const id of f.ids.values()) await f.t.db.account.update({ where: { id }, data: { recheckDays: 365 } });
  });
  afterAll(async () => f?.close());

  const rows = (key: string) =>
    f.t.db.post.findMany({
      where: { accountId: f.ids.get(key)! },
      select: { id: true, platformId: true, sha1: true, listSha1: true, text: true, html: true, version: true },
    });

  it.each(KEYS)("%s: bare (pre-version) hashes are version 1; a new cleaning re-hashes every post without a version; an edit is still one", async (key) => {
    const first = await f.crawl(key);
    expect(first.errors).toEqual([]);
    expect(first.newPosts).toBeGreaterThan(10);
    const crawled = await rows(key);
    for (const r of crawled) expect(hashVersion(r.sha1), r.platformId).toBe(CLEANING_VERSION);

    // Rows stored before hashes carried their version: the same hashes, bare.
    for (const r of crawled) {
      await f.t.db.post.update({ where: { id: r.id }, data: { sha1: hashDigest(r.sha1), ...(r.listSha1 ? { listSha1: hashDigest(r.listSha1) } : {}) } });
    }
    const legacy = await f.crawl(key);
    expect({ new: legacy.newPosts, changed: legacy.changedPosts, errors: legacy.errors }).toEqual({ new: 0, changed: 0, errors: [] });
    // …and the store wrote them back with their version.
    for (const r of await rows(key)) expect(r.sha1.startsWith(`v${CLEANING_VERSION}:`), r.platformId).toBe(true);

    const restore = replaceCleaning(NEXT);
    try {
      const upgraded = await f.crawl(key);
      expect({ new: upgraded.newPosts, changed: upgraded.changedPosts, errors: upgraded.errors }).toEqual({ new: 0, changed: 0, errors: [] });
      const after = await rows(key);
      expect(after.length).toBe(crawled.length);
      // Every post re-hashed by the new cleaning, its text the new cleaning's, no version recorded.
      expect(after.filter((r) => hashVersion(r.sha1) !== NEXT.version).map((r) => r.platformId)).toEqual([]);
      expect(after.filter((r) => r.text !== NEXT.text(r.html)).map((r) => r.platformId)).toEqual([]);
      expect(after.filter((r) => r.version !== 1).map((r) => r.platformId)).toEqual([]);
      expect(await f.t.db.postVersion.count({ where: { post: { accountId: f.ids.get(key)! } } })).toBe(0);
      // The new cleaning did change stored texts (the test would prove nothing otherwise).
      expect(after.filter((r) => r.text !== crawled.find((c) => c.id === r.id)!.text).length).toBeGreaterThan(0);
      // List excerpts read again are hashed by the new cleaning too.
      for (const r of after) if (r.listSha1) expect(hashVersion(r.listSha1), r.platformId).toBe(NEXT.version);

      // An edit under the new cleaning is still an edit, kept as a version.
      const acc = f.site.account(key);
      const target = f.site.model
        .visiblePosts(acc)
        .filter((p) => !p.pinned)
        .sort((a, b) => b.publishedAt.getTime() - a.publishedAt.getTime())[1]!;
      f.site.editPost(target.id, { text: "（已编辑）" + target.html.replace(/<[^>]+>/g, "") });
      f.site.clock.advance(60_000);
      const edited = await f.crawl(key);
      expect(edited.errors).toEqual([]);
      expect(edited.changedPosts).toBe(1);
      const pid = f.site.platformIdOf(target);
      const post = await f.t.db.post.findFirstOrThrow({ where: { accountId: f.ids.get(key)!, platformId: pid }, include: { versions: true } });
      expect(post.version).toBe(2);
      expect(post.text).toContain("（已编辑）");
      expect(post.versions).toHaveLength(1);
      expect(hashVersion(post.versions[0]!.sha1)).toBe(NEXT.version);
    } finally {
      restore();
    }
  });
});
