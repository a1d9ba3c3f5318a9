/**
 * Long threads are crawled whole, over several runs when they must: a per-thread page budget,
 * the rest resumed where the last run stopped (HistoryMark.resume), the thread's mark moved only
 * over what was stored, and a run with an unfinished thread never "ok". Once whole, a new reply
 * on the last page costs the list page and that one thread page.
 */
import { afterEach, describe, expect, it } from "vitest";
import { crawlFixture, type CrawlFixture } from "./support";

let f: CrawlFixture | undefined;
afterEach(async () => {
  await f?.close();
  f = undefined;
});

const MINUTE = 60_000;

/** Replies per thread page is 2 here, so head + 238 replies = 239 posts = 120 pages (the last holds one). */
const REPLIES = 238;

describe.each(["discuz", "tieba"] as const)("a 120-page %s thread with a budget of 50 pages per run", (platform) => {
  it("is complete after three runs, nothing lost or duplicated; a new reply on its last page costs 2 requests", async () => {
    f = await crawlFixture(
      {
        seed: 131,
        accounts: { weibo: 0, tieba: platform === "tieba" ? 1 : 0, discuz: platform === "discuz" ? 1 : 0, blog: 0 },
        postsPerAccount: 1,
        repliesPerPost: [0, 0],
        pinOldest: false,
        pageSizes: { discuzPosts: 2, tiebaFloors: 2 },
      },
      { threadPageBudget: 50 },
    );
    const key = `${platform}-1`;
    const site = f.site;
    const thread = site.model.visiblePosts(site.account(key))[0]!;
    const start = site.clock.now().getTime() - 3 * 86_400_000;
    for (let i = 0; i < REPLIES; i++) site.addReply(thread.id, { text: `第${i + 1}条回复：食堂的菜价又涨了吗`, at: new Date(start + (i + 1) * MINUTE) });
    const threadId = site.platformIdOf(thread);
    const threadPages = (afterSeq: number) => site.requests({ afterSeq, kind: "item" }).length;

    // Run 1: pages 1–50 (the head and 99 replies), then it stops and says where it resumes.
    let seq = site.lastSeq();
    const run1 = await f.crawl(key);
    expect(run1.errors).toEqual([]);
    expect(run1.status).toBe("partial");
    expect(run1.unfinishedThreads).toBe(1);
    expect(threadPages(seq)).toBe(50);
    expect(run1.newPosts).toBe(1 + 99);
    expect(run1.notes.join("\n")).toMatch(new RegExp(`thread ${threadId} unfinished: read pages 1–50 of 120 .*resumes at page 51`));
    const row1 = await f.t.db.crawlRun.findUniqueOrThrow({ where: { id: run1.runId } });
    expect(row1.status).toBe("partial");
    expect(row1.note).toContain("resumes at page 51");
    const mark1 = await f.t.db.historyMark.findFirstOrThrow({ where: { accountId: f.ids.get(key)!, scope: threadId } });
    expect(JSON.parse(mark1.resume!)).toEqual({ page: 51 });
    // The mark covers only what was stored: the 99th reply, not the thread's last activity.
    expect(mark1.newestAt.getTime()).toBe(start + 99 * MINUTE);

    // Run 2: resumes (one page back, to be sure nothing moved), 50 more pages.
    seq = site.lastSeq();
    const run2 = await f.crawl(key);
    expect(run2.errors).toEqual([]);
    expect(run2.status).toBe("partial");
    expect(threadPages(seq)).toBe(50);
    const item2 = site.requests({ afterSeq: seq, kind: "item" }).map((r) => r.url);
    expect(item2.some((u) => /[?&](page|pn)=1(&|$)/.test(u))).toBe(false);

    // Run 3: the rest; the run is ok and the thread is whole.
    const run3 = await f.crawl(key);
    expect(run3.errors).toEqual([]);
    expect(run3.status).toBe("ok");
    expect(run3.unfinishedThreads).toBe(0);
    expect(run1.newPosts + run2.newPosts + run3.newPosts).toBe(1 + REPLIES);

    const stored = await f.stored(key);
    const expected = f.expected(key);
    expect([...stored.keys()].sort()).toEqual([...expected.keys()].sort());
    expect(await f.t.db.post.count({ where: { accountId: f.ids.get(key)!, kind: "reply" } })).toBe(REPLIES);
    for (const [id, e] of expected) expect(stored.get(id)!.parentPlatformId, id).toBe(e.parentPlatformId);
    const mark3 = await f.t.db.historyMark.findFirstOrThrow({ where: { accountId: f.ids.get(key)!, scope: threadId } });
    expect(JSON.parse(mark3.resume!)).toEqual({ last: 120 });

    // A new reply lands on the last page: the list page and that thread page, nothing else.
    site.clock.advance(10 * MINUTE);
    const reply = site.addReply(thread.id, { text: "楼主，新学期的课表出来了" });
    site.clock.advance(MINUTE);
    seq = site.lastSeq();
    const run4 = await f.crawl(key);
    expect(run4.errors).toEqual([]);
    expect(run4.status).toBe("ok");
    expect(run4.newPosts).toBe(1);
    expect(run4.changedPosts).toBe(0);
    const asked = site.requests({ afterSeq: seq }).filter((r) => r.kind !== "other");
    expect(asked.length).toBeLessThanOrEqual(2);
    expect((await f.stored(key)).has(site.platformIdOf(reply))).toBe(true);
  }, 60_000);
});

describe("Weibo's comment flow (ordered by popularity)", () => {
  it("is read up to the budget, and the run says so", async () => {
    f = await crawlFixture(
      {
        seed: 132,
        accounts: { weibo: 1, tieba: 0, discuz: 0, blog: 0 },
        postsPerAccount: 1,
        repliesPerPost: [9, 9],
        pinOldest: false,
        weiboDates: "rfc",
        pageSizes: { weiboComments: 2 },
      },
      { threadPageBudget: 2 },
    );
    const run = await f.crawl("weibo-1");
    expect(run.errors).toEqual([]);
    const post = f.site.model.visiblePosts(f.site.account("weibo-1"))[0]!;
    expect(run.notes.join("\n")).toMatch(new RegExp(`thread ${f.site.platformIdOf(post)}: read the first 2 pages of comments only`));
    expect(await f.t.db.post.count({ where: { kind: "reply" } })).toBe(4);
  });
});
