/**
 * The scheduled report e-mail: the report of a `report` job (crawler/jobs/reports.ts) made as PDF
 * (server/report-file.ts) and sent to the configured recipients through the e-mail channel
 * (lib/notify sendOwnMail: the SMTP settings and address policy of every notification). The mail's
 * text gives the headline figures in the report's language, so a reader on a phone sees them
 * without opening the PDF.
 */
import type { Db } from "../lib/db";
import { publicUrl } from "../lib/config";
import { sendOwnMail, type NotifyOptions } from "../lib/notify";
import type { ReportSchedule } from "../lib/report-schedule";
import type { ReportJobSpec, ReportSent } from "@/crawler/jobs/reports";
import { makeReport } from "./report-file";
import { platformNames, reportTranslator } from "./report-html";

/** The mail's plain text: the title, the summary figures, the hottest incident, a link to the dashboard. */
export function reportMailText(report: Awaited<ReturnType<typeof makeReport>>, locale: ReportSchedule["locale"], dashboard: string | null): string {
  const t = reportTranslator(locale);
  const s = report.data.summary;
  const top = report.data.topIncidents[0];
  const figures: [Parameters<typeof t>[0], number][] = [
    ["summary.posts", s.posts],
    ["summary.newFlags", s.newFlags],
    ["summary.confirmedFlags", s.confirmedFlags],
    ["summary.openFlags", s.openFlags],
    ["summary.newIncidents", s.newIncidents],
    ["summary.handledIncidents", s.handledIncidents],
  ];
  return [
    t("mail.intro", { title: report.title }),
    "",
    ...figures.map(([key, n]) => t("mail.line", { label: t(key), n })),
    "",
    top
      ? t("mail.top", {
          title: top.title.replace(/\s+/g, " ").slice(0, 80),
          heat: top.heat.toFixed(1),
          size: top.size,
          platforms: platformNames(locale, top.platforms),
        })
      : t("mail.noTop"),
    ...(dashboard ? ["", t("mail.link", { url: `${dashboard}/reports` })] : []),
    "",
    t("mail.why"),
  ].join("\n");
}

/**
 * Make the report of `spec` and mail it to every recipient of `schedule`, the PDF attached.
 * @throws when the report cannot be made or the mail cannot be sent (the job fails with the reason)
 */
export async function sendReportMail(db: Db, spec: ReportJobSpec, schedule: ReportSchedule, options: NotifyOptions = {}): Promise<ReportSent> {
  const report = await makeReport(db, { period: spec.period, date: spec.date, locale: schedule.locale, format: "pdf" });
  const outcome = await sendOwnMail(
    {
      to: schedule.recipients,
      subject: report.title,
      text: reportMailText(report, schedule.locale, options.baseUrl ?? publicUrl()),
      attachments: [{ filename: report.filename, content: report.body, contentType: report.contentType }],
    },
    options,
  );
  if (!outcome.ok) throw new Error(`the report e-mail was not sent: ${outcome.error}`);
  return { title: report.title, recipients: schedule.recipients.length, bytes: report.body.length };
}
