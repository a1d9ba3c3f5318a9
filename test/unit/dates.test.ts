import { describe, expect, test } from "vitest";
import { DateFormatError, parseBlogDate, parseDiscuzDate, parsePlatformDate, parseTiebaDate, parseWeiboDate, tryParsePlatformDate } from "../../crawler/dates";
import { NonRetryableError } from "../../crawler/errors";

/** Crawl time: Sunday 2025-06-15 12:00 in Shanghai. */
const NOW = new Date("2025-06-15T04:00:00Z");
/** Early January, to exercise "a year-less date ahead of today is last year". */
const JAN = new Date("2025-01-02T02:00:00Z"); // 2025-01-02 10:00 Shanghai

/** Shanghai wall time → the expected UTC ISO string. */
const sh = (wall: string): string => new Date(`${wall}+08:00`).toISOString();

describe("parseWeiboDate", () => {
  test.each([
    ["Sat Jun 14 12:00:00 +0800 2025", NOW, sh("2025-06-14T12:00:00")],
    ["Sat Jun 14 04:00:00 +0000 2025", NOW, sh("2025-06-14T12:00:00")],
    ["06-14", NOW, sh("2025-06-14T00:00:00")],
    ["06-15", NOW, sh("2025-06-15T00:00:00")],
    ["12-30", JAN, sh("2024-12-30T00:00:00")],
    ["2019-06-14", NOW, sh("2019-06-14T00:00:00")],
    ["刚刚", NOW, NOW.toISOString()],
    ["30秒前", NOW, sh("2025-06-15T11:59:30")],
    ["5分钟前", NOW, sh("2025-06-15T11:55:00")],
    ["3小时前", NOW, sh("2025-06-15T09:00:00")],
    ["今天 08:05", NOW, sh("2025-06-15T08:05:00")],
    ["昨天 12:34", NOW, sh("2025-06-14T12:34:00")],
    ["昨天 23:10", JAN, sh("2025-01-01T23:10:00")],
    // weibo.cn WAP
    ["06月17日 18:12", NOW, sh("2024-06-17T18:12:00")],
    ["06月14日 20:09\u00a0来自影视剪辑 · 视频社区", NOW, sh("2025-06-14T20:09:00")],
    ["2019-06-17 18:12:00", NOW, sh("2019-06-17T18:12:00")],
    ["今天 12:00", NOW, sh("2025-06-15T12:00:00")],
  ])("%s", (text, now, expected) => {
    expect(parseWeiboDate(text, now).toISOString()).toBe(expected);
  });
});

describe("parseTiebaDate", () => {
  test.each([
    ["11:24", NOW, sh("2025-06-15T11:24:00")],
    ["00:07", NOW, sh("2025-06-15T00:07:00")],
    ["  11:24        ", NOW, sh("2025-06-15T11:24:00")],
    ["7-6", NOW, sh("2024-07-06T00:00:00")], // ahead of 15 June: last year
    ["6-1", NOW, sh("2025-06-01T00:00:00")],
    ["6-15", NOW, sh("2025-06-15T00:00:00")],
    ["6-16", NOW, sh("2024-06-16T00:00:00")],
    ["1-2", JAN, sh("2025-01-02T00:00:00")],
    ["12-31", JAN, sh("2024-12-31T00:00:00")],
    ["2020-05", NOW, sh("2020-05-01T00:00:00")],
    ["2024-08-05 16:56", NOW, sh("2024-08-05T16:56:00")],
  ])("%s", (text, now, expected) => {
    expect(parseTiebaDate(text, now).toISOString()).toBe(expected);
  });
});

