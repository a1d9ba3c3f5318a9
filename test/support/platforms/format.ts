/**
 * Dates printed the way each platform prints them (the inverse of crawler/dates/index.ts), relative
 * to the local platforms' clock, in Asia/Shanghai.
 */
import { shanghaiParts } from "../../../crawler/dates";

const DAY = 86_400_000;
const pad = (n: number): string => String(n).padStart(2, "0");
const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** Shanghai calendar-day difference between `at` and `now` (0 = same day, 1 = yesterday). */
function daysBefore(at: Date, now: Date): number {
  const a = shanghaiParts(at);
  const b = shanghaiParts(now);
  return Math.round((Date.UTC(b.year, b.month - 1, b.day) - Date.UTC(a.year, a.month - 1, a.day)) / DAY);
}

/** Weibo API's full form: "Sat Jun 14 12:00:00 +0800 2025". */
export function weiboRfc(at: Date): string {
  const p = shanghaiParts(at);
  const weekday = WEEKDAYS[new Date(Date.UTC(p.year, p.month - 1, p.day)).getUTCDay()];
  return `${weekday} ${MONTHS[p.month - 1]} ${pad(p.day)} ${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)} +0800 ${p.year}`;
}

/** Weibo lists' short forms: 刚刚, N分钟前, N小时前 (today), 昨天 HH:MM, MM-DD, YYYY-MM-DD. */
export function weiboShort(at: Date, now: Date): string {
  const secs = Math.floor((now.getTime() - at.getTime()) / 1000);
  const p = shanghaiParts(at);
  const days = daysBefore(at, now);
  if (secs < 60) return "刚刚";
  if (secs < 3600) return `${Math.floor(secs / 60)}分钟前`;
  if (days === 0) return `${Math.floor(secs / 3600)}小时前`;
  if (days === 1) return `昨天 ${pad(p.hour)}:${pad(p.minute)}`;
  if (p.year === shanghaiParts(now).year) return `${pad(p.month)}-${pad(p.day)}`;
  return `${p.year}-${pad(p.month)}-${pad(p.day)}`;
}

/** Tieba list columns: "HH:MM" today, "M-D" this year, "YYYY-MM" before. */
export function tiebaListDate(at: Date, now: Date): string {
  const p = shanghaiParts(at);
  if (daysBefore(at, now) === 0) return `${pad(p.hour)}:${pad(p.minute)}`;
  if (p.year === shanghaiParts(now).year) return `${p.month}-${p.day}`;
  return `${p.year}-${pad(p.month)}`;
}

/** Tieba floors: "YYYY-MM-DD HH:MM". */
export function tiebaFloorDate(at: Date): string {
  const p = shanghaiParts(at);
  return `${p.year}-${pad(p.month)}-${pad(p.day)} ${pad(p.hour)}:${pad(p.minute)}`;
}

/** Discuz! "Y-n-j H:i": "2019-1-11 22:29". */
export function discuzFull(at: Date): string {
  const p = shanghaiParts(at);
  return `${p.year}-${p.month}-${p.day} ${pad(p.hour)}:${pad(p.minute)}`;
}

/** Discuz! "Y-n-j": "2019-1-11". */
export function discuzDay(at: Date): string {
  const p = shanghaiParts(at);
  return `${p.year}-${p.month}-${p.day}`;
}

/**
 * Discuz!'s relative form for dates in the last week ("N 秒前", "N 分钟前", "半小时前",
 * "N 小时前", "昨天 H:i", "前天 H:i", "N 天前"), or null when it shows the full date.
 */
export function discuzRelative(at: Date, now: Date): string | null {
  const secs = Math.floor((now.getTime() - at.getTime()) / 1000);
  const p = shanghaiParts(at);
  const days = daysBefore(at, now);
  if (secs < 0) return null;
  if (secs < 60) return `${Math.max(1, secs)}&nbsp;秒前`;
  if (secs < 1800) return `${Math.floor(secs / 60)}&nbsp;分钟前`;
  if (secs < 3600) return "半小时前";
  if (days === 0) return `${Math.floor(secs / 3600)}&nbsp;小时前`;
  if (days === 1) return `昨天&nbsp;${pad(p.hour)}:${pad(p.minute)}`;
  if (days === 2) return `前天&nbsp;${pad(p.hour)}:${pad(p.minute)}`;
  if (days < 7) return `${days}&nbsp;天前`;
  return null;
}

/** Hexo/NexT `<time datetime>`: "2020-10-24T15:01:26+08:00". */
export function isoShanghai(at: Date): string {
  const p = shanghaiParts(at);
  return `${p.year}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}+08:00`;
}

/** Hexo's visible "2020-10-24" and its title "2020-10-24 15:01:26". */
export function blogDay(at: Date): string {
  return isoShanghai(at).slice(0, 10);
}
export function blogDateTime(at: Date): string {
  return isoShanghai(at).slice(0, 19).replace("T", " ");
}

/** RSS `pubDate` as WordPress writes it: "Thu, 16 May 2019 14:00:16 +0000". */
export function rfc822Utc(at: Date): string {
  return `${WEEKDAYS[at.getUTCDay()]}, ${pad(at.getUTCDate())} ${MONTHS[at.getUTCMonth()]} ${at.getUTCFullYear()} ${pad(at.getUTCHours())}:${pad(at.getUTCMinutes())}:${pad(at.getUTCSeconds())} +0000`;
}

/** HTML-escape text and attribute values. */
export function esc(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

/** JSON with non-ASCII as \uXXXX, the way Tieba writes its `data-field` attributes. */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
