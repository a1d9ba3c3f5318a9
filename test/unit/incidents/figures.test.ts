/**
 * The pure parts of incidents: figures from members (threads through a 楼中楼 reply's floor, the
 * representative post, the topic vote), the sparkline/timeline buckets in Asia/Shanghai time, and
 * the list filter read from a URL (anything unknown is ignored, never an error).
 */
import { describe, expect, it } from "vitest";
import { computeIncidentFigures, type FigureMember } from "../../../crawler/incidents/figures";
import { bucketCounts, bucketSizeFor, incidentFilterParams, MAX_BUCKETS, parseIncidentFilter } from "../../../server/incidents";

const T0 = Date.parse("2026-11-20T00:00:00Z");
const m = (id: number, min: number, over: Partial<FigureMember> = {}): FigureMember => ({
  id,
  kind: "post",
  parentId: null,
  grandParentId: null,
  accountId: 1,
  platform: "tieba",
  author: `a${id}`,
  authorId: "",
  publishedAt: new Date(T0 + min * 60_000),
  replyCount: null,
  sentiment: null,
  flagTopics: [],
  ...over,
});

describe("computeIncidentFigures", () => {
  it("puts a floor's 楼中楼 reply in its thread, counts an author once per platform, votes the topic", () => {
    const f = computeIncidentFigures([
      m(3, 5, { kind: "reply", parentId: 2, grandParentId: 1, author: "a1", flagTopics: [7] }),
      m(1, 0, { replyCount: 1, flagTopics: [9] }),
      m(2, 3, { kind: "reply", parentId: 1, flagTopics: [7, 9] }),
      m(4, 1, { platform: "weibo", author: "a1", accountId: 2, sentiment: "negative" }),
    ]);
    expect(f).toMatchObject({
      size: 4,
      threadCount: 2,
      // "a1" on Tieba (twice) and on Weibo: two authors; a2 is the third.
      authorCount: 3,
      accountCount: 2,
      platforms: ["tieba", "weibo"],
      // Thread 1: two stored replies beat its count of 1; thread 4: none.
      replyCount: 2,
      flaggedCount: 3,
      negativeCount: 1,
      representativePostId: 1,
      // 7 and 9 have two votes each: the lower id wins.
      topicId: 7,
    });
  });

  it("prefers the thread that started first when two are as large", () => {
    expect(
      computeIncidentFigures([m(5, 10), m(6, 11, { kind: "reply", parentId: 5 }), m(8, 2), m(9, 3, { kind: "reply", parentId: 8 })]).representativePostId,
    ).toBe(8);
  });
});

describe("buckets", () => {
  it("are hours up to three days, days beyond; Asia/Shanghai boundaries; at most MAX_BUCKETS, the latest", () => {
    const at = (h: number) => new Date(T0 + h * 3_600_000);
    expect(bucketSizeFor(at(0), at(72))).toBe("hour");
    expect(bucketSizeFor(at(0), at(73))).toBe("day");
    // 2026-11-20T15:30Z is 23:30 in Shanghai, 16:30Z the next day's 00:30.
    const days = bucketCounts(
      [
        { at: at(15.5), key: "n" },
        { at: at(16.5), key: "n" },
      ],
      at(15.5),
      at(16.5),
      "day",
      ["n"],
    );
    expect(days.map((d) => [d.label, d.counts.n])).toEqual([
      ["11-20", 1],
      ["11-21", 1],
    ]);
    const long = bucketCounts([{ at: at(0), key: "n" }], at(0), at(200 * 24), "day", ["n"]);
    expect(long).toHaveLength(MAX_BUCKETS);
    expect(long.every((b) => b.counts.n === 0)).toBe(true);
  });
});

describe("parseIncidentFilter", () => {
  it("reads what it knows and ignores the rest", () => {
    expect(parseIncidentFilter({})).toEqual({ states: ["open", "handled"], page: 1 });
    const f = parseIncidentFilter({ status: "handled", topic: "3", platform: "weibo", neg: "50", since: "7d", page: "2" });
    expect(f).toEqual({ states: ["handled"], topicId: 3, platform: "weibo", negativeShare: 50, window: "7d", page: 2 });
    expect(incidentFilterParams(f).toString()).toBe("status=handled&topic=3&platform=weibo&neg=50&since=7d");
    expect(parseIncidentFilter({ status: "<x>", topic: "-1", platform: "myspace", neg: "33", since: "1y", page: "0" })).toEqual({
      states: ["open", "handled"],
      page: 1,
    });
    expect(parseIncidentFilter({ status: "all" }).states).toHaveLength(5);
  });
});
