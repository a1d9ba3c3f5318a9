/**
 * The one module that turns instants into Asia/Shanghai dates and times as text. Every platform
 * CampusWatch reads is in China, so schedules, year-less platform dates, day roll-ups and every
 * date shown are in Shanghai time whatever the machine's TZ. China has had no daylight saving
 * time since 1991: Shanghai is a fixed UTC+8, so day arithmetic needs no tz database.
 *
 * Pages show dates with components/time.tsx (next-intl, in the reader's language, in
 * {@link TIME_ZONE}); what is here is the same in every language: plain-text output, notification
 * messages, file names and SQL day keys. No server imports: i18n/config.ts and client components
 * may read it.
 */

/** The zone of cron schedules, platform dates and every date shown. */
export const TIME_ZONE = "Asia/Shanghai";

/** Shanghai's offset from UTC in milliseconds (fixed: no DST). */
export const SHANGHAI_OFFSET_MS = 8 * 3_600_000;

const dateTime = new Intl.DateTimeFormat("zh-CN", {
  timeZone: TIME_ZONE,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  hour12: false,
});

/**
 * "2026/11/29 18:05" in Asia/Shanghai; "—" for null. The same in every language: for plain-text
 * output. Pages show dates with components/time.tsx, which follows the reader's language.
 */
export function formatTime(d: Date | null | undefined): string {
  return d ? dateTime.format(d) : "—";
}

// Plain-digit parts (en-US), put in the Chinese order by shanghaiTime.
const monthDayTime = new Intl.DateTimeFormat("en-US", {
  timeZone: TIME_ZONE,
  month: "numeric",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});

/** A time as a Chinese reader in China expects it: `12月1日 06:32` (Asia/Shanghai); "" for a bad ISO string. */
export function shanghaiTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  const p = Object.fromEntries(monthDayTime.formatToParts(d).map((x) => [x.type, x.value]));
  return `${p.month}月${p.day}日 ${p.hour}:${p.minute}`;
}

/** The Asia/Shanghai calendar day of an instant, "2026-11-30" (the day roll-ups' key). */
export function shanghaiDay(d: Date): string {
  return new Date(d.getTime() + SHANGHAI_OFFSET_MS).toISOString().slice(0, 10);
}

/** Start of an Asia/Shanghai day ("2026-11-30") as an instant. */
export function shanghaiDayStart(day: string): Date {
  return new Date(`${day}T00:00:00+08:00`);
}

/** Seconds per unit of a {@link parseDuration} text. */
const DURATION_UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };

/**
 * A duration in whole seconds as an operator types it: `90`, `90s`, `5m`, `2h`, `1d` (a bare
 * number is seconds); null when it is not one. The CLI's options and the account form read it.
 */
export function parseDuration(text: string): number | null {
  const m = /^\s*(\d+)\s*([smhd]?)\s*$/i.exec(text);
  return m ? Number(m[1]) * DURATION_UNITS[(m[2] || "s").toLowerCase()]! : null;
}

/** A duration in seconds as {@link parseDuration} reads it back, in its largest whole unit (7200 → "2h", 90 → "90s"). */
export function durationInput(seconds: number): string {
  for (const unit of ["d", "h", "m"] as const) {
    if (seconds > 0 && seconds % DURATION_UNITS[unit]! === 0) return `${seconds / DURATION_UNITS[unit]!}${unit}`;
  }
  return `${seconds}s`;
}
