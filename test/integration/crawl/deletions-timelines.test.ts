/**
 * Issue 33 item 7, deletions: Weibo timelines and blogs list every post by publication time, so a
 * stored post newer than the oldest entry a walk read, and not listed, is opened (at most
 * MAX_PROBES per run) and marked deleted when the platform says so (Weibo's "微博不存在", a blog's
 * 404). Against the local platforms (test/support/platforms), the site's clock as the crawl's.
 */
import { afterEach, describe, expect, it } from "vitest";
import { MAX_PROBES } from "../../../crawler/worker/deletions";
import type { LocalPost } from "../../support/platforms";
import { crawlFixture, type CrawlFixture } from "./support";

let f: CrawlFixture | undefined;
afterEach(async () => {
  await f?.close();
  f = undefined;
});

const HOUR = 3_600_000;

/** The account's posts as its list shows them: newest first, pinned ones left out. */
function newestFirst(fx: CrawlFixture, key: string): LocalPost[] {
  return fx.site.model
    .visiblePosts(fx.site.account(key))
    .filter((p) => !p.pinned)
    .sort((a, b) => b.publishedAt.getTime() - a.publishedAt.getTime());
}

/** The stored row's deletion time (null: not marked). */
async function deletedAt(fx: CrawlFixture, key: string, post: LocalPost): Promise<Date | null> {
  const row = await fx.t.db.post.findUniqueOrThrow({
    where: { accountId_platformId: { accountId: fx.ids.get(key)!, platformId: fx.site.platformIdOf(post) } },
  });
  return row.deletedAt;
}

/** Requests that opened these posts (Weibo's statuses/extend?id=, a blog's article page) since `afterSeq`. */
function probes(fx: CrawlFixture, afterSeq: number, posts: readonly LocalPost[]): string[] {
  const ids = posts.map((p) => fx.site.platformIdOf(p));
  return fx.site
    .requests({ afterSeq, kind: "item" })
    .map((r) => r.url)
    .filter((u) => ids.some((id) => u.includes(id)));
}

const CASES = [
  { name: "Weibo timeline", key: "weibo-1", options: { accounts: { weibo: 1, tieba: 0, discuz: 0, blog: 0 }, pageSizes: { weibo: 10 } } },
  {
    name: "blog with a feed",
    key: "blog-1",
    options: { accounts: { weibo: 0, tieba: 0, discuz: 0, blog: 1 }, blogFeeds: true, pageSizes: { feed: 10, blog: 10 } },
  },
  { name: "blog without a feed", key: "blog-1", options: { accounts: { weibo: 0, tieba: 0, discuz: 0, blog: 1 }, blogFeeds: false, pageSizes: { blog: 10 } } },
] as const;

describe.each(CASES)("$name: posts gone from the list", ({ key, options }) => {
  it("a post removed from the platform is marked deleted by the next run; the posts still there are not", async () => {
    f = await crawlFixture({ seed: 331, postsPerAccount: 25, repliesPerPost: [0, 1], spanDays: 10, ...options });
    const site = f.site;
    const first = await f.crawl(key);
    expect(first.errors).toEqual([]);
    const posts = newestFirst(f, key);
    const gone = posts[2]!;

    site.clock.advance(HOUR);
    site.removePost(gone.id);
    const noticedAt = site.clock.now();
    const seq = site.lastSeq();
    const run = await f.crawl(key);
    expect(run.errors).toEqual([]);
    expect(run.deletedPosts).toBe(1);
    expect(run.notes.join("\n")).toContain(`deleted: ${site.platformIdOf(gone)}`);
    expect((await deletedAt(f, key, gone))?.getTime()).toBe(noticedAt.getTime());
    // One probe, of the missing post; every post still served keeps its state.
    expect(probes(f, seq, [gone])).toHaveLength(1);
    for (const p of posts.filter((p) => p !== gone)) expect(await deletedAt(f, key, p), p.id).toBeNull();

    // Nothing missing any more: the next run opens nothing.
    site.clock.advance(HOUR);
    const seq2 = site.lastSeq();
    const again = await f.crawl(key);
    expect(again.deletedPosts).toBe(0);
    expect(probes(f, seq2, posts)).toEqual([]);
  });

  it(`probes at most ${MAX_PROBES} missing posts per run, newest first, and the rest on the next runs`, async () => {
    f = await crawlFixture({ seed: 332, postsPerAccount: 30, repliesPerPost: [0, 1], spanDays: 10, ...options });
    const site = f.site;
    await f.crawl(key);
    const posts = newestFirst(f, key);
    const gone = posts.slice(0, MAX_PROBES + 2);
    site.clock.advance(HOUR);
    for (const p of gone) site.removePost(p.id);

    const seq = site.lastSeq();
    const run = await f.crawl(key);
    expect(run.errors).toEqual([]);
    expect(run.deletedPosts).toBe(MAX_PROBES);
    expect(probes(f, seq, gone)).toHaveLength(MAX_PROBES);
    for (const [i, p] of gone.entries()) expect(await deletedAt(f, key, p), `#${i}`).toEqual(i < MAX_PROBES ? site.clock.now() : null);

    site.clock.advance(HOUR);
    const next = await f.crawl(key);
    expect(next.deletedPosts).toBe(2);
    for (const p of gone) expect(await deletedAt(f, key, p)).not.toBeNull();
    expect(await f.t.db.post.count({ where: { deletedAt: { not: null } } })).toBe(gone.length);
  });
});

describe("a post missing from the list that still opens", () => {
  it("Weibo: a status left out of the timeline but served by statuses/extend is not marked deleted", async () => {
    f = await crawlFixture({ seed: 333, accounts: { weibo: 1, tieba: 0, discuz: 0, blog: 0 }, postsPerAccount: 20, repliesPerPost: [0, 0], spanDays: 10 });
    const site = f.site;
    await f.crawl("weibo-1");
    const hidden = newestFirst(f, "weibo-1")[1]!;
    site.clock.advance(HOUR);
    // The timeline lags (or hides it from visitors): its head leaves the status out, while
    // statuses/extend still serves it.
    const pid = site.platformIdOf(hidden);
    const isHead = (u: URL) => u.pathname === "/api/container/getIndex" && u.searchParams.has("containerid") && !u.searchParams.has("since_id");
    const head = site.requests({ kind: "list" }).find((r) => isHead(new URL(r.url, site.origin)))!;
    const data = (await (await fetch(new URL(head.url, site.origin))).json()) as { data: { cards: { mblog?: { id?: unknown; mid?: unknown } }[] } };
    const before = data.data.cards.length;
    data.data.cards = data.data.cards.filter((c) => String(c.mblog?.mid ?? c.mblog?.id) !== pid);
    expect(data.data.cards).toHaveLength(before - 1);
    site.fault(isHead, { type: "body", body: JSON.stringify(data), contentType: "application/json; charset=utf-8" });
    const seq = site.lastSeq();
    const run = await f.crawl("weibo-1");
    expect(run.errors).toEqual([]);
    expect(run.deletedPosts).toBe(0);
    expect(probes(f, seq, [hidden])).toHaveLength(1);
    expect(await deletedAt(f, "weibo-1", hidden)).toBeNull();
  });
});
