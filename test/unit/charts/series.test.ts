import { describe, expect, test } from "vitest";
import {
  accountActivity,
  addDays,
  bucketFor,
  bucketList,
  crawlHealthSeries,
  dayList,
  downsample,
  flagRateByTopic,
  harvestCurves,
  isEmptySeries,
  toStackedSeries,
  topTermCounts,
  weekStart,
} from "@/lib/charts/series";

describe("days and buckets", () => {
  test.each([
    ["2026-11-30", 1, "2026-12-01"],
    ["2026-12-31", 1, "2027-01-01"],
    ["2028-02-28", 1, "2028-02-29"],
    ["2026-03-01", -1, "2026-02-28"],
    ["2026-11-30", -365, "2025-11-30"],
  ])("addDays(%s, %i) = %s", (day, n, expected) => {
    expect(addDays(day, n)).toBe(expected);
  });

  test.each([
    ["2026-11-30", "2026-11-30"], // Monday
    ["2026-12-06", "2026-11-30"], // Sunday
    ["2026-12-01", "2026-11-30"],
    ["2027-01-01", "2026-12-28"], // across the year
  ])("weekStart(%s) = %s", (day, expected) => {
    expect(weekStart(day)).toBe(expected);
  });

  test.each([
    [7, "day"],
    [90, "day"],
    [120, "day"],
    [121, "week"],
    [365, "week"],
  ] as const)("bucketFor(%i) = %s", (days, expected) => {
    expect(bucketFor(days)).toBe(expected);
  });

  test("a year of days is 365 days in 53 weekly buckets", () => {
    const days = dayList("2026-11-30", 365);
    expect(days).toHaveLength(365);
    expect(days[0]).toBe("2025-12-01");
    expect(days.at(-1)).toBe("2026-11-30");
    expect(bucketList(days, "week")).toHaveLength(53);
    expect(bucketList(days, "day")).toHaveLength(365);
  });
});

describe("toStackedSeries", () => {
  const days = dayList("2026-11-30", 3);
  test.each([
    [
      "no rows: zeros everywhere",
      [],
      [
        { bucket: "2026-11-28", label: "11/28", weibo: 0, tieba: 0 },
        { bucket: "2026-11-29", label: "11/29", weibo: 0, tieba: 0 },
        { bucket: "2026-11-30", label: "11/30", weibo: 0, tieba: 0 },
      ],
    ],
    [
      "rows summed per day and key; outside days and unknown keys ignored",
      [
        { day: "2026-11-28", key: "weibo", n: 2 },
        { day: "2026-11-28", key: "weibo", n: 3 },
        { day: "2026-11-30", key: "tieba", n: 1 },
        { day: "2026-11-27", key: "weibo", n: 9 },
        { day: "2026-11-29", key: "blog", n: 9 },
      ],
      [
        { bucket: "2026-11-28", label: "11/28", weibo: 5, tieba: 0 },
        { bucket: "2026-11-29", label: "11/29", weibo: 0, tieba: 0 },
        { bucket: "2026-11-30", label: "11/30", weibo: 0, tieba: 1 },
      ],
    ],
  ])("%s", (_name, rows, expected) => {
    expect(toStackedSeries(rows, days, ["weibo", "tieba"], "day")).toEqual(expected);
  });

  test("weekly buckets add up the days of each week", () => {
    const week = dayList("2026-12-06", 14); // two full weeks, Monday 11-23 to Sunday 12-06
    const rows = week.map((day) => ({ day, key: "weibo", n: 1 }));
    expect(toStackedSeries(rows, week, ["weibo"], "week")).toEqual([
      { bucket: "2026-11-23", label: "11/23", weibo: 7 },
      { bucket: "2026-11-30", label: "11/30", weibo: 7 },
    ]);
  });

  test.each([
    [[], true],
    [[{ a: 0, b: 0 }], true],
    [[{ a: 0, b: 2 }], false],
  ])("isEmptySeries(%j) = %s", (points, expected) => {
    expect(isEmptySeries(points, ["a", "b"])).toBe(expected);
  });
});

describe("flagRateByTopic", () => {
  const topics = [
    { id: 1, name: "考试" },
    { id: 2, name: "食堂" },
  ];
  test.each([
    [
      "no flags, no posts",
      [],
      0,
      [
        { topicId: 1, topic: "考试", open: 0, confirmed: 0, dismissed: 0, total: 0, perThousand: 0, precision: null },
        { topicId: 2, topic: "食堂", open: 0, confirmed: 0, dismissed: 0, total: 0, perThousand: 0, precision: null },
      ],
    ],
    [
      "rates per thousand posts, busiest first, precision of reviewed flags",
      [
        { topicId: 2, status: "open", n: 3 },
        { topicId: 2, status: "confirmed", n: 3 },
        { topicId: 2, status: "dismissed", n: 1 },
        { topicId: 1, status: "open", n: 2 },
      ],
      2000,
      [
        { topicId: 2, topic: "食堂", open: 3, confirmed: 3, dismissed: 1, total: 7, perThousand: 3.5, precision: 0.75 },
        { topicId: 1, topic: "考试", open: 2, confirmed: 0, dismissed: 0, total: 2, perThousand: 1, precision: null },
      ],
    ],
  ])("%s", (_name, rows, posts, expected) => {
    expect(flagRateByTopic(rows, topics, posts)).toEqual(expected);
  });
});

