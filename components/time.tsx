const full = new Intl.DateTimeFormat("zh-CN", {
  timeZone: "Asia/Shanghai",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hour12: false,
});
const short = new Intl.DateTimeFormat("zh-CN", { timeZone: "Asia/Shanghai", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hour12: false });
const dayOnly = new Intl.DateTimeFormat("zh-CN", { timeZone: "Asia/Shanghai", year: "numeric", month: "2-digit", day: "2-digit" });

/**
 * A time in Asia/Shanghai: "11/29 18:05" within the last year, "2025/03/01" before, the full time
 * on hover. Rendered on the server, so there is no hydration mismatch.
 */
export function Time({ date, withYear = false }: { date: Date | null | undefined; withYear?: boolean }) {
  if (!date) return <span className="muted">—</span>;
  const recent = Date.now() - date.getTime() < 330 * 86_400_000;
  const text = withYear ? full.format(date).slice(0, 16) : recent ? short.format(date) : dayOnly.format(date);
  return (
    <time dateTime={date.toISOString()} title={full.format(date)}>
      {text}
    </time>
  );
}

/** "3 min ago", "2 h ago", "5 d ago"; "in 4 min" for the future. */
export function relativeTime(date: Date | null | undefined, now = new Date()): string {
  if (!date) return "—";
  const s = Math.round((date.getTime() - now.getTime()) / 1000);
  const a = Math.abs(s);
  const v = a < 60 ? `${a} s` : a < 3600 ? `${Math.round(a / 60)} min` : a < 86_400 ? `${Math.round(a / 3600)} h` : `${Math.round(a / 86_400)} d`;
  return s >= 0 ? `in ${v}` : `${v} ago`;
}
