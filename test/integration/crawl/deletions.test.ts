/**
 * Deletions are noticed, never acted on by removing anything: a thread whose page is gone (404,
 * or a deletion notice) and a reply gone from a thread read whole around it are marked deleted
 * with the time they were noticed; when they come back the mark is cleared and a version added.
 */
import { afterEach, describe, expect, it } from "vitest";
import { crawlFixture, storedRow, type CrawlFixture } from "./support";

let f: CrawlFixture | undefined;
afterEach(async () => {
  await f?.close();
  f = undefined;
});

const HOUR = 3_600_000;

const row = storedRow;

describe.each(["discuz", "tieba"] as const)("%s: a thread and a reply removed between runs, then restored", (platform) => {
  it("marks both deleted with the time noticed, keeps them, and restores them as a new version", async () => {
    f = await crawlFixture({
      seed: 151,
      accounts: { weibo: 0, tieba: platform === "tieba" ? 1 : 0, discuz: platform === "discuz" ? 1 : 0, blog: 0 },
      postsPerAccount: 8,
      repliesPerPost: [6, 6],
      pinOldest: false,
      pageSizes: { discuzPosts: 3, tiebaFloors: 3 },
    });
    const key = `${platform}-1`;
    const site = f.site;
    const first = await f.crawl(key);
    expect(first.errors).toEqual([]);

    // Threads in list order (by last reply): take one from the middle, and a reply on the first
    // page of another (not the page a re-crawl would read for new replies).
    const threads = site.model.visiblePosts(site.account(key)).sort((a, b) => site.model.lastActivity(b).getTime() - site.model.lastActivity(a).getTime());
    const gone = threads[3]!;
    const other = threads[1]!;
    const goneReply = site.model.visibleReplies(other)[0]!;
    const keptReplies = site.model.visibleReplies(gone).map((r) => site.platformIdOf(r));

    site.clock.advance(HOUR);
    site.removePost(gone.id);
    site.removeReply(goneReply.id);
    const noticedAt = site.clock.now();
    const run2 = await f.crawl(key);
    expect(run2.errors).toEqual([]);
    expect(run2.deletedPosts).toBe(2);
    expect(run2.newPosts + run2.changedPosts).toBe(0);
    expect(run2.notes.join("\n")).toContain(`deleted: ${site.platformIdOf(gone)}`);
    const runRow = await f.t.db.crawlRun.findUniqueOrThrow({ where: { id: run2.runId } });
    expect(runRow.note).toContain("2 deleted");

    const goneRow = await row(f, key, site.platformIdOf(gone));
    expect(goneRow.deletedAt?.getTime()).toBe(noticedAt.getTime());
    expect(goneRow.version).toBe(1);
    const replyRow = await row(f, key, site.platformIdOf(goneReply));
    expect(replyRow.deletedAt?.getTime()).toBe(noticedAt.getTime());
    // The thread's own replies keep their state (only the head is known to be gone), and
    // nothing else was marked.
    for (const id of keptReplies) expect((await row(f, key, id)).deletedAt, id).toBeNull();
    expect(await f.t.db.post.count({ where: { accountId: f.ids.get(key)!, deletedAt: { not: null } } })).toBe(2);
    // Kept, never removed.
    expect((await f.stored(key)).size).toBe(first.newPosts);

    // A third run with nothing changed notices nothing new.
    const run3 = await f.crawl(key);
    expect(run3.deletedPosts).toBe(0);
    expect(run3.newPosts + run3.changedPosts).toBe(0);

    // Restored: the marks are cleared and the return is a new version.
    site.clock.advance(HOUR);
    site.removePost(gone.id, false);
    site.removeReply(goneReply.id, false);
    const run4 = await f.crawl(key);
    expect(run4.errors).toEqual([]);
    expect(run4.restoredPosts).toBe(2);
    expect(run4.newPosts).toBe(0);
    for (const id of [site.platformIdOf(gone), site.platformIdOf(goneReply)]) {
      const r = await row(f, key, id);
      expect(r.deletedAt, id).toBeNull();
      expect(r.version, id).toBe(2);
      expect(await f.t.db.postVersion.count({ where: { postId: r.id } }), id).toBe(1);
    }
    expect(await f.t.db.post.count({ where: { accountId: f.ids.get(key)!, deletedAt: { not: null } } })).toBe(0);
  });
});

