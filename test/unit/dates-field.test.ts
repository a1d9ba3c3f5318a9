/**
 * Dates as real pages wrap them: labels, hidden label elements (their text stays in the cell),
 * full-width punctuation, noise before and after. The parser finds the date inside the text,
 * for every platform, and still refuses what is not a date.
 */
import { describe, expect, test } from "vitest";
import { DateFormatError, parseBlogDate, parseDiscuzDate, parsePlatformDate, parseTiebaDate, parseWeiboDate } from "../../crawler/dates";

/** Crawl time: Sunday 2025-06-15 12:00 in Shanghai. */
const NOW = new Date("2025-06-15T04:00:00Z");
const sh = (wall: string): string => new Date(`${wall}+08:00`).toISOString();

describe("dates inside labels and noise (Discuz!)", () => {
  test.each<[string, string]>([
    // A custom theme's hidden <em>时间：</em> label: cheerio's .text() keeps the label's text.
    ["时间：2022-3-3 21:55:22", sh("2022-03-03T21:55:22")],
    ["\n  时间：\n  2022-3-3 21:55:22\n", sh("2022-03-03T21:55:22")],
    ["发表于 2024-5-9 18:21", sh("2024-05-09T18:21:00")],
    ["發表於 2024-5-9 18:21", sh("2024-05-09T18:21:00")],
    ["发表于 2024-5-9 18：21", sh("2024-05-09T18:21:00")],
    ["2022-3-3 21:55", sh("2022-03-03T21:55:00")],
    ["2022-3-3 21：55：22", sh("2022-03-03T21:55:22")],
    ["２０２２-３-３ ２１：５５", sh("2022-03-03T21:55:00")],
    ["楼主 | 发表于 2小时前 | 只看该作者", sh("2025-06-15T10:00:00")],
    ["楼主\u00a0\u00a02 小时前", sh("2025-06-15T10:00:00")],
    ["2024年5月9日 18:21", sh("2024-05-09T18:21:00")],
    ["发布时间：2024年5月9日 18:21:05 来自手机", sh("2024-05-09T18:21:05")],
    ["2024年5月9日", sh("2024-05-09T00:00:00")],
    ["2024.5.9 18:21", sh("2024-05-09T18:21:00")],
    ["发表于 昨天\u00a009:32 | 只看该作者", sh("2025-06-14T09:32:00")],
    // The longest match wins: the full date, not the month-day or time inside it.
    ["2#  发表于 2024-5-9 18:21  电梯直达", sh("2024-05-09T18:21:00")],
    ["本帖最后由 小明 于 2024-5-10 09:00 编辑", sh("2024-05-10T09:00:00")],
  ])("%j", (text, expected) => {
    expect(parseDiscuzDate(text, NOW).toISOString()).toBe(expected);
  });
});

describe("every platform finds a date inside noise", () => {
  test("Tieba, Weibo and blogs", () => {
    expect(parseTiebaDate("5楼 2024-08-05 16:56 来自Android客户端", NOW).toISOString()).toBe(sh("2024-08-05T16:56:00"));
    expect(parseWeiboDate("置顶 今天 08:05", NOW).toISOString()).toBe(sh("2025-06-15T08:05:00"));
    expect(parseWeiboDate("2024年5月9日 18:21", NOW).toISOString()).toBe(sh("2024-05-09T18:21:00"));
    expect(parseBlogDate("Posted on 2024-05-09T18:21:00+08:00", NOW).toISOString()).toBe(sh("2024-05-09T18:21:00"));
    expect(parseBlogDate("发表于 2024年5月9日", NOW).toISOString()).toBe(sh("2024-05-09T00:00:00"));
  });
});

describe("what is not a date is still refused", () => {
  test.each([
    "楼主",
    "只看该作者",
    // A bad date is refused, not replaced by the time inside it.
    "发表于 2019-2-30 10:00",
    "时间：2019-13-01",
    // Digits that belong to a longer number are not a date.
    "UID 1547216948",
    "电话 13912345678",
    "版本 10.2.33",
    "2024-5.9",
  ])("%j", (text) => {
    expect(() => parseDiscuzDate(text, NOW)).toThrow(DateFormatError);
  });

  test("a foreign platform's format in noise is still foreign", () => {
    expect(() => parsePlatformDate("on Thu, 16 May 2019 14:00:16 +0000", NOW, "tieba")).toThrow(DateFormatError);
  });
});
