/**
 * The date formats of the monitored platforms, one rule each (a pattern and how to resolve a
 * match against the crawl's `now`), and which of them each platform shows.
 */
import type { Platform } from "../types";
import { DAY_MS, dayRelative, fromShanghai, fromZoned, HOUR_MS, MINUTE_MS, yearlessDay, zoneMinutes } from "./shanghai";

/** English month abbreviations (Weibo's API, RFC-822 feeds). */
const MONTHS: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};

/** One format: a pattern and how to resolve its match against `now`. */
export interface Rule {
  name: string;
  re: RegExp;
  resolve(m: RegExpExecArray, now: Date): Date | null;
}

const n = (s: string | undefined): number => Number(s ?? "0");

/** Relative forms every Chinese platform uses (Weibo, weibo.cn, Tieba, Discuz!). */
const RELATIVE: Rule[] = [
  { name: "刚刚", re: /^刚刚$/, resolve: (_m, now) => new Date(now) },
  { name: "N秒前", re: /^(\d+)\s*秒(?:钟)?前$/, resolve: (m, now) => new Date(now.getTime() - n(m[1]) * 1000) },
  { name: "N分钟前", re: /^(\d+)\s*分钟前$/, resolve: (m, now) => new Date(now.getTime() - n(m[1]) * MINUTE_MS) },
  { name: "半小时前", re: /^半\s*小时前$/, resolve: (_m, now) => new Date(now.getTime() - 30 * MINUTE_MS) },
  { name: "N小时前", re: /^(\d+)\s*(?:个)?小时前$/, resolve: (m, now) => new Date(now.getTime() - n(m[1]) * HOUR_MS) },
  { name: "N天前", re: /^(\d+)\s*天前$/, resolve: (m, now) => new Date(now.getTime() - n(m[1]) * DAY_MS) },
  {
    name: "今天/昨天/前天 HH:MM",
    re: /^(今天|昨天|前天)\s*(\d{1,2}):(\d{2})$/,
    resolve: (m, now) => dayRelative(now, m[1] === "今天" ? 0 : m[1] === "昨天" ? 1 : 2, n(m[2]), n(m[3])),
  },
];

