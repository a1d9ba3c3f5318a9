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
 * Unknown formats throw {@link DateFormatError} (a {@link NonRetryableError}) rather than guessing:
 * a wrong date silently breaks the history time table. Adapters then store the item with the best
 * date they have (the list's, the thread's) and record a warning on the run.
 */
import { NonRetryableError } from "./errors";
import type { Platform } from "./types";

/** Asia/Shanghai offset from UTC, in milliseconds (fixed: no DST). */
const SHANGHAI_OFFSET_MS = 8 * 3_600_000;
const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

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

/** RFC-822 zone names that feeds still use instead of numeric offsets (minutes east of UTC). */
const ZONES: Record<string, number> = {
  UT: 0,
  UTC: 0,
  GMT: 0,
  Z: 0,
  EST: -300,
  EDT: -240,
  CST: -360,
  CDT: -300,
  MST: -420,
  MDT: -360,
  PST: -480,
  PDT: -420,
};

/** A date string (or unix seconds) that matches none of the formats of its platform. */
export class DateFormatError extends NonRetryableError {
  override name = "DateFormatError";
  constructor(
    readonly text: string,
    readonly platform: Platform | "any",
  ) {
    super(`unrecognised ${platform === "any" ? "" : `${platform} `}date format: ${JSON.stringify(text)}`);
  }
}

interface Wall {
  year: number;
  month: number;
  day: number;
}

