/**
 * The adapters through the real fetcher against the REAL captures, served locally at their real
 * paths (test/support/platforms, `realCaptures`). Skipped, with the reason printed, when
 * ../shared is not beside the repo.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { createBlogAdapter } from "../../../crawler/adapters/blog";
import { tiebaAdapter } from "../../../crawler/adapters/tieba";
import { weiboAdapter } from "../../../crawler/adapters/weibo";
import type { PoliteFetcher } from "../../../crawler/fetch";
import type { AdapterContext, Platform } from "../../../crawler/types";
import { locateCaptures, startLocalPlatforms, type CaptureSite, type LocalPlatforms } from "../../support/platforms";
import { all, firstPage, localFetcher } from "./helpers";

const located = locateCaptures();
if ("reason" in located) console.warn(`[real-captures] skipped: ${located.reason}`);

describe.skipIf("reason" in located)("adapters on the real captures served locally", () => {
  let site: LocalPlatforms;
  let fetch: PoliteFetcher;
  const ctx = (capture: CaptureSite, platform: Platform, now: Date): AdapterContext => ({
    account: { id: 1, entryUrl: capture.entryUrl, platform, fetchMode: "http" },
    fetch,
    now,
    log: () => {},
    warn: () => {},
  });

  beforeAll(async () => {
    site = await startLocalPlatforms({ accounts: { weibo: 0, tieba: 0, discuz: 0, blog: 0 }, realCaptures: true });
  });
  afterAll(async () => site.close());
  beforeEach(() => {
    fetch = localFetcher();
  });
  afterEach(async () => fetch.close());

  test("Tieba: the captured bar page yields its 48 threads (and is not taken for a captcha)", async () => {
    const page = await firstPage(tiebaAdapter.list(ctx(site.captures!.tieba, "tieba", new Date("2024-08-07T04:00:00Z"))));
    expect(page.items).toHaveLength(48);
    expect(page.items[0]).toMatchObject({ platformId: "9079949995", url: `${site.captures!.tieba.origin}/p/9079949995` });
    expect(page.orderedByActivity).toBe(true);
  });

  test("Tieba: the captured thread's first page gives the head and its replies", async () => {
    const list = await firstPage(tiebaAdapter.list(ctx(site.captures!.tieba, "tieba", new Date("2024-08-07T04:00:00Z"))));
    const thread = { ...list.items[0]!, platformId: "9117905169", url: `${site.captures!.tieba.origin}/p/9117905169` };
    const pages = tiebaAdapter.replies!(ctx(site.captures!.tieba, "tieba", new Date("2024-08-07T04:00:00Z")), thread, null);
    for await (const page of pages) {
      // The printed name (login 怪物大宝贝), and 29 floors followed by the 10 楼中楼 the page shows
      // itself (its /p/totalComment was not captured: that failure is thrown after the walk).
      expect(page.head?.author).toBe("章景轩");
      expect(page.replies.filter((r) => r.floor !== undefined)).toHaveLength(29);
      expect(page.replies.filter((r) => r.floor === undefined)).toHaveLength(10);
      break; // only page 1 was captured
    }
  });

  test("Weibo: the captured timeline gives its 10 posts, then the API says there is no more", async () => {
    const pages = await all(weiboAdapter.list(ctx(site.captures!.weibo, "weibo", new Date("2019-06-15T04:00:00Z"))));
    expect(pages.flatMap((p) => p.items)).toHaveLength(10);
    expect(site.requests({ accountKey: "capture:weibo" }).map((r) => r.status)).toEqual([200, 200, 200]);
  });

  test("Hexo: no feed at the advertised /atom.xml, so the listing's 10 posts", async () => {
    const pages = await all(createBlogAdapter().list(ctx(site.captures!.hexo, "blog", new Date("2021-01-01T00:00:00Z"))));
    expect(pages.flatMap((p) => p.items)).toHaveLength(10);
    expect(pages[0]!.items[0]!.url).toBe(`${site.captures!.hexo.origin}/posts/56548/`);
  });

  test("WordPress: the feed is discovered at the site root and gives 10 full items", async () => {
    const page = await firstPage(createBlogAdapter().list(ctx(site.captures!.wordpress, "blog", new Date("2021-01-01T00:00:00Z"))));
    expect(page.url).toBe(`${site.captures!.wordpress.origin}/feed/`);
    expect(page.items).toHaveLength(10);
    // Full text in the feed (textIncomplete false), still read from the article page when stored (incomplete).
    expect(page.items.every((i) => i.textIncomplete === false && i.incomplete && i.html.length > 100)).toBe(true);
  });
});
