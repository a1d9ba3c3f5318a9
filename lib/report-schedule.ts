/**
 * When the daily and weekly reports (日报/周报) are e-mailed, and to whom: one setting for the
 * whole installation, read from the environment like the SMTP server that sends them (README
 * "Reports"). A university's 舆情 office wants one report of every topic in the leaders' inboxes at
 * a fixed hour, not a mail per topic; a topic's own report is one click away on the dashboard.
 *
 * - `CAMPUSWATCH_REPORT_EMAIL`: the recipients, comma-separated; unset or empty: no report is sent.
 * - `CAMPUSWATCH_REPORT_DAILY`: "HH:MM" (Asia/Shanghai) the daily report of yesterday is sent;
 *   "off": none. @default "08:00"
 * - `CAMPUSWATCH_REPORT_WEEKLY`: "mon 08:30" — the weekday and time the weekly report of the seven
 *   days ending yesterday is sent; "off": none. @default "mon 08:30"
 * - `CAMPUSWATCH_REPORT_LOCALE`: "zh-CN" or "en". @default "zh-CN"
 *
 * A bad value is refused when the scheduler starts, with the variable's name and what it takes.
 */
import { z } from "zod";

/** When one report goes out (Asia/Shanghai). */
export interface ReportTime {
  hour: number;
  minute: number;
}

/** The installation's report e-mail settings. */
export interface ReportSchedule {
  recipients: string[];
  daily: ReportTime | null;
  weekly: (ReportTime & { weekday: number }) | null;
  locale: "zh-CN" | "en";
}

/** Weekday names as cron numbers (0 = Sunday). */
const WEEKDAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"] as const;

/** A setting that cannot be used: the message names the variable. */
export class ReportScheduleError extends Error {
  override name = "UserInputError";
}

const email = z.email();

function time(name: string, raw: string): ReportTime {
  const m = /^(\d{1,2}):(\d{2})$/.exec(raw);
  const hour = Number(m?.[1]);
  const minute = Number(m?.[2]);
  if (!m || hour > 23 || minute > 59) throw new ReportScheduleError(`${name} must be a time HH:MM (00:00–23:59) or "off" (got ${JSON.stringify(raw)})`);
  return { hour, minute };
}

/**
 * The settings in `env`, or null when no recipient is set (reports are not e-mailed).
 * @throws ReportScheduleError naming the variable that is wrong
 */
export function reportScheduleFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): ReportSchedule | null {
  const recipients = (env.CAMPUSWATCH_REPORT_EMAIL ?? "")
    .split(/[,，;\s]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  if (recipients.length === 0) return null;
  for (const r of recipients)
    if (!email.safeParse(r).success) throw new ReportScheduleError(`CAMPUSWATCH_REPORT_EMAIL: ${JSON.stringify(r)} is not an e-mail address`);

  const dailyRaw = env.CAMPUSWATCH_REPORT_DAILY?.trim() || "08:00";
  const daily = dailyRaw === "off" ? null : time("CAMPUSWATCH_REPORT_DAILY", dailyRaw);

  const weeklyRaw = (env.CAMPUSWATCH_REPORT_WEEKLY?.trim() || "mon 08:30").toLowerCase();
  let weekly: ReportSchedule["weekly"] = null;
  if (weeklyRaw !== "off") {
    const [day, at] = weeklyRaw.split(/\s+/);
    const weekday = WEEKDAYS.indexOf(day as (typeof WEEKDAYS)[number]);
    if (weekday < 0 || !at)
      throw new ReportScheduleError(
        `CAMPUSWATCH_REPORT_WEEKLY must be a weekday (${WEEKDAYS.join(", ")}) and a time, e.g. "mon 08:30", or "off" (got ${JSON.stringify(weeklyRaw)})`,
      );
    weekly = { weekday, ...time("CAMPUSWATCH_REPORT_WEEKLY", at) };
  }

  const locale = env.CAMPUSWATCH_REPORT_LOCALE?.trim() || "zh-CN";
  if (locale !== "zh-CN" && locale !== "en") throw new ReportScheduleError(`CAMPUSWATCH_REPORT_LOCALE must be zh-CN or en (got ${JSON.stringify(locale)})`);
  return { recipients, daily, weekly, locale };
}

/** The cron expressions (Asia/Shanghai) of the daily and weekly sends; null for one that is off. */
export function reportCrons(s: ReportSchedule): { daily: string | null; weekly: string | null } {
  return {
    daily: s.daily ? `${s.daily.minute} ${s.daily.hour} * * *` : null,
    weekly: s.weekly ? `${s.weekly.minute} ${s.weekly.hour} * * ${s.weekly.weekday}` : null,
  };
}

/** "08:00" / "mon 08:30", as the settings are written. */
export function reportTimeText(t: ReportTime & { weekday?: number }): string {
  const hm = `${String(t.hour).padStart(2, "0")}:${String(t.minute).padStart(2, "0")}`;
  return t.weekday === undefined ? hm : `${WEEKDAYS[t.weekday]} ${hm}`;
}
