import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { discuzAdapter } from "../../../crawler/adapters/discuz";
import { NonRetryableError } from "../../../crawler/errors";
import type { PoliteFetcher } from "../../../crawler/fetch";
import type { ListItem } from "../../../crawler/types";
import { startLocalPlatforms, type LocalPlatforms } from "../../support/platforms";
import { all, contextFor, firstPage, DAY, HOUR, localFetcher, trail } from "./helpers";

const MINUTE = 60_000;
const toMinute = (d: Date): number => Math.floor(d.getTime() / MINUTE) * MINUTE;

describe("discuz adapter against a local Discuz! X board", () => {
  let site: LocalPlatforms;
  let fetch: PoliteFetcher;

  beforeAll(async () => {
    site = await startLocalPlatforms({
      seed: 9,
      accounts: { weibo: 0, tieba: 0, discuz: 2, blog: 0 },
      postsPerAccount: 25,
      repliesPerPost: [0, 6],
      spanDays: 20,
      pageSizes: { discuz: 10, discuzPosts: 5 },
    });
    site.setEncoding("discuz-2", "gbk");
  });
  afterAll(async () => site.close());
  beforeEach(() => {
    fetch = localFetcher();
    site.clearFaults();
  });
  afterEach(async () => fetch.close());

  test("pages by div.pg a.nxt, sticky first, ordered by last reply, dates from title attributes", async () => {
    const mark = site.lastSeq();
    const pages = await all(discuzAdapter.list(contextFor(site, "discuz-1", fetch)));
    expect(pages.map((p) => p.items.length)).toEqual([11, 10, 4]);
    expect(pages.every((p) => p.orderedByActivity)).toBe(true);
    const items = pages.flatMap((p) => p.items);
    const account = site.account("discuz-1");
    expect(items.map((i) => i.platformId).sort()).toEqual(account.posts.map((p) => `t${p.id}`).sort());
    expect(items[0]).toMatchObject({ platformId: `t${account.posts[0]!.id}`, pinned: true });
    expect(items.filter((i) => i.pinned)).toHaveLength(1);
    for (const item of items) {
      const post = site.model.post(item.platformId.slice(1))!;
      // The last-post column always carries the full "Y-n-j H:i" (text or title): exact to the minute.
      expect(item.lastActivityAt!.getTime()).toBe(toMinute(site.model.lastActivity(post)));
      // The author column shows the day only.
      expect(Math.abs(item.publishedAt.getTime() - post.publishedAt.getTime())).toBeLessThan(DAY);
      expect(item).toMatchObject({ title: post.title, author: post.author, replyCount: post.replies.length, incomplete: true });
    }
    expect(trail(site, mark)).toEqual([1, 2, 3].map((n) => `list /bbs/forum.php?mod=forumdisplay&fid=${account.slug}&page=${n}`));
  });

  test("is lazy: stopping after page 1 made one list request", async () => {
    const mark = site.lastSeq();
    for await (const page of discuzAdapter.list(contextFor(site, "discuz-1", fetch))) {
      expect(page.items.length).toBe(11);
      break;
    }
    expect(site.requests({ afterSeq: mark }).map((r) => r.kind)).toEqual(["list"]);
  });

  test("a GBK board decodes end to end (charset in header and meta)", async () => {
    // The bytes on the wire really are GBK.
    const raw = await globalThis.fetch(site.entryUrl("discuz-2"));
    expect(raw.headers.get("content-type")).toBe("text/html; charset=gbk");
    const bytes = Buffer.from(await raw.arrayBuffer());
    expect(bytes.toString("utf8")).not.toContain(site.account("discuz-2").name);
    const pages = await all(discuzAdapter.list(contextFor(site, "discuz-2", fetch)));
    const items = pages.flatMap((p) => p.items);
    expect(items).toHaveLength(25);
    for (const item of items) {
      const post = site.model.post(item.platformId.slice(1))!;
      expect(item.title).toBe(post.title);
      expect(item.author).toBe(post.author);
    }
    const thread = items.find((i) => i.hasReplies)!;
    const head = await discuzAdapter.complete!(contextFor(site, "discuz-2", fetch), thread);
    expect(head.html).toContain(site.model.post(thread.platformId.slice(1))!.html);
  });

  test("a GBK board that declares its charset only in <meta> decodes too", async () => {
    const gbk = await startLocalPlatforms({
      seed: 2,
      accounts: { weibo: 0, tieba: 0, discuz: 1, blog: 0 },
      postsPerAccount: 3,
      discuzEncoding: "gbk",
      gbkDeclared: "meta-only",
    });
    try {
      const pages = await all(discuzAdapter.list(contextFor(gbk, "discuz-1", fetch)));
      expect(
        pages
          .flatMap((p) => p.items)
          .map((i) => i.title)
          .sort(),
      ).toEqual(
        gbk
          .account("discuz-1")
          .posts.map((p) => p.title)
          .sort(),
      );
    } finally {
      await gbk.close();
    }
  });

  test("thread pages: head t{tid} then replies p{pid} across pages; since skips to the end", async () => {
    site.clock.advance(HOUR);
    const post = site.addPost("discuz-1", { title: "宿舍热水器报修", text: "三号楼的热水器坏了一周了" });
    for (let k = 0; k < 13; k++) {
      site.clock.advance(7 * MINUTE);
      site.addReply(post.id, { text: `我们楼也是，第${k + 1}个` });
    }
    const first = await firstPage(discuzAdapter.list(contextFor(site, "discuz-1", fetch)));
    const item = first.items.find((i) => i.platformId === `t${post.id}`) as ListItem;
    expect(item).toMatchObject({ replyCount: 13, hasReplies: true });
    expect(first.items[1]).toBe(item); // newest activity, after the sticky thread
    // Relative "半小时前"-style text with the full date in title resolves to the minute.
    expect(item.lastActivityAt!.getTime()).toBe(toMinute(post.replies.at(-1)!.publishedAt));

    const mark = site.lastSeq();
    const pages = await all(discuzAdapter.replies!(contextFor(site, "discuz-1", fetch), item, null));
    expect(pages.map((p) => p.replies.length)).toEqual([4, 5, 4]);
    expect(pages[0]!.head).toMatchObject({ platformId: `t${post.id}`, kind: "post", title: "宿舍热水器报修", author: post.author, floor: 1 });
    const replies = pages.flatMap((p) => p.replies);
    expect(replies.map((r) => r.platformId)).toEqual(post.replies.map((r) => `p${r.id}`));
    expect(replies.map((r) => r.floor)).toEqual(post.replies.map((r) => r.floor));
    expect(replies.every((r) => r.parentPlatformId === `t${post.id}`)).toBe(true);
    expect(replies.map((r) => r.publishedAt.getTime())).toEqual(post.replies.map((r) => toMinute(r.publishedAt)));
    expect(trail(site, mark)).toEqual([1, 2, 3].map((n) => `item /bbs/forum.php?mod=viewthread&tid=${post.id}&page=${n}`));

    const mark2 = site.lastSeq();
    await all(discuzAdapter.replies!(contextFor(site, "discuz-1", fetch), item, post.replies[10]!.publishedAt));
    expect(trail(site, mark2)).toEqual([1, 3].map((n) => `item /bbs/forum.php?mod=viewthread&tid=${post.id}&page=${n}`));
  });

  test("an edited first post changes the head's content", async () => {
    const post = site.account("discuz-1").posts[3]!;
    const item = {
      platformId: `t${post.id}`,
      kind: "post",
      url: `${site.origin}/bbs/forum.php?mod=viewthread&tid=${post.id}`,
      title: post.title,
      author: post.author,
      publishedAt: post.publishedAt,
      html: "",
    } satisfies ListItem;
    site.editPost(post.id, { text: "更正：停水时间改到周六" });
    const head = await discuzAdapter.complete!(contextFor(site, "discuz-1", fetch), item);
    expect(head.html).toContain("更正：停水时间改到周六");
    expect(head.html).toContain("本帖最后由");
  });

  test("a redirect loop is a NonRetryableError", async () => {
    site.fault((u) => u.searchParams.get("mod") === "forumdisplay", { type: "redirectLoop" });
    await expect(all(discuzAdapter.list(contextFor(site, "discuz-1", fetch)))).rejects.toBeInstanceOf(NonRetryableError);
  });
});