describe("parseDiscuzDate", () => {
  test.each<[string | number, Date, string]>([
    ["2019-1-11 22:29", NOW, sh("2019-01-11T22:29:00")],
    ["2019-1-11", NOW, sh("2019-01-11T00:00:00")],
    ["发表于 2019-1-11 22:29", NOW, sh("2019-01-11T22:29:00")],
    ["3 天前", NOW, sh("2025-06-12T12:00:00")],
    ["半小时前", NOW, sh("2025-06-15T11:30:00")],
    ["5 分钟前", NOW, sh("2025-06-15T11:55:00")],
    ["2 小时前", NOW, sh("2025-06-15T10:00:00")],
    ["10 秒前", NOW, sh("2025-06-15T11:59:50")],
    ["前天 10:00", NOW, sh("2025-06-13T10:00:00")],
    ["前天\u00a010:00", NOW, sh("2025-06-13T10:00:00")],
    ["昨天 09:32", NOW, sh("2025-06-14T09:32:00")],
    ["1547216948", NOW, "2019-01-11T14:29:08.000Z"],
    [1547216948, NOW, "2019-01-11T14:29:08.000Z"],
  ])("%s", (text, now, expected) => {
    expect(parseDiscuzDate(text, now).toISOString()).toBe(expected);
  });
});

describe("parseBlogDate", () => {
  test.each([
    ["2020-10-24T15:01:26+08:00", sh("2020-10-24T15:01:26")],
    ["2020-10-24T07:01:26Z", sh("2020-10-24T15:01:26")],
    ["2020-10-24T07:01:26.123Z", "2020-10-24T07:01:26.000Z"],
    ["2020-10-24T15:01:26+0800", sh("2020-10-24T15:01:26")],
    ["2019-05-16 10:00:16", sh("2019-05-16T10:00:16")],
    ["2019-05-16T10:00:16", sh("2019-05-16T10:00:16")],
    ["2019-05-16", sh("2019-05-16T00:00:00")],
    ["Thu, 16 May 2019 14:00:16 +0000", "2019-05-16T14:00:16.000Z"],
    ["Thu, 16 May 2019 22:00:16 +0800", "2019-05-16T14:00:16.000Z"],
    ["16 May 2019 14:00:16 GMT", "2019-05-16T14:00:16.000Z"],
    ["Thu, 16 May 19 14:00 EST", "2019-05-16T19:00:00.000Z"],
  ])("%s", (text, expected) => {
    expect(parseBlogDate(text, NOW).toISOString()).toBe(expected);
  });
});

describe("parsePlatformDate", () => {
  test("dispatches by platform and, without one, tries every format", () => {
    expect(parsePlatformDate("7-6", NOW, "tieba").toISOString()).toBe(sh("2024-07-06T00:00:00"));
    expect(parsePlatformDate("2020-10-24T15:01:26+08:00", NOW).toISOString()).toBe(sh("2020-10-24T15:01:26"));
    expect(parsePlatformDate(1547216948, NOW, "discuz").toISOString()).toBe("2019-01-11T14:29:08.000Z");
  });

  test("a format from another platform fails loudly", () => {
    expect(() => parsePlatformDate("Thu, 16 May 2019 14:00:16 +0000", NOW, "tieba")).toThrow(DateFormatError);
  });

  test.each(["", "yesterday", "2019-13-01", "2019-2-30 10:00", "25:00", "13-40", "三天前", "06月32日 10:00"])(
    "rejects %j with a clear, non-retryable error",
    (text) => {
      expect(() => parsePlatformDate(text, NOW)).toThrow(DateFormatError);
      expect(() => parsePlatformDate(text, NOW)).toThrow(NonRetryableError);
      expect(() => parseWeiboDate(text, NOW)).toThrow(/unrecognised weibo date format/);
    },
  );

  test("tryParsePlatformDate returns null instead of throwing", () => {
    expect(tryParsePlatformDate("nonsense", NOW)).toBeNull();
    expect(tryParsePlatformDate(undefined, NOW)).toBeNull();
    expect(tryParsePlatformDate("刚刚", NOW)?.toISOString()).toBe(NOW.toISOString());
  });
});