describe("topTermCounts", () => {
  test.each([
    ["nothing", [], []],
    ["bad JSON is skipped", [{ topTerms: "not json" }, { topTerms: "{}" }], []],
    [
      "counted once per post, ranked by posts then weight",
      [
        {
          topTerms: JSON.stringify([
            { term: "作弊", weight: 0.5 },
            { term: "考试", weight: 0.2 },
            { term: "作弊", weight: 0.1 },
          ]),
        },
        { topTerms: JSON.stringify([{ term: "考试", weight: 0.4 }]), sensitiveHits: JSON.stringify(["作弊"]) },
        { topTerms: JSON.stringify([{ term: "食堂", weight: 0.9 }]) },
      ],
      [
        { term: "作弊", posts: 2, weight: 0.5 },
        { term: "考试", posts: 2, weight: 0.6 },
        { term: "食堂", posts: 1, weight: 0.9 },
      ].sort((a, b) => b.posts - a.posts || b.weight - a.weight),
    ],
  ])("%s", (_name, rows, expected) => {
    expect(topTermCounts(rows)).toEqual(expected);
  });

  test("limit", () => {
    const rows = Array.from({ length: 30 }, (_, i) => ({ topTerms: JSON.stringify([{ term: `t${i}`, weight: i }]) }));
    expect(topTermCounts(rows, 5).map((t) => t.term)).toEqual(["t29", "t28", "t27", "t26", "t25"]);
  });
});

describe("crawlHealthSeries", () => {
  const days = dayList("2026-11-30", 2);
  test.each([
    [
      "nothing ran: zeros and no speed",
      [],
      [
        { bucket: "2026-11-29", label: "11/29", runs: 0, failed: 0, errors: 0, blocks: 0, pages: 0, pagesPerMinute: null },
        { bucket: "2026-11-30", label: "11/30", runs: 0, failed: 0, errors: 0, blocks: 0, pages: 0, pagesPerMinute: null },
      ],
    ],
    [
      "summed over accounts; speed is pages per minute of crawling",
      [
        { day: "2026-11-30", runs: 2, failed: 1, errors: 3, blocks: 1, pages: 30, ms: 60_000 },
        { day: "2026-11-30", runs: 1, failed: 0, errors: 0, blocks: 0, pages: 15, ms: 30_000 },
        { day: "2026-11-01", runs: 9, failed: 9, errors: 9, blocks: 9, pages: 9, ms: 9 },
      ],
      [
        { bucket: "2026-11-29", label: "11/29", runs: 0, failed: 0, errors: 0, blocks: 0, pages: 0, pagesPerMinute: null },
        { bucket: "2026-11-30", label: "11/30", runs: 3, failed: 1, errors: 3, blocks: 1, pages: 45, pagesPerMinute: 30 },
      ],
    ],
  ])("%s", (_name, rows, expected) => {
    expect(crawlHealthSeries(rows, days, "day")).toEqual(expected);
  });
});

describe("accountActivity", () => {
  const accounts = [
    { id: 1, name: "北江大学吧", platform: "tieba" },
    { id: 2, name: "北江大学", platform: "weibo" },
    { id: 3, name: "空账号", platform: "blog" },
  ];
  test.each([
    ["accounts with nothing still listed (zeros)", [], [], 3, [0, 0, 0]],
    [
      "busiest first, limited",
      [
        { accountId: 2, kind: "post", n: 5 },
        { accountId: 2, kind: "reply", n: 5 },
        { accountId: 1, kind: "post", n: 4 },
      ],
      [{ accountId: 1, n: 2 }],
      2,
      [10, 4],
    ],
  ])("%s", (_name, posts, flags, limit, totals) => {
    const out = accountActivity(posts, flags, accounts, limit);
    expect(out.map((a) => a.posts + a.replies)).toEqual(totals);
  });
});

describe("downsample and harvest curves", () => {
  test.each([
    [[1, 2, 3], 5, [1, 2, 3]],
    [[1, 2, 3, 4, 5, 6, 7, 8, 9], 3, [1, 5, 9]],
    [Array.from({ length: 1000 }, (_, i) => i), 200, null],
  ])("downsample(%j, %i)", (items, max, expected) => {
    const out = downsample(items, max);
    if (expected) expect(out).toEqual(expected);
    else {
      expect(out).toHaveLength(200);
      expect(out[0]).toBe(0);
      expect(out.at(-1)).toBe(999);
    }
  });

  test.each([
    ["no runs", [], [], []],
    ["a run without points is left out", [], [{ id: 1, name: "focused" }], []],
    [
      "rate = relevant so far ÷ crawled so far, in crawl order",
      [
        { runId: 1, crawled: 2, relevant: 1 },
        { runId: 1, crawled: 1, relevant: 1 },
        { runId: 2, crawled: 1, relevant: 0 },
      ],
      [
        { id: 1, name: "focused" },
        { id: 2, name: "bfs" },
      ],
      [
        {
          runId: 1,
          name: "focused",
          points: [
            { crawled: 1, rate: 1 },
            { crawled: 2, rate: 0.5 },
          ],
        },
        { runId: 2, name: "bfs", points: [{ crawled: 1, rate: 0 }] },
      ],
    ],
  ])("%s", (_name, points, runs, expected) => {
    expect(harvestCurves(points, runs)).toEqual(expected);
  });
});
