/**
 * Conditional list requests (crawler/fetch/conditional.ts) on every local platform whose list
 * pages carry validators: a second run of an unchanged account asks with If-None-Match /
 * If-Modified-Since, gets 304 and ends there (one list request, nothing parsed, nothing stored);
 * a new post or reply makes the head page change and is stored once; a run that did not store
 * everything forgets the validators, so the next run reads the listing whole; a re-check window
 * turns conditional requests off. Real SQLite file, real HTTP servers on loopback.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseListValidators } from "../../../crawler/fetch/conditional";
import type { ValidatorMode } from "../../support/platforms/validators";
import { crawlFixture, type CrawlFixture } from "./support";
import { MINUTE } from "../../support/platforms/model";

const KEYS = ["weibo-1", "tieba-1", "discuz-1", "blog-1", "blog-2"] as const;

async function fixture(validators: ValidatorMode): Promise<CrawlFixture> {
  const f = await crawlFixture({
    seed: 77,
    weiboDates: "rfc",
    accounts: { weibo: 1, tieba: 1, discuz: 1, blog: 2 },
    blogFeeds: true,
    postsPerAccount: 12,
    repliesPerPost: [0, 3],
    pageSizes: { weibo: 10, weiboComments: 5, tiebaFloors: 4, discuz: 10, discuzPosts: 4, blog: 10 },
    validators,
  });
  f.site.account("blog-2").hasFeed = false;
  return f;
}

/** The requests the server saw since `seq`, as "kind status". */
const since = (f: CrawlFixture, seq: number) => f.site.requests({ afterSeq: seq }).map((r) => `${r.kind} ${r.status}`);

