/** Display helpers. Times are shown in Asia/Shanghai, the platforms' own zone. */
const dateTime = new Intl.DateTimeFormat("zh-CN", {
  timeZone: "Asia/Shanghai",
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

/** First `n` characters of a text, on one line. */
export function excerpt(text: string, n = 120): string {
  const one = text.replace(/\s+/g, " ").trim();
  return one.length > n ? one.slice(0, n) + "…" : one;
}

/** Parse a JSON list column, tolerating bad data (shows nothing rather than crashing a page). */
export function jsonList<T = string>(value: string | null | undefined): T[] {
  if (!value) return [];
  try {
    const v: unknown = JSON.parse(value);
    return Array.isArray(v) ? (v as T[]) : [];
  } catch {
    return [];
  }
}
