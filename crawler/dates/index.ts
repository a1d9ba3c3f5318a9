/**
 * Every date format the monitored platforms show, resolved to a UTC instant.
 *
 * Platforms rarely print full dates: "06-14", "11:24", "3 天前", "昨天 12:34". Such a date only
 * means something against the time it was read, so every function takes the crawl's `now` and
 * resolves in Asia/Shanghai. China has had no daylight saving time since 1991, so Shanghai is a
 * fixed UTC+8 and plain arithmetic is exact (no tz database needed, and the result does not
 * depend on the machine's TZ).
 *
 * Year-less dates ("06-14", "7-6", "06月17日 18:12") are shown by the platforms only for the
 * current year; if such a date falls on a later calendar day than today it must be from last
 * year (read on 2 January, "12-30" is last December). A year-less time later *today* is kept in
 * today: that is clock skew between the platform and us, not a year-old post.
 *
 * Dates are often wrapped in labels and noise ("时间：2022-3-3 21:55:22", "发表于 2024-5-9 18:21",
 * "楼主 | 2小时前", full-width colons and digits). A text that is not a date as a whole is searched
 * for one: every format of the platform is tried anywhere in the text (never inside a longer run of
 * digits), and the longest match wins, so "2019-2-30 10:00" is refused as a bad day rather than
 * read as "10:00 today".
 *
 * Unknown formats throw {@link DateFormatError} (a `NonRetryableError`, crawler/errors.ts) rather than guessing:
 * a wrong date silently breaks the history time table. Adapters then store the item with the best
 * date they have (the list's, the thread's) and record a warning on the run.
 *
 * This file is the public entry; its parts live in ./dates/: Shanghai wall-clock arithmetic
 * (shanghai.ts), the formats and which platform shows which (rules.ts), and matching a text
 * against them (match.ts).
 */
import type { Platform } from "../types";
import { applyRules, DateFormatError } from "./match";
import { ALL_RULES, RULES } from "./rules";

export { DateFormatError } from "./match";
export { shanghaiParts } from "./shanghai";

/**
 * Weibo (m.weibo.cn API and weibo.cn WAP): "Sat Jun 14 12:00:00 +0800 2025", "06-14",
 * "2019-06-14", "刚刚", "N秒前", "N分钟前", "N小时前", "今天 12:00", "昨天 12:34",
 * "06月17日 18:12", "2019-06-17 18:12:00". Trailing "来自…" (weibo.cn's source) is ignored.
 * @throws DateFormatError for anything else.
 */
export function parseWeiboDate(text: string, now: Date): Date {
  return applyRules(RULES.weibo, text, now, "weibo");
}

/**
 * Baidu Tieba: "11:24" (today), "7-6" (this year, or last year if that day is still ahead),
 * "2020-05" (older threads: first day of the month), "2024-08-05 16:56" (thread floors),
 * and the relative forms.
 * @throws DateFormatError for anything else.
 */
export function parseTiebaDate(text: string, now: Date): Date {
  return applyRules(RULES.tieba, text, now, "tieba");
}

/**
 * Discuz! X: "2019-1-11 22:29", "2019-1-11", "发表于 2019-1-11 22:29", "3 天前", "半小时前",
 * "N 分钟前", "昨天 10:00", "前天 10:00", and unix seconds (mobile API `dbdateline`, string or number).
 * @throws DateFormatError for anything else.
 */
export function parseDiscuzDate(text: string | number, now: Date): Date {
  return applyRules(RULES.discuz, text, now, "discuz");
}

/**
 * Blogs: ISO-8601 with offset ("2020-10-24T15:01:26+08:00"), ISO-8601 without offset
 * ("2019-05-16 10:00:16": site-local, taken as UTC+8), RFC-822 `pubDate`
 * ("Thu, 16 May 2019 14:00:16 +0000"). `now` is unused but kept for a uniform signature.
 * @throws DateFormatError for anything else.
 */
export function parseBlogDate(text: string, now: Date): Date {
  return applyRules(RULES.blog, text, now, "blog");
}

/**
 * Any platform's date. With a platform, only that platform's formats are accepted, so a format
 * that does not belong there fails loudly; without one, every known format is tried.
 * @throws DateFormatError when nothing matches.
 */
export function parsePlatformDate(text: string | number, now: Date, platform?: Platform): Date {
  return platform ? applyRules(RULES[platform], text, now, platform) : applyRules(ALL_RULES, text, now, "any");
}

/** Like {@link parsePlatformDate} but returns null instead of throwing (for optional dates). */
export function tryParsePlatformDate(text: string | number | null | undefined, now: Date, platform?: Platform): Date | null {
  if (text === null || text === undefined || text === "") return null;
  try {
    return parsePlatformDate(text, now, platform);
  } catch (err) {
    if (err instanceof DateFormatError) return null;
    throw err;
  }
}
