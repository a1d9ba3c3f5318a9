/**
 * The scheduled e-mail of the daily and weekly reports (日报/周报): the scheduler asks for a
 * `report` job at the configured times (lib/report-schedule.ts), and whichever process runs jobs
 * makes the report and mails it.
 *
 * Making a report words it in the reader's language (server/report-html.ts), which the crawler
 * layer may not do (it sits below i18n/): the process's entry point (crawler/commands/) hands the
 * sender in with {@link setReportSender}, as it hands in the rest of the dashboard's layer.
 */
import type { Db } from "../../lib/db";
import { reportScheduleFromEnv, type ReportSchedule } from "../../lib/report-schedule";
import { shanghaiDay } from "../../lib/time";
import { requestJob } from "./requests";
import type { JobOutcome, JobProgress, JobSpec } from "./types";

/** One report job's parameters. */
export type ReportJobSpec = Extract<JobSpec, { kind: "report" }>;

/** What sending one report did. */
export interface ReportSent {
  /** The report's title (the mail's subject). */
  title: string;
  recipients: number;
  bytes: number;
}

/** Make the report of `spec` and mail it as `schedule` says; throws when it could not be sent. */
export type ReportSender = (db: Db, spec: ReportJobSpec, schedule: ReportSchedule) => Promise<ReportSent>;

let sender: ReportSender | null = null;

/** Hand in the function that makes and mails a report (the process's entry point does). */
export function setReportSender(send: ReportSender | null): void {
  sender = send;
}

/** The last full day at `now` (Asia/Shanghai): what a report sent in the morning covers. */
function yesterday(now: Date): string {
  return shanghaiDay(new Date(now.getTime() - 86_400_000));
}

/**
 * Ask for the report of the period ending yesterday. One per period and day: a report already
 * queued, running or sent (a second scheduler, a restart within the minute) is not asked again.
 * Returns whether a job was created.
 */
export async function requestScheduledReport(db: Db, period: ReportJobSpec["period"], now = new Date()): Promise<boolean> {
  const spec: ReportJobSpec = { kind: "report", period, date: yesterday(now) };
  const sent = await db.job.findFirst({ where: { kind: "report", key: `report:${period}:${spec.date}`, status: "done" }, select: { id: true } });
  if (sent) return false;
  return (await requestJob(db, spec)).created;
}

/** The `report` job's handler: make the report and mail it to the configured recipients. */
export async function sendScheduledReport(ctx: { db: Db; progress: (p: JobProgress) => void }, spec: ReportJobSpec): Promise<JobOutcome> {
  const schedule = reportScheduleFromEnv();
  if (!schedule) throw new Error('no report recipients: set CAMPUSWATCH_REPORT_EMAIL (README "Reports")');
  if (!sender) throw new Error("this process cannot make reports (it was started without the report sender)");
  ctx.progress({ message: `making the ${spec.period} report of ${spec.date}`, step: "reporting" });
  const r = await sender(ctx.db, spec, schedule);
  return {
    message: `sent "${r.title}" (${r.bytes} bytes) to ${r.recipients} recipient${r.recipients === 1 ? "" : "s"}`,
    step: "reportSent",
    values: { recipients: r.recipients, bytes: r.bytes },
  };
}