/** Calendar day of `now` in Shanghai. */
function shanghaiToday(now: Date): Wall {
  const d = new Date(now.getTime() + SHANGHAI_OFFSET_MS);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/** The instant of a Shanghai wall-clock time; null when a field is out of range (e.g. 2-30). */
function fromShanghai(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): Date | null {
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return null;
  const utc = Date.UTC(year, month - 1, day, hour, minute, second);
  const check = new Date(utc);
  // Date.UTC rolls 2-30 over into March: refuse instead of inventing a date.
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return null;
  return new Date(utc - SHANGHAI_OFFSET_MS);
}

/** A year-less month/day: this year, or last year when that day is still ahead of today. */
function yearlessDay(now: Date, month: number, day: number, hour = 0, minute = 0): Date | null {
  const today = shanghaiToday(now);
  const ahead = month > today.month || (month === today.month && day > today.day);
  return fromShanghai(ahead ? today.year - 1 : today.year, month, day, hour, minute);
}

/** `now`'s Shanghai day shifted by `daysAgo`, at a wall-clock time. */
function dayRelative(now: Date, daysAgo: number, hour: number, minute: number): Date | null {
  const t = shanghaiToday(new Date(now.getTime() - daysAgo * DAY_MS));
  return fromShanghai(t.year, t.month, t.day, hour, minute);
}

/** Numeric zone "+0800" / "+08:00" / named zone → minutes east of UTC. */
function zoneMinutes(zone: string): number | null {
  const named = ZONES[zone.toUpperCase()];
  if (named !== undefined) return named;
  const m = /^([+-])(\d{2}):?(\d{2})$/.exec(zone);
  if (!m) return null;
  const minutes = Number(m[2]) * 60 + Number(m[3]);
  return m[1] === "-" ? -minutes : minutes;
}

/** A wall-clock time at a given zone offset, as an instant. */
function fromZoned(year: number, month: number, day: number, h: number, mi: number, s: number, offsetMin: number): Date | null {
  const asShanghai = fromShanghai(year, month, day, h, mi, s);
  if (!asShanghai) return null;
  return new Date(asShanghai.getTime() + SHANGHAI_OFFSET_MS - offsetMin * MINUTE_MS);
}

/** One format: a pattern and how to resolve its match against `now`. */
interface Rule {
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
const UNIX_SECONDS: Rule = {
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
const RULES: Record<Platform, Rule[]> = {
  weibo: [WEIBO_RFC, ...RELATIVE, CJK_FULL, WEIBO_CN_MONTH_DAY, FULL_LOCAL, MONTH_DAY, TIME_TODAY],
  tieba: [...RELATIVE, CJK_FULL, FULL_LOCAL, YEAR_MONTH, MONTH_DAY, TIME_TODAY],
  discuz: [UNIX_SECONDS, ...RELATIVE, CJK_FULL, FULL_LOCAL, MONTH_DAY, TIME_TODAY],
  blog: [ISO_ZONED, ISO_LOCAL, RFC_822, CJK_FULL, FULL_LOCAL],
};

/**
 * Rules that may be searched for inside a longer text. Bare unix seconds are not: inside noise,
 * a run of nine digits is far more likely an id or a phone number than a time.
 */
const SEARCHABLE = new Set<Rule>([...new Set(Object.values(RULES).flat())].filter((r) => r !== UNIX_SECONDS));

/** A rule's pattern, unanchored, matching only where it is not part of a longer number or date. */
const searchPatterns = new Map<Rule, RegExp>();
function searchPattern(rule: Rule): RegExp {
  let re = searchPatterns.get(rule);
  if (!re) {
    const body = rule.re.source.replace(/^\^/, "").replace(/\$$/, "");
    // Not after a digit (or a digit and a separator), not before one: "5-9" is not read out of
    // "2024-5-9", nor "14:00" out of "14:00:16".
    re = new RegExp(`(?<!\\d)(?<!\\d[-:./])(?:${body})(?!\\d)(?![-:./]\\d)`, rule.re.flags.replace("g", "") + "g");
    searchPatterns.set(rule, re);
  }
  re.lastIndex = 0;
  return re;
}

const ALL_RULES: Rule[] = [...new Set(Object.values(RULES).flat())];

/** Normalise the noise around a date: nbsp, full-width forms, surrounding text Discuz/weibo.cn put next to it. */
function clean(text: string): string {
  return (
    text
      .replace(/[\u00a0\u3000\u200b-\u200d\ufeff]/g, " ")
      // Full-width digits and colons ("２１：５５") are ordinary ones typed in a Chinese IME.
      .replace(/[\uff10-\uff19]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xff10 + 48))
      .replace(/[\uff1a\ufe55]/g, ":")
      .replace(/^\s*(?:发表于|發表於)\s*/, "")
      .replace(/\s*来自.*$/s, "")
      .replace(/\s+/g, " ")
      .trim()
  );
}

function applyRules(rules: Rule[], raw: string | number, now: Date, platform: Platform | "any"): Date {
  const text = typeof raw === "number" ? String(Math.trunc(raw)) : clean(raw);
  let matchedWhole = false;
  for (const rule of rules) {
    const m = rule.re.exec(text);
    if (!m) continue;
    matchedWhole = true;
    const date = rule.resolve(m, now);
    if (date && !Number.isNaN(date.getTime())) return date;
  }
  // A whole text that has a date's shape but an impossible value ("2019-2-30") is refused, not searched.
  if (!matchedWhole && typeof raw === "string") {
    const found = searchRules(rules, text, now);
    if (found) return found;
  }
  throw new DateFormatError(String(raw), platform);
}

/**
 * The date inside a longer text: the longest match of any rule (ties: the rule listed first, then
 * the leftmost). Null when there is none, or when the longest one is not a real date — a shorter
 * match inside a bad date ("10:00" in "2019-2-30 10:00") must not stand in for it.
 */
function searchRules(rules: Rule[], text: string, now: Date): Date | null {
  let best: { m: RegExpExecArray; rule: Rule } | null = null;
  for (const rule of rules) {
    if (!SEARCHABLE.has(rule)) continue;
    const re = searchPattern(rule);
    for (let m = re.exec(text); m; m = re.exec(text)) {
      if (m[0].length === 0) {
        re.lastIndex++;
        continue;
      }
      if (!best || m[0].length > best.m[0].length) best = { m, rule };
    }
  }
  if (!best) return null;
  const date = best.rule.resolve(best.m, now);
  return date && !Number.isNaN(date.getTime()) ? date : null;
}

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

/**
 * Shanghai wall-clock parts of an instant, for code that must print platform dates
 * (the local platform copies in test/support/platforms render dates the way the sites do).
 */
export function shanghaiParts(at: Date): { year: number; month: number; day: number; hour: number; minute: number; second: number } {
  const d = new Date(at.getTime() + SHANGHAI_OFFSET_MS);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
  };
}
