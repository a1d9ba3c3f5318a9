import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { tiebaAdapter } from "../../../crawler/adapters/tieba";
import { BlockedError } from "../../../crawler/errors";
import type { PoliteFetcher } from "../../../crawler/fetch";
import type { ListItem } from "../../../crawler/types";
import { startLocalPlatforms, type LocalPlatforms } from "../../support/platforms";
import { all, contextFor, firstPage, localFetcher, trail } from "./helpers";

const MINUTE = 60_000;

describe("tieba adapter against the local tieba.baidu.com", () => {
  let site: LocalPlatforms;
  let fetch: PoliteFetcher;

  beforeAll(async () => {
    site = await startLocalPlatforms({
      seed: 5,
      accounts: { weibo: 0, tieba: 2, discuz: 0, blog: 0 },
      postsPerAccount: 120,
      repliesPerPost: [0, 4],
      pageSizes: { tiebaFloors: 10 },
    });
  });
  afterAll(async () => site.close());
  beforeEach(() => {
    fetch = localFetcher();
    site.clearFaults();
  });
  afterEach(async () => fetch.close());

  test("pages through the bar by pn=50·k, pinned first, ordered by last reply", async () => {
    const mark = site.lastSeq();
    const pages = await all(tiebaAdapter.list(contextFor(site, "tieba-1", fetch)));
    expect(pages.map((p) => p.items.length)).toEqual([51, 50, 19]); // pinned + 119 others
    expect(pages.every((p) => p.orderedByActivity)).toBe(true);
    const items = pages.flatMap((p) => p.items);
    const account = site.account("tieba-1");
    expect(items.map((i) => i.platformId).sort()).toEqual(account.posts.map((p) => p.id).sort());
    expect(items[0]).toMatchObject({ platformId: account.posts[0]!.id, pinned: true });
    // The pinned thread is old; the rest follow their last reply, newest first.
    const rest = items.slice(1).map((i) => site.model.lastActivity(site.model.post(i.platformId)!).getTime());
    expect(rest).toEqual([...rest].sort((a, b) => b - a));
    // Titles and authors round-trip; the list shows coarse dates, the activity column is today's "HH:MM" or "M-D".
    const sample = items[5]!;
    const post = site.model.post(sample.platformId)!;
    expect(sample).toMatchObject({ title: post.title, author: post.author, replyCount: post.replies.length, incomplete: true });
    expect(trail(site, mark)).toEqual([0, 50, 100].map((pn) => `list /f?kw=${account.slug}&ie=utf-8&pn=${pn}`));
  });

  test("is lazy: stopping after page 1 made one list request", async () => {
    const mark = site.lastSeq();
    for await (const page of tiebaAdapter.list(contextFor(site, "tieba-2", fetch))) {
      expect(page.items).toHaveLength(51);
      break;
    }
    expect(site.requests({ afterSeq: mark })).toHaveLength(1);
  });

  test("replies: floor 1 is the head, the others come in order across thread pages", async () => {
    site.clock.advance(MINUTE);
    const post = site.addPost("tieba-2", { title: "四六级报名时间", text: "今年的报名入口在教务处网站" });
    for (let k = 0; k < 24; k++) {
      site.clock.advance(MINUTE);
      site.addReply(post.id, { text: `回复${k + 1}` });
    }
    const first = await firstPage(tiebaAdapter.list(contextFor(site, "tieba-2", fetch)));
    const item = first.items.find((i) => i.platformId === post.id) as ListItem;
    expect(item).toMatchObject({ hasReplies: true, replyCount: 24, pinned: false });
    expect(first.items[1]!.platformId).toBe(post.id); // freshest activity, right after the pinned thread

    const mark = site.lastSeq();
    const pages = await all(tiebaAdapter.replies!(contextFor(site, "tieba-2", fetch), item, null));
    expect(pages.map((p) => p.replies.length)).toEqual([9, 10, 5]); // 25 floors by 10, head included
    expect(pages[0]!.head).toMatchObject({ platformId: post.id, kind: "post", title: "四六级报名时间", floor: 1 });
    expect(pages[0]!.head!.html).toContain("教务处");
    const replies = pages.flatMap((p) => p.replies);
    expect(replies.map((r) => r.platformId)).toEqual(post.replies.map((r) => r.id));
    expect(replies.map((r) => r.floor)).toEqual(post.replies.map((r) => r.floor));
    expect(replies.every((r) => r.parentPlatformId === post.id && r.kind === "reply")).toBe(true);
    // Floors carry "YYYY-MM-DD HH:MM": exact to the minute.
    expect(replies[0]!.publishedAt.getTime()).toBe(Math.floor(post.replies[0]!.publishedAt.getTime() / MINUTE) * MINUTE);
    expect(trail(site, mark)).toEqual([1, 2, 3].map((pn) => `item /p/${post.id}?pn=${pn}`));

    // With `since`, page 1 (head, page count) and then only the pages after it are read.
    const since = post.replies[19]!.publishedAt; // floor 21, on page 3
    const mark2 = site.lastSeq();
    const recent = await all(tiebaAdapter.replies!(contextFor(site, "tieba-2", fetch), item, since));
    expect(trail(site, mark2)).toEqual([`item /p/${post.id}?pn=1`, `item /p/${post.id}?pn=3`]);
    expect(
      recent
        .flatMap((p) => p.replies)
        .filter((r) => r.publishedAt > since)
        .map((r) => r.platformId),
    ).toEqual(post.replies.slice(20).map((r) => r.id));

    // complete() reads page 1 for the head post.
    const head = await tiebaAdapter.complete!(contextFor(site, "tieba-2", fetch), item);
    expect(head).toMatchObject({ platformId: post.id, kind: "post", author: post.author });
  });

  test("follows the pager's pn offsets when pages are smaller than 50", async () => {
    const small = await startLocalPlatforms({ seed: 6, accounts: { weibo: 0, tieba: 1, discuz: 0, blog: 0 }, postsPerAccount: 25, pageSizes: { tieba: 10 } });
    try {
      const pages = await all(tiebaAdapter.list(contextFor(small, "tieba-1", fetch)));
      expect(pages.map((p) => p.items.length)).toEqual([11, 10, 4]);
      expect(new Set(pages.flatMap((p) => p.items.map((i) => i.platformId))).size).toBe(25);
      expect(small.requests().map((r) => new URL(r.url, small.origin).searchParams.get("pn"))).toEqual(["0", "10", "20"]);
    } finally {
      await small.close();
    }
  });

  test("a Baidu captcha page is a block, never an empty list", async () => {
    site.fault("/f?kw=", { type: "captcha" });
    await expect(all(tiebaAdapter.list(contextFor(site, "tieba-1", fetch)))).rejects.toBeInstanceOf(BlockedError);
  });
});
