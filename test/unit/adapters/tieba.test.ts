import { describe, expect, test } from "vitest";
import { extractTiebaThreadList, parseTiebaList, parseTiebaThread } from "../../../crawler/adapters";
import { tiebaAdapter } from "../../../crawler/adapters/tieba";
import { NonRetryableError } from "../../../crawler/errors";
import { collect, readReal, realAvailable, stubContext, stubFetcher } from "./helpers";

/** The list capture is from 7 August 2024 (reply dates "11:24" today, "8-6" yesterday). */
const NOW = new Date("2024-08-07T04:00:00Z"); // 12:00 Shanghai
const sh = (wall: string): string => new Date(`${wall}+08:00`).toISOString();

describe.skipIf(!realAvailable)("tieba list on the real capture", () => {
  const html = () => readReal("tieba_forum_list_frs.html");

  test("finds the thread list inside the HTML comment of the pagelet", () => {
    expect(extractTiebaThreadList(html())).toContain('<ul id="thread_list"');
  });

  test("yields every thread row with id, title, author, times and reply count", () => {
    const items = parseTiebaList(html(), "https://tieba.baidu.com/f?kw=%E7%9B%97%E5%A2%93%E7%AC%94%E8%AE%B0&ie=utf-8&pn=0", NOW);
    // SOURCES.txt says 50; the page has 50 "j_thread_list" strings but two are in a script: 48 rows.
    expect(items).toHaveLength(48);
    expect(new Set(items.map((i) => i.platformId)).size).toBe(48);
    expect(items[0]).toMatchObject({
      platformId: "9079949995",
      title: "盗墓笔记全集+txt小说，已整理",
      author: "公子伯仲",
      url: "https://tieba.baidu.com/p/9079949995",
      replyCount: 18,
      hasReplies: true,
      pinned: false,
      incomplete: true,
    });
    expect(items[0]!.publishedAt.toISOString()).toBe(sh("2024-07-06T00:00:00")); // "7-6"
    expect(items[0]!.lastActivityAt?.toISOString()).toBe(sh("2024-08-07T11:24:00")); // "11:24"
    expect(items[1]!.publishedAt.toISOString()).toBe(sh("2020-05-01T00:00:00")); // "2020-05"
    expect(items[1]!.html).toContain("张海琪");
    expect(items.at(-1)!.platformId).toBe("1138972019");
    expect(items.every((i) => i.title.length > 0 && i.source?.body.length)).toBe(true);
    // "Ordered by last reply" only roughly: the real page has rows out of order ("8-2" above
    // "8-7"), so a scan must not stop at the first row older than what it has seen.
    const activity = items.map((i) => i.lastActivityAt!.getTime());
    expect(activity.some((t, k) => k > 0 && t > activity[k - 1]!)).toBe(true);
  });

  test("the same rows parse when the pagelet is not commented out (browser-rendered page)", () => {
    const uncommented = html()
      .replace('id="pagelet_html_frs-list/pagelet/thread_list" style="display:none;"><!--', 'id="pagelet_html_frs-list/pagelet/thread_list">')
      .replace(/-->\s*<\/code>/, "</code>");
    expect(parseTiebaList(uncommented, "https://tieba.baidu.com/f?kw=x", NOW)).toHaveLength(48);
  });
});

describe.skipIf(!realAvailable)("tieba thread on the real capture", () => {
  const page = () => parseTiebaThread(readReal("tieba_thread_detail_pb.html"), "https://tieba.baidu.com/p/9117905169", "9117905169", NOW);

  test("floor 1 is the head post, other floors are replies with their post ids", () => {
    const p = page();
    // The page prints "章景轩" for login 怪物大宝贝 (nickname 贴吧用户_5JQP6NR): the printed name is the author.
    expect(p.head).toMatchObject({
      platformId: "9117905169",
      kind: "post",
      parentPlatformId: null,
      floor: 1,
      author: "章景轩",
      authorId: "tb.1.6ae447d1.1kSMO_ldLGD7OUTJ7rd_Bw",
      title: "对于一个父亲来说，这个女儿14岁就死了",
    });
    expect(p.head!.publishedAt.toISOString()).toBe(sh("2024-08-05T16:56:00"));
    expect(p.head!.images?.length).toBeGreaterThan(0);
    expect(p.replies).toHaveLength(29); // 31 l_post blocks: 1 head, 1 ad placeholder, 29 replies
    expect(p.replies[0]).toMatchObject({
      platformId: "150719088158",
      parentPlatformId: "9117905169",
      kind: "reply",
      floor: 2,
      author: "杜草莓",
      authorId: "tb.1.e6799915.LKjPxJqJYl63wghcm6hl4w",
    });
    expect(p.replies[0]!.publishedAt.toISOString()).toBe(sh("2024-08-05T17:07:00"));
    expect(p.replies[0]!.html).toContain("叛逆");
    expect(p.replies.map((r) => r.floor)).toEqual([...p.replies.map((r) => r.floor)].sort((a, b) => a! - b!));
  });

  test("reads the page count from [max-page]", () => {
    expect(page().pageCount).toBe(13);
  });
});

describe("tieba list pages that are not lists", () => {
  test("a page without the thread_list container throws instead of returning nothing", async () => {
    const captcha = "<html><head><title>百度安全验证</title></head><body><div class='timeout-title'>网络不给力，请稍后重试</div></body></html>";
    const fetch = stubFetcher({ "https://tieba.baidu.com/f?kw=abc&ie=utf-8&pn=0": captcha });
    const ctx = stubContext("tieba", "https://tieba.baidu.com/f?kw=abc", fetch, NOW);
    await expect(collect(tiebaAdapter.list(ctx))).rejects.toThrow(NonRetryableError);
  });

  test("an empty but real thread list is an empty page, not an error", () => {
    const empty = '<code id="pagelet_html_frs-list/pagelet/thread_list"><!--<ul id="thread_list"></ul>--></code>';
    expect(parseTiebaList(empty, "https://tieba.baidu.com/f?kw=abc", NOW)).toEqual([]);
  });
});