/** Full dates with or without seconds, months and days with or without leading zeros (Shanghai). */
const FULL_LOCAL: Rule = {
  name: "YYYY-M-D H:MM[:SS]",
  // One separator throughout ("2024-5-9", "2024/5/9", "2024.5.9"), so "2024-5.9" is not a date.
  re: /^(\d{4})([-/.])(\d{1,2})\2(\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/,
  resolve: (m) => fromShanghai(n(m[1]), n(m[3]), n(m[4]), n(m[5]), n(m[6]), n(m[7])),
};

/** "11:24": a time today (Tieba lists). */
const TIME_TODAY: Rule = {
  name: "HH:MM today",
  re: /^(\d{1,2}):(\d{2})$/,
  resolve: (m, now) => dayRelative(now, 0, n(m[1]), n(m[2])),
};

/** "06-14" / "7-6": a day of the current year (or last year, see the module comment). */
const MONTH_DAY: Rule = {
  name: "M-D",
  re: /^(\d{1,2})-(\d{1,2})$/,
  resolve: (m, now) => yearlessDay(now, n(m[1]), n(m[2])),
};

/** Weibo's API: "Sat Jun 14 12:00:00 +0800 2025". */
const WEIBO_RFC: Rule = {
  name: "Www Mmm D HH:MM:SS +ZZZZ YYYY",
  re: /^(?:[A-Za-z]{3}\s+)?([A-Za-z]{3})\s+(\d{1,2})\s+(\d{2}):(\d{2}):(\d{2})\s+([+-]\d{2}:?\d{2})\s+(\d{4})$/,
  resolve: (m) => {
    const month = MONTHS[(m[1] ?? "").toLowerCase()];
    const offset = zoneMinutes(m[6] ?? "");
    if (!month || offset === null) return null;
    return fromZoned(n(m[7]), month, n(m[2]), n(m[3]), n(m[4]), n(m[5]), offset);
  },
};

/** weibo.cn WAP: "06月17日 18:12" (year missing). */
const WEIBO_CN_MONTH_DAY: Rule = {
  name: "MM月DD日 HH:MM",
  re: /^(\d{1,2})月(\d{1,2})日\s*(?:(\d{1,2}):(\d{2}))?$/,
  resolve: (m, now) => yearlessDay(now, n(m[1]), n(m[2]), n(m[3]), n(m[4])),
};

/** "2024年5月9日 18:21" (blogs, custom forum themes, Weibo's older posts), seconds optional. */
const CJK_FULL: Rule = {
  name: "YYYY年M月D日 [HH:MM[:SS]]",
  re: /^(\d{4})年(\d{1,2})月(\d{1,2})日\s*(?:(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/,
  resolve: (m) => fromShanghai(n(m[1]), n(m[2]), n(m[3]), n(m[4]), n(m[5]), n(m[6])),
};

/** Tieba shows only year and month for threads created in earlier years: "2020-05". */
const YEAR_MONTH: Rule = {
  name: "YYYY-MM",
  re: /^(\d{4})-(\d{1,2})$/,
  resolve: (m) => fromShanghai(n(m[1]), n(m[2]), 1),
};

/** Discuz!'s mobile API `dbdateline`: unix seconds. */
export const UNIX_SECONDS: Rule = {
  name: "unix seconds",
  re: /^(\d{9,11})$/,
  resolve: (m) => new Date(n(m[1]) * 1000),
};

/** ISO-8601 with an explicit offset or Z (Hexo/NexT `<time datetime>`, Atom). */
const ISO_ZONED: Rule = {
  name: "ISO-8601 with offset",
  re: /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})$/i,
  resolve: (m) => {
    const offset = zoneMinutes(m[7] ?? "");
    if (offset === null) return null;
    return fromZoned(n(m[1]), n(m[2]), n(m[3]), n(m[4]), n(m[5]), n(m[6]), offset);
  },
};

/** ISO-8601 without offset: site-local time, which for Chinese blogs is UTC+8. */
const ISO_LOCAL: Rule = {
  name: "ISO-8601 without offset (site-local UTC+8)",
  re: /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?$/,
  resolve: (m) => fromShanghai(n(m[1]), n(m[2]), n(m[3]), n(m[4]), n(m[5]), n(m[6])),
};

/** RSS `pubDate` (RFC-822/2822): "Thu, 16 May 2019 14:00:16 +0000"; no zone = site-local. */
const RFC_822: Rule = {
  name: "RFC-822",
  re: /^(?:[A-Za-z]{3},?\s+)?(\d{1,2})\s+([A-Za-z]{3})[a-z]*\s+(\d{2}|\d{4})\s+(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s*([+-]\d{2}:?\d{2}|[A-Za-z]{1,3}))?$/,
  resolve: (m) => {
    const month = MONTHS[(m[2] ?? "").toLowerCase()];
    const offset = m[7] ? zoneMinutes(m[7]) : 8 * 60;
    if (!month || offset === null) return null;
    let year = n(m[3]);
    if (year < 100) year += year < 50 ? 2000 : 1900; // RFC-822 two-digit years
    return fromZoned(year, month, n(m[1]), n(m[4]), n(m[5]), n(m[6]), offset);
  },
};

/** The formats each platform shows, most specific first. */
export const RULES: Record<Platform, Rule[]> = {
  weibo: [WEIBO_RFC, ...RELATIVE, CJK_FULL, WEIBO_CN_MONTH_DAY, FULL_LOCAL, MONTH_DAY, TIME_TODAY],
  tieba: [...RELATIVE, CJK_FULL, FULL_LOCAL, YEAR_MONTH, MONTH_DAY, TIME_TODAY],
  discuz: [UNIX_SECONDS, ...RELATIVE, CJK_FULL, FULL_LOCAL, MONTH_DAY, TIME_TODAY],
  // WeChat: the page's `var ct` (unix seconds), else its shown day ("2018-04-06", "2024年5月9日").
  wechat: [UNIX_SECONDS, ISO_LOCAL, CJK_FULL, FULL_LOCAL],
  blog: [ISO_ZONED, ISO_LOCAL, RFC_822, CJK_FULL, FULL_LOCAL],
};

/** Every format, for a date whose platform is not known. */
export const ALL_RULES: Rule[] = [...new Set(Object.values(RULES).flat())];
