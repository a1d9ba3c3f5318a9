/**
 * How dates, relative times, durations and numbers read in each language. Pure functions of a
 * {@link DateTools}: next-intl's formatter and the `format` messages for the request's locale,
 * its time zone (Asia/Shanghai) and its `now`. Server components get one from `getDateTools()`
 * (i18n/server.ts), client components from `useDateTools()` (i18n/use-date-tools.ts), tests from
 * `createFormatter`/`createTranslator`. components/time.tsx renders them for the whole dashboard.
 *
 * - Chinese reads dates as Chinese readers write them: `刚刚`, `3分钟前`, `今天 09:15`,
 *   `昨天 12:34`, `12月1日 周二 06:32`, `2024年3月1日`; durations `1分12秒`.
 * - English keeps the forms the dashboard has always shown (numeric `11/29 18:05`, `2025/03/01`,
 *   `3 min ago`, `in 4 min`), so English readers and the English browser tests see no change;
 *   those numeric forms are locale-neutral, which is why they come from a fixed Intl pattern.
 */
import type { createFormatter } from "next-intl";
import type { Locale } from "./config";
import type { Messages } from "./messages";

/** next-intl's formatter (`getFormatter()`, `useFormatter()` and `createFormatter()` all return one). */
export type Formatter = ReturnType<typeof createFormatter>;

/** A translator of the `format` namespace. */
export type FormatTranslate = (key: keyof Messages["format"], values?: Record<string, string | number>) => string;

/** What the helpers need from the request. */
export interface DateTools {
  locale: Locale;
  format: Formatter;
  t: FormatTranslate;
  /** The instant relative times are measured from (the request's, so a page agrees with itself). */
  now: Date;
  timeZone: string;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Dates closer than this to now show month and day without the year (as the dashboard always did). */
const RECENT = 330 * DAY;

/** The short text of a date in a table cell or a line of text. */
export function dateText(tools: DateTools, date: Date, { withYear = false }: { withYear?: boolean } = {}): string {
  if (tools.locale === "en") {
    const numeric = englishNumeric(tools.timeZone);
    if (withYear) return numeric.full.format(date).slice(0, 16);
    return tools.now.getTime() - date.getTime() < RECENT ? numeric.short.format(date) : numeric.dayOnly.format(date);
  }
  const { format, t, now } = tools;
  const time = clock(tools, date);
  if (withYear)
    return t("dateWeekdayTime", { date: format.dateTime(date, { year: "numeric", month: "long", day: "numeric" }), weekday: weekday(tools, date), time });
  const ago = now.getTime() - date.getTime();
  if (ago >= 0 && ago < MINUTE) return t("justNow");
  if (Math.abs(ago) < HOUR) return format.relativeTime(date, { now, unit: Math.abs(ago) < MINUTE ? "second" : "minute" });
  const days = dayNumber(date, tools.timeZone) - dayNumber(now, tools.timeZone);
  if (days === 0) return t("todayAt", { time });
  if (days === -1) return t("yesterdayAt", { time });
  if (days === 1) return t("tomorrowAt", { time });
  if (ago < RECENT) return t("dateWeekdayTime", { date: format.dateTime(date, { month: "long", day: "numeric" }), weekday: weekday(tools, date), time });
  return format.dateTime(date, { year: "numeric", month: "long", day: "numeric" });
}

/** The full date and time, to the second (a tooltip). */
export function dateTitle(tools: DateTools, date: Date): string {
  if (tools.locale === "en") return englishNumeric(tools.timeZone).full.format(date);
  const { format, t } = tools;
  const time = format.dateTime(date, { hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" });
  return t("dateWeekdayTime", { date: format.dateTime(date, { year: "numeric", month: "long", day: "numeric" }), weekday: weekday(tools, date), time });
}

/** How far a date is from `now` (default: the request's): `3分钟前`, `4分钟后`; `3 min ago`, `in 4 min`. */
export function relativeText(tools: DateTools, date: Date, now: Date = tools.now): string {
  const seconds = Math.round((date.getTime() - now.getTime()) / 1000);
  const a = Math.abs(seconds);
  const unit = a < 60 ? "second" : a < 3600 ? "minute" : a < 86_400 ? "hour" : "day";
  if (tools.locale === "en") {
    const v =
      unit === "second"
        ? `${a} s`
        : unit === "minute"
          ? `${Math.round(a / 60)} min`
          : unit === "hour"
            ? `${Math.round(a / 3600)} h`
            : `${Math.round(a / 86_400)} d`;
    return seconds >= 0 ? `in ${v}` : `${v} ago`;
  }
  return tools.format.relativeTime(date, { now, unit });
}

/** A duration: `45秒`, `1分12秒`, `2小时5分`; `45 s`, `1 min 12 s`, `2 h 5 min`. Under 10 s with one decimal. */
export function durationText(tools: DateTools, seconds: number): string {
  const { format, t } = tools;
  const s = Math.max(0, seconds);
  if (s < 60) return t("durationSeconds", { seconds: format.number(s, { maximumFractionDigits: s < 10 ? 1 : 0 }) });
  const whole = Math.round(s);
  if (whole < 3600) return t("durationMinutes", { minutes: format.number(Math.floor(whole / 60)), seconds: format.number(whole % 60) });
  return t("durationHours", { hours: format.number(Math.floor(whole / 3600)), minutes: format.number(Math.floor((whole % 3600) / 60)) });
}

/** A count with the locale's grouping (`12,345`). */
export function numberText(tools: Pick<DateTools, "format">, value: number): string {
  return tools.format.number(value);
}

function clock({ format }: DateTools, date: Date): string {
  return format.dateTime(date, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
}

function weekday({ format }: DateTools, date: Date): string {
  return format.dateTime(date, { weekday: "short" });
}

const dayParts = new Map<string, Intl.DateTimeFormat>();

/** Days since the epoch of the calendar day `date` falls on in `timeZone` (for today/yesterday). */
function dayNumber(date: Date, timeZone: string): number {
  let f = dayParts.get(timeZone);
  if (!f) dayParts.set(timeZone, (f = new Intl.DateTimeFormat("en-US", { timeZone, year: "numeric", month: "numeric", day: "numeric" })));
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(f.formatToParts(date).find((p) => p.type === type)?.value);
  return Date.UTC(part("year"), part("month") - 1, part("day")) / DAY;
}

interface EnglishNumeric {
  full: Intl.DateTimeFormat;
  short: Intl.DateTimeFormat;
  dayOnly: Intl.DateTimeFormat;
}
const englishByZone = new Map<string, EnglishNumeric>();

/** The numeric patterns the dashboard always used (`2026/11/29 18:05:00`, `11/29 18:05`, `2025/03/01`). */
function englishNumeric(timeZone: string): EnglishNumeric {
  let found = englishByZone.get(timeZone);
  if (!found) {
    // zh-CN's numeric pattern is the y/m/d, 24-hour form wanted; no word in it is Chinese.
    const make = (o: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat("zh-CN", { timeZone, hour12: false, ...o });
    found = {
      full: make({ year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit" }),
      short: make({ month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit" }),
      dayOnly: make({ year: "numeric", month: "2-digit", day: "2-digit" }),
    };
    englishByZone.set(timeZone, found);
  }
  return found;
}