describe("looking for threads gone from the list costs nothing when none is", () => {
  it.each(["tieba-1", "discuz-1"])("%s with more threads than one list page (older rows show only a day or month): a re-crawl opens no thread", async (key) => {
    f = await crawlFixture({
      seed: 155,
      accounts: { weibo: 0, tieba: 1, discuz: 1, blog: 0 },
      postsPerAccount: 70,
      repliesPerPost: [0, 2],
      spanDays: 400,
      pageSizes: { discuz: 20 },
    });
    await f.crawl(key);
    f.site.clock.advance(HOUR);
    const seq = f.site.lastSeq();
    const run = await f.crawl(key);
    expect(run.errors).toEqual([]);
    expect(run.deletedPosts).toBe(0);
    expect(f.site.requests({ afterSeq: seq, kind: "item" }).map((r) => r.url)).toEqual([]);
  });
});

describe("deletion notices", () => {
  it("a Discuz! thread still listed whose page says 抱歉，指定的主题不存在或已被删除 (HTTP 200) is marked deleted", async () => {
    f = await crawlFixture({ seed: 152, accounts: { weibo: 0, tieba: 0, discuz: 1, blog: 0 }, postsPerAccount: 5, repliesPerPost: [1, 3], pinOldest: false });
    const site = f.site;
    await f.crawl("discuz-1");
    const thread = site.model.visiblePosts(site.account("discuz-1"))[2]!;
    site.clock.advance(HOUR);
    // The list still shows it with a new reply (lists lag behind moderators), the page is gone.
    site.addReply(thread.id, { text: "怎么被删了" });
    site.fault((u) => u.searchParams.get("mod") === "viewthread" && u.searchParams.get("tid") === thread.id, {
      type: "body",
      body: `<html><head><meta charset="utf-8"><title>提示信息</title></head><body><div id="messagetext" class="alert_error"><p>抱歉，指定的主题不存在或已被删除或正在被审核</p></div></body></html>`,
    });
    const run = await f.crawl("discuz-1");
    expect(run.errors).toEqual([]);
    expect(run.deletedPosts).toBe(1);
    expect((await row(f, "discuz-1", site.platformIdOf(thread))).deletedAt).not.toBeNull();
  });

  it("a reply quoting a deletion notice inside a living thread is not a deletion", async () => {
    f = await crawlFixture({ seed: 153, accounts: { weibo: 0, tieba: 1, discuz: 1, blog: 0 }, postsPerAccount: 4, repliesPerPost: [1, 2], pinOldest: false });
    const site = f.site;
    for (const key of ["discuz-1", "tieba-1"]) {
      const thread = site.model.visiblePosts(site.account(key))[0]!;
      site.addReply(thread.id, { text: "抱歉，指定的主题不存在或已被删除 —— 我的帖子也显示该贴已被删除" });
      const run = await f.crawl(key);
      expect(run.errors, key).toEqual([]);
      expect(run.deletedPosts, key).toBe(0);
      expect(await f.t.db.post.count({ where: { deletedAt: { not: null } } })).toBe(0);
    }
  });

  it("a thread page that fails (HTTP 500) is an error naming that page, not a deletion", async () => {
    f = await crawlFixture({ seed: 154, accounts: { weibo: 0, tieba: 1, discuz: 0, blog: 0 }, postsPerAccount: 3, repliesPerPost: [1, 2], pinOldest: false });
    const site = f.site;
    const thread = site.model.visiblePosts(site.account("tieba-1"))[0]!;
    site.fault((u) => u.pathname === `/p/${thread.id}`, { type: "status", status: 500 });
    const run = await f.crawl("tieba-1");
    expect(run.deletedPosts).toBe(0);
    expect(run.errors).toHaveLength(1);
    expect(run.errors[0]!.url).toBe(`${site.origin}/p/${thread.id}?pn=1`);
  });
});
