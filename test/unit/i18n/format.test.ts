/**
 * Dates, relative times, durations and numbers (i18n/format.ts) on a fixed `now`, through
 * next-intl's own formatter and translator as the pages get them: Chinese as Chinese readers write
 * dates, English as the dashboard always showed them.
 */
import { describe, expect, test } from "vitest";
import { createFormatter, createTranslator } from "next-intl";
import { DISPLAY_TIME_ZONE, type Locale } from "@/i18n/config";
import { dateText, dateTitle, durationText, numberText, relativeText, type DateTools } from "@/i18n/format";
import { messagesFor } from "@/i18n/messages";

/** Saturday 2026-12-05 10:00 in Shanghai. */
const NOW = new Date("2026-12-05T10:00:00+08:00");

function tools(locale: Locale, now = NOW): DateTools {
  const format = createFormatter({ locale, timeZone: DISPLAY_TIME_ZONE, now });
  const t = createTranslator({ locale, messages: messagesFor(locale), namespace: "format", timeZone: DISPLAY_TIME_ZONE });
  return { locale, format, t, now, timeZone: DISPLAY_TIME_ZONE };
}

const at = (iso: string) => new Date(`${iso}+08:00`);
const minutes = (n: number) => new Date(NOW.getTime() + n * 60_000);

describe("Chinese", () => {
  const zh = tools("zh-CN");

  test("dates as Chinese readers write them", () => {
    expect(dateText(zh, at("2026-12-01T06:32:00"))).toBe("12月1日 周二 06:32");
    expect(dateText(zh, minutes(-3))).toBe("3分钟前");
    expect(dateText(zh, at("2026-12-04T12:34:00"))).toBe("昨天 12:34");
    expect(dateText(zh, at("2026-12-05T07:05:00"))).toBe("今天 07:05");
    expect(dateText(zh, at("2026-12-06T06:00:00"))).toBe("明天 06:00");
    expect(dateText(zh, new Date(NOW.getTime() - 20_000))).toBe("刚刚");
    expect(dateText(zh, minutes(4))).toBe("4分钟后");
    expect(dateText(zh, at("2025-01-10T08:00:00"))).toBe("2025年1月10日");
  });

  test("calendar days are Shanghai's, not the server's (UTC) days", () => {
    // At 00:20 on Saturday in Shanghai it is still Friday in UTC: Friday 23:10 is yesterday here,
    // though the same UTC day.
    const shortlyAfterMidnight = tools("zh-CN", at("2026-12-05T00:20:00"));
    expect(dateText(shortlyAfterMidnight, at("2026-12-04T23:10:00"))).toBe("昨天 23:10");
    expect(dateText(shortlyAfterMidnight, at("2026-12-05T00:10:00"))).toBe("10分钟前");
  });

  test("with the year, and the full time on hover", () => {
    expect(dateText(zh, at("2026-12-01T06:32:00"), { withYear: true })).toBe("2026年12月1日 周二 06:32");
    expect(dateTitle(zh, at("2026-12-01T06:32:09"))).toBe("2026年12月1日 周二 06:32:09");
  });

  test("relative times", () => {
    expect(relativeText(zh, minutes(-3))).toBe("3分钟前");
    expect(relativeText(zh, minutes(4))).toBe("4分钟后");
    expect(relativeText(zh, minutes(-120))).toBe("2小时前");
    expect(relativeText(zh, minutes(-3 * 1440))).toBe("3天前");
    expect(relativeText(zh, minutes(-3), minutes(-1))).toBe("2分钟前");
  });

  test("durations and numbers", () => {
    expect(durationText(zh, 72)).toBe("1分12秒");
    expect(durationText(zh, 45)).toBe("45秒");
    expect(durationText(zh, 2.54)).toBe("2.5秒");
    expect(durationText(zh, 3900)).toBe("1小时5分");
    expect(numberText(zh, 1234567)).toBe("1,234,567");
  });
});

describe("English keeps the dashboard's forms", () => {
  const en = tools("en");

  test("numeric dates in Asia/Shanghai", () => {
    expect(dateText(en, at("2026-12-01T06:32:00"))).toBe("12/01 06:32");
    expect(dateText(en, at("2026-12-01T06:32:00"), { withYear: true })).toBe("2026/12/01 06:32");
    expect(dateText(en, at("2025-01-10T08:00:00"))).toBe("2025/01/10");
    expect(dateTitle(en, at("2026-12-01T06:32:09"))).toBe("2026/12/01 06:32:09");
  });

  test("relative times, durations and numbers", () => {
    expect(relativeText(en, minutes(-3))).toBe("3 min ago");
    expect(relativeText(en, minutes(4))).toBe("in 4 min");
    expect(relativeText(en, minutes(-120))).toBe("2 h ago");
    expect(durationText(en, 72)).toBe("1 min 12 s");
    expect(durationText(en, 3900)).toBe("1 h 5 min");
    expect(numberText(en, 1234567)).toBe("1,234,567");
  });
});