describe("conditional list requests, ETag and Last-Modified", () => {
  let f: CrawlFixture;
  beforeAll(async () => {
    f = await fixture("both");
  });
  afterAll(async () => f?.close());

  it.each(KEYS)("%s: an unchanged listing answers 304 and the run ends there; a new post is read in full", async (key) => {
    const id = f.ids.get(key)!;
    const first = await f.crawl(key);
    expect(first.status).toBe("ok");
    const kept = parseListValidators((await f.t.db.account.findUniqueOrThrow({ where: { id } })).listValidators);
    expect(Object.keys(kept.urls).length).toBeGreaterThan(0);
    expect(kept.savedAt).not.toBeNull();
    const stored = await f.t.db.post.count({ where: { accountId: id } });

    // Nothing changed: one 304, no item or thread request, nothing parsed or stored.
    let seq = f.site.lastSeq();
    const second = await f.crawl(key);
    expect(second.status).toBe("ok");
    expect(second.errors).toEqual([]);
    const asked = since(f, seq);
    expect(asked).toContain("list 304");
    expect(asked.filter((r) => !r.startsWith("list"))).toEqual([]);
    expect({ new: second.newPosts, changed: second.changedPosts, unchanged: second.unchangedPosts, deleted: second.deletedPosts }).toEqual({
      new: 0,
      changed: 0,
      unchanged: 0,
      deleted: 0,
    });
    expect(second.notes.join("\n")).toMatch(/not modified \(HTTP 304\)/);
    expect(second.bytes).toBeLessThan(first.bytes / 4);
    const after304 = parseListValidators((await f.t.db.account.findUniqueOrThrow({ where: { id } })).listValidators);
    expect(after304.urls).toEqual(kept.urls);
    expect(after304.notModifiedRuns).toBe(1);
    expect(after304.notModifiedTotal).toBe(1);

    // A new post (and, on forums, a reply to it): the head changes, both are stored once.
    f.site.clock.advance(5 * MINUTE);
    const post = f.site.addPost(key, { text: `条件请求测试：${key} 的新帖，图书馆今晚延长开放。` });
    if (key !== "blog-1" && key !== "blog-2") {
      f.site.clock.advance(MINUTE);
      f.site.addReply(post.id, { text: "收到，谢谢通知。" });
    }
    f.site.clock.advance(MINUTE);
    seq = f.site.lastSeq();
    const third = await f.crawl(key);
    expect(third.status).toBe("ok");
    expect(since(f, seq)).not.toContain("list 304");
    expect(third.newPosts).toBeGreaterThanOrEqual(1);
    expect(await f.t.db.post.count({ where: { accountId: id } })).toBe(stored + third.newPosts);
    expect(await f.t.db.post.count({ where: { accountId: id, platformId: f.site.platformIdOf(post) } })).toBe(1);
    const fresh = parseListValidators((await f.t.db.account.findUniqueOrThrow({ where: { id } })).listValidators);
    expect(fresh.notModifiedRuns).toBe(0);
    expect(fresh.notModifiedTotal).toBe(1);

    // And unchanged again: 304.
    seq = f.site.lastSeq();
    await f.crawl(key);
    expect(since(f, seq)).toContain("list 304");
  });

  it("a run that could not read everything forgets the validators: the next run reads the listing whole", async () => {
    const key = "discuz-1";
    const id = f.ids.get(key)!;
    f.site.clock.advance(10 * MINUTE);
    const post = f.site.addPost(key, { text: "新帖：宿舍楼下的快递柜坏了。" });
    f.site.clock.advance(MINUTE);
    // The new thread's page fails for this run only.
    const fault = f.site.fault((u) => u.searchParams.get("mod") === "viewthread", { type: "status", status: 500, times: 10 });
    const failed = await f.crawl(key);
    fault.clear();
    expect(failed.status).not.toBe("ok");
    expect(parseListValidators((await f.t.db.account.findUniqueOrThrow({ where: { id } })).listValidators).urls).toEqual({});

    // The listing has not changed since, but the run must not skip it: no 304, the thread is stored.
    const seq = f.site.lastSeq();
    const next = await f.crawl(key);
    expect(next.status).toBe("ok");
    expect(since(f, seq)).not.toContain("list 304");
    expect(await f.t.db.post.count({ where: { accountId: id, platformId: f.site.platformIdOf(post) } })).toBe(1);
  });

  it("a re-check window turns conditional requests off (edits do not change a list page)", async () => {
    const key = "tieba-1";
    const id = f.ids.get(key)!;
    await f.t.db.account.update({ where: { id }, data: { recheckDays: 30 } });
    await f.crawl(key);
    const seq = f.site.lastSeq();
    const run = await f.crawl(key);
    expect(run.status).toBe("ok");
    expect(since(f, seq)).not.toContain("list 304");
    await f.t.db.account.update({ where: { id }, data: { recheckDays: 0 } });
  });
});

describe.each(["etag", "last-modified"] as const)("conditional list requests with %s only", (mode) => {
  let f: CrawlFixture;
  beforeAll(async () => {
    f = await fixture(mode);
  });
  afterAll(async () => f?.close());

  it("an unchanged board answers 304 to the second run", async () => {
    await f.crawl("discuz-1");
    const seq = f.site.lastSeq();
    const run = await f.crawl("discuz-1");
    expect(run.status).toBe("ok");
    expect(since(f, seq)).toEqual(["list 304"]);
  });
});

describe("a server without validators", () => {
  let f: CrawlFixture;
  beforeAll(async () => {
    f = await crawlFixture({ seed: 78, accounts: { discuz: 1 }, postsPerAccount: 5, repliesPerPost: [0, 1] });
  });
  afterAll(async () => f?.close());

  it("keeps nothing and is asked unconditionally", async () => {
    await f.crawl("discuz-1");
    const row = await f.t.db.account.findUniqueOrThrow({ where: { id: f.ids.get("discuz-1")! } });
    expect(parseListValidators(row.listValidators).urls).toEqual({});
    const seq = f.site.lastSeq();
    await f.crawl("discuz-1");
    expect(since(f, seq)).toContain("list 200");
  });
});
