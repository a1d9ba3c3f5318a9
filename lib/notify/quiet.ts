/**
 * Quiet hours of a notification channel: "HH:MM-HH:MM" in Asia/Shanghai, possibly wrapping midnight
 * ("22:00-07:30"). A message due inside them is held (Notification status "held", `notBefore` = when
 * they end) and sent then, unless its topic is urgent (心理危机, 安全): those go out at once.
 */
import { SHANGHAI_OFFSET_MS } from "../time";

const RANGE = /^([01]\d|2[0-3]):([0-5]\d)-([01]\d|2[0-3]):([0-5]\d)$/;

/** Minutes after midnight of both ends, or null when `spec` is not "HH:MM-HH:MM" (or is empty, or both ends are equal). */
export function parseQuietHours(spec: string | null | undefined): { from: number; to: number } | null {
  const m = RANGE.exec((spec ?? "").replace(/\s+/g, ""));
  if (!m) return null;
  const from = Number(m[1]) * 60 + Number(m[2]);
  const to = Number(m[3]) * 60 + Number(m[4]);
  return from === to ? null : { from, to };
}

/** True for a well-formed quiet-hours value (what the topic form accepts besides empty). */
export function isQuietHours(spec: string): boolean {
  return parseQuietHours(spec) !== null;
}

/**
 * When quiet hours that contain `now` end; null when `now` is outside them (or there are none).
 * Minutes are counted on the Asia/Shanghai clock (no daylight saving there).
 */
export function quietUntil(spec: string | null | undefined, now: Date): Date | null {
  const q = parseQuietHours(spec);
  if (!q) return null;
  const local = now.getTime() + SHANGHAI_OFFSET_MS;
  const dayStart = Math.floor(local / 86_400_000) * 86_400_000;
  const minute = Math.floor((local - dayStart) / 60_000);
  const inside = q.from < q.to ? minute >= q.from && minute < q.to : minute >= q.from || minute < q.to;
  if (!inside) return null;
  // The end is today, or tomorrow when the range wraps midnight and we are before it.
  const endDay = q.from < q.to || minute < q.to ? dayStart : dayStart + 86_400_000;
  return new Date(endDay + q.to * 60_000 - SHANGHAI_OFFSET_MS);
}
