/**
 * Dates, relative times, durations and counts in the reader's language, in Asia/Shanghai
 * (i18n/format.ts says how each reads). Server components: rendered on the server with the
 * request's `now`, so there is no hydration mismatch and one page agrees with itself.
 */
import { getDateTools } from "@/i18n/server";
import { dateText, dateTitle, durationText, numberText, relativeText } from "@/i18n/format";

/**
 * A point in time: Chinese `3分钟前`, `昨天 12:34`, `12月1日 周二 06:32`, `2024年3月1日`; English
 * `11/29 18:05` within the last year, `2025/03/01` before. `withYear` always gives the date with
 * its year and time. The full time is on hover.
 */
export async function Time({ date, withYear = false }: { date: Date | null | undefined; withYear?: boolean }) {
  if (!date) return <span className="muted">—</span>;
  const tools = await getDateTools();
  return (
    <time dateTime={date.toISOString()} title={dateTitle(tools, date)}>
      {dateText(tools, date, { withYear })}
    </time>
  );
}

/** How far from now (or `now`): `3分钟前`, `4分钟后`; `3 min ago`, `in 4 min`. "—" for null. */
export async function RelativeTime({ date, now }: { date: Date | null | undefined; now?: Date }) {
  if (!date) return <span className="muted">—</span>;
  const tools = await getDateTools();
  return (
    <time dateTime={date.toISOString()} title={dateTitle(tools, date)}>
      {relativeText(tools, date, now)}
    </time>
  );
}

/** A duration in seconds: `1分12秒`; `1 min 12 s`. */
export async function Duration({ seconds }: { seconds: number }) {
  const tools = await getDateTools();
  return <>{durationText(tools, seconds)}</>;
}

/** A count with the locale's digit grouping. */
export async function Num({ value }: { value: number }) {
  const tools = await getDateTools();
  return <>{numberText(tools, value)}</>;
}
