/** Display helpers. Times are formatted by lib/time.ts (Asia/Shanghai, the platforms' own zone). */
import { jsonArray, parseJsonColumn } from "./json-column";

export { formatTime } from "./time";

/** First `n` characters of a text, on one line. */
export function excerpt(text: string, n = 120): string {
  const one = text.replace(/\s+/g, " ").trim();
  return one.length > n ? one.slice(0, n) + "…" : one;
}

/** Parse a JSON list column, tolerating bad data (shows nothing rather than crashing a page). */
export function jsonList<T = string>(value: string | null | undefined): T[] {
  return parseJsonColumn(value, jsonArray, []) as T[];
}
