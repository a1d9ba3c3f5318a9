/**
 * Asia/Shanghai wall-clock arithmetic for the date parsers. China has had no daylight saving time
 * since 1991, so Shanghai is a fixed UTC+8 (lib/time.ts) and plain arithmetic is exact: no tz
 * database, and no dependence on the machine's TZ.
 */
import { SHANGHAI_OFFSET_MS } from "../../lib/time";

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

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
export function fromShanghai(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): Date | null {
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return null;
  const utc = Date.UTC(year, month - 1, day, hour, minute, second);
  const check = new Date(utc);
  // Date.UTC rolls 2-30 over into March: refuse instead of inventing a date.
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return null;
  return new Date(utc - SHANGHAI_OFFSET_MS);
}

/** A year-less month/day: this year, or last year when that day is still ahead of today. */
export function yearlessDay(now: Date, month: number, day: number, hour = 0, minute = 0): Date | null {
  const today = shanghaiToday(now);
  const ahead = month > today.month || (month === today.month && day > today.day);
  return fromShanghai(ahead ? today.year - 1 : today.year, month, day, hour, minute);
}

/** `now`'s Shanghai day shifted by `daysAgo`, at a wall-clock time. */
export function dayRelative(now: Date, daysAgo: number, hour: number, minute: number): Date | null {
  const t = shanghaiToday(new Date(now.getTime() - daysAgo * DAY_MS));
  return fromShanghai(t.year, t.month, t.day, hour, minute);
}

/** Numeric zone "+0800" / "+08:00" / named zone → minutes east of UTC. */
export function zoneMinutes(zone: string): number | null {
  const named = ZONES[zone.toUpperCase()];
  if (named !== undefined) return named;
  const m = /^([+-])(\d{2}):?(\d{2})$/.exec(zone);
  if (!m) return null;
  const minutes = Number(m[2]) * 60 + Number(m[3]);
  return m[1] === "-" ? -minutes : minutes;
}

/** A wall-clock time at a given zone offset, as an instant. */
export function fromZoned(year: number, month: number, day: number, h: number, mi: number, s: number, offsetMin: number): Date | null {
  const asShanghai = fromShanghai(year, month, day, h, mi, s);
  if (!asShanghai) return null;
  return new Date(asShanghai.getTime() + SHANGHAI_OFFSET_MS - offsetMin * MINUTE_MS);
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
