import { describe, expect, test } from "vitest";
import { weiboUidFromUrl } from "../../../crawler/adapters";
import { weiboAdapter } from "../../../crawler/adapters/weibo";
import { collect, readReal, realAvailable, stubContext, stubFetcher } from "./helpers";

/** The capture was taken in June 2019 ("06-14" etc. are 2019 dates). */
const NOW_2019 = new Date("2019-06-15T04:00:00Z");
const UID = "1669879400";
const ORIGIN = "https://m.weibo.cn";
const LOOKUP = `${ORIGIN}/api/container/getIndex?type=uid&value=${UID}`;
const TIMELINE = `${LOOKUP}&containerid=107603${UID}`;

describe.skipIf(!realAvailable)("weibo adapter on the real m.weibo.cn capture", () => {
  const lookupBody = JSON.stringify({
    ok: 1,
    data: {
      tabsInfo: {
        tabs: [
          { tab_type: "profile", containerid: `230283${UID}` },
          { tab_type: "weibo", containerid: `107603${UID}` },
        ],
      },
    },
  });

  test("lists its 10 posts with ids, dates, counts; pages on with cardlistInfo.page", async () => {
    const fetch = stubFetcher({
      [LOOKUP]: lookupBody,
      [TIMELINE]: readReal("weibo_m_getIndex_107603_timeline.json"),
      [`${TIMELINE}&page=2`]: JSON.stringify({ ok: 0, msg: "这里还没有内容", data: { cards: [] } }),
    });
    const pages = await collect(weiboAdapter.list(stubContext("weibo", `${ORIGIN}/u/${UID}`, fetch, NOW_2019)));
    expect(pages).toHaveLength(1);
    const items = pages[0]!.items;
    expect(items).toHaveLength(10);
    expect(items.map((i) => i.platformId)).toEqual([
      "4383183661430868",
      "4383180406740606",
      "4382054705416396",
      "4381312410216312",
      "4381207217392722",
      "4380517519047355",
      "4379825714272349",
      "4379188905591760",
      "4378893399854472",
      "4378514142544199",
    ]);
    expect(items[0]!.publishedAt.toISOString()).toBe("2019-06-13T16:00:00.000Z"); // "06-14", Shanghai midnight
    expect(items[9]!.publishedAt.toISOString()).toBe("2019-05-31T16:00:00.000Z"); // "06-01"
    expect(items[0]!.author).toBe("Dear-迪丽热巴");
    expect(items[0]!.url).toBe(`${ORIGIN}/detail/4383183661430868`);
    expect(items[0]!.title).toContain("搬完这块砖");
    // mblogtype 1 is a promoted post, not a pinned one (pinned is 2).
    expect(items.every((i) => i.pinned === false)).toBe(true);
    expect(items.find((i) => i.platformId === "4379188905591760")?.replyCount).toBe(1_000_000); // "100万+"
    expect(items.every((i) => i.hasReplies)).toBe(true);
    // Emoji icons are not content images.
    expect(items[0]!.images?.some((u) => u.includes("emoticon"))).toBe(false);
    expect(fetch.requests.map((r) => [r.url, r.kind, r.json])).toEqual([
      [LOOKUP, "list", true],
      [TIMELINE, "list", true],
      [`${TIMELINE}&page=2`, "list", true],
    ]);
  });

  test("is lazy: stopping after page 1 makes no further request; a failed lookup falls back to 107603{uid}", async () => {
    const fetch = stubFetcher({ [TIMELINE]: readReal("weibo_m_getIndex_107603_timeline.json") });
    for await (const page of weiboAdapter.list(stubContext("weibo", `${ORIGIN}/u/${UID}`, fetch, NOW_2019))) {
      expect(page.items).toHaveLength(10);
      break;
    }
    expect(fetch.requests.map((r) => r.url)).toEqual([LOOKUP, TIMELINE]);
  });
});

describe("weibo API host", () => {
  test("a weibo.com entry is read through m.weibo.cn's API", async () => {
    const fetch = stubFetcher({});
    await expect(collect(weiboAdapter.list(stubContext("weibo", "https://weibo.com/u/1669879400", fetch, NOW_2019)))).rejects.toThrow(/404/);
    expect(fetch.requests.map((r) => new URL(r.url).host)).toEqual(["m.weibo.cn", "m.weibo.cn"]);
  });
});

describe("weibo entry URLs", () => {
  test.each([
    ["https://m.weibo.cn/u/1669879400", "1669879400"],
    ["https://weibo.com/u/1669879400", "1669879400"],
    ["https://m.weibo.cn/p/1005051669879400", "1669879400"],
    ["https://weibo.com/1669879400", "1669879400"],
    ["https://weibo.cn/1669879400/profile?page=1", "1669879400"],
    ["http://127.0.0.1:4000/u/5000000001", "5000000001"],
    ["http://127.0.0.1:4000/1669879400", null],
  ])("%s → %s", (url, uid) => {
    expect(weiboUidFromUrl(new URL(url))).toBe(uid);
  });
});
