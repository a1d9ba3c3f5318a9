/**
 * Issue 30 item 1, the forum side of the worker's fallback: a new thread whose first page fails
 * keeps its list entry, stored as what it is — an excerpt, marked incomplete — and the next run
 * completes it in place from the thread's first page (no version: the author edited nothing).
 */
import { afterEach, describe, expect, test } from "vitest";
import { htmlToText } from "../../../crawler/text";
import { crawlFixture, type CrawlFixture } from "./support";

let f: CrawlFixture | undefined;
afterEach(async () => {
  await f?.close();
  f = undefined;
});

const MINUTE = 60_000;

describe("item 1: a new forum thread whose first page fails", () => {
  test.each(["tieba", "discuz"] as const)("%s: the list excerpt is stored incomplete, then completed without a version", async (platform) => {
    f = await crawlFixture({
      seed: 33,
      accounts: { weibo: 0, tieba: platform === "tieba" ? 1 : 0, discuz: platform === "discuz" ? 1 : 0, blog: 0 },
      postsPerAccount: 2,
      repliesPerPost: [1, 1],
    });
    const { site } = f;
    const key = `${platform}-1`;
    site.clock.advance(MINUTE);
    const post = site.addPost(key, { text: "图书馆周末开放时间调整为早八点到晚十点，请同学们相互转告。".repeat(6) });
    site.clock.advance(MINUTE);
    site.addReply(post.id, { text: "收到" });
    site.clock.advance(MINUTE);
    const pid = site.platformIdOf(post);
    const tid = pid.replace(/^t/, "");
    const threadPage = platform === "tieba" ? (u: URL) => u.pathname === `/p/${tid}` : (u: URL) => u.searchParams.get("tid") === tid;
    const fault = site.fault(threadPage, { type: "status", status: 500 });

    const r1 = await f.crawl(key);
    expect(fault.hits).toBeGreaterThan(0);
    expect(r1.errors.length).toBeGreaterThan(0);
    const entry = await f.t.db.post.findFirstOrThrow({ where: { accountId: f.ids.get(key)!, platformId: pid } });
    expect(entry).toMatchObject({ incomplete: true, version: 1 });

    fault.clear();
    site.clock.advance(MINUTE);
    const r2 = await f.crawl(key);
    expect(r2.errors).toEqual([]);
    const whole = await f.t.db.post.findFirstOrThrow({ where: { id: entry.id } });
    expect(whole).toMatchObject({ incomplete: false, version: 1, text: htmlToText(post.html) });
    expect(await f.t.db.postVersion.count({ where: { postId: entry.id } })).toBe(0);
  });
});
