/**
 * The incremental crawl rules end to end: real fetcher, real adapters, real SQLite, against local
 * copies of each platform holding a few hundred posts and replies.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readArchived } from "../../../crawler/archive";
import { crawlFixture, minute, type CrawlFixture } from "./support";

const KEYS = ["weibo-1", "tieba-1", "discuz-1", "blog-1", "blog-2"] as const;

describe("first crawl, re-crawl, and re-crawl after changes", () => {
  let f: CrawlFixture;
  beforeAll(async () => {
    f = await crawlFixture({
      seed: 11,
      // Today's Weibo API prints full RFC-2822 times; the short "06-14" form is covered by the capture tests.
      weiboDates: "rfc",
      accounts: { weibo: 1, tieba: 1, discuz: 1, blog: 2 },
      postsPerAccount: 40,
      repliesPerPost: [0, 9],
      pageSizes: { weibo: 10, weiboComments: 5, tiebaFloors: 4, discuz: 10, discuzPosts: 4, blog: 10 },
    });
  });
  afterAll(async () => f?.close());

  it.each(KEYS)("first crawl of %s stores every post and reply exactly once, right to the minute, text complete", async (key) => {
    const run = await f.crawl(key);
    expect(run.errors).toEqual([]);
    const expected = f.expected(key);
    const stored = await f.stored(key);
    expect(expected.size).toBeGreaterThan(30);
    expect([...stored.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [id, e] of expected) {
      const s = stored.get(id)!;
      expect(minute(s.publishedAt), id).toBe(minute(e.publishedAt));
      expect(s.text, id).toBe(e.text);
      expect(s.parentPlatformId, id).toBe(e.parentPlatformId);
      expect(s.version, id).toBe(1);
    }
    expect(run.newPosts).toBe(expected.size);
    expect(run.changedPosts).toBe(0);
  });

  it("has a few hundred posts and replies in all", async () => {
    const total = await f.t.db.post.count();
    expect(total).toBeGreaterThan(300);
  });

  it("has written every stored post's archive file by the time its run returned", async () => {
    const archiveDir = f.services.archiveDir!;
    const rows = await f.t.db.post.findMany({ select: { archivePath: true }, where: { archivePath: { not: null } } });
    const paths = new Set(rows.map((p) => p.archivePath!));
    expect(paths.size).toBeGreaterThan(20);
    for (const rel of paths) {
      const archived = await readArchived(archiveDir, rel);
      expect(archived.url, rel).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
      expect(archived.body.length, rel).toBeGreaterThan(100);
    }
  });

  it.each(KEYS)("re-crawl of %s with nothing new reads at most two list pages and no item pages", async (key) => {
    const mark = f.site.lastSeq();
    const run = await f.crawl(key);
    const requests = f.site.requests({ afterSeq: mark }).filter((r) => r.kind !== "other");
    expect(requests.filter((r) => r.kind === "list").length).toBeLessThanOrEqual(2);
    expect(requests.filter((r) => r.kind === "item")).toEqual([]);
    expect(run.newPosts + run.changedPosts).toBe(0);
  });

  it("after new posts, new replies in old threads and edits, stores exactly those", async () => {
    const site = f.site;
    site.clock.advance(2 * 3_600_000);
    const before = new Map<string, number>();
    for (const key of KEYS) before.set(key, (await f.stored(key)).size);

    const added: Record<string, { posts: number; replies: number; edits: string[] }> = {};
    for (const key of KEYS) added[key] = { posts: 0, replies: 0, edits: [] };
    for (const key of KEYS) {
      const acc = site.account(key);
      // Two new posts, one new reply in an old thread, one edited recent post (Weibo and blogs).
      site.addPost(key, { text: `${key} 新帖：图书馆今天延长开放时间到晚上十一点。` });
      site.addPost(key, { text: `${key} 新帖：期末考试安排已经公布，大家注意查看。` });
      added[key]!.posts += 2;
      if (acc.platform !== "blog") {
        // Forums list threads by last reply, so any old thread comes back to the top. Weibo lists
        // by publication: a comment is noticed on the posts of the first list page (a few days
        // back); older ones need the account's re-check window.
        const unpinned = site.model.visiblePosts(acc).filter((p) => !p.pinned);
        const old = acc.platform === "weibo" ? unpinned[4]! : unpinned.at(-3)!;
        site.addReply(old.id, { text: "老帖新回复：这个问题解决了吗？" });
        added[key]!.replies += 1;
      }
      if (acc.platform === "weibo" || acc.platform === "blog") {
        const recent = site.model
          .visiblePosts(acc)
          .filter((p) => !p.pinned)
          .sort((a, b) => b.publishedAt.getTime() - a.publishedAt.getTime())[2]!;
        site.editPost(recent.id, { text: "（已编辑）" + recent.html.replace(/<[^>]+>/g, "") });
        added[key]!.edits.push(site.platformIdOf(recent));
      }
      site.clock.advance(60_000);
    }

    for (const key of KEYS) {
      const run = await f.crawl(key);
      expect(run.errors, key).toEqual([]);
      const a = added[key]!;
      expect(run.newPosts, key).toBe(a.posts + a.replies);
      expect(run.changedPosts, key).toBe(a.edits.length);
      const stored = await f.stored(key);
      expect(stored.size, key).toBe(before.get(key)! + a.posts + a.replies);
      expect([...stored.keys()].sort(), key).toEqual([...f.expected(key).keys()].sort());
      for (const id of a.edits) {
        expect(stored.get(id)!.version, `${key} ${id}`).toBe(2);
        expect(stored.get(id)!.text.startsWith("（已编辑）"), `${key} ${id}`).toBe(true);
        const versions = await f.t.db.postVersion.findMany({ where: { post: { platformId: id, accountId: f.ids.get(key)! } } });
        expect(versions.map((v) => v.version)).toEqual([1]);
      }
    }
  });
});
