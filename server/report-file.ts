/**
 * One report as a file: the figures (server/reports.ts), worded (server/report-html.ts) and, for a
 * PDF, printed (server/report-pdf.ts). The one path the CLI (`campuswatch report`), the dashboard's
 * download (/api/reports) and the scheduled e-mail (server/report-mail.ts) all take, so the three
 * can never disagree.
 */
import type { Db } from "../lib/db";
import type { Locale } from "@/i18n/config";
import { findReportTopic, reportData, ReportRequestError, type ReportData, type ReportPeriod } from "./reports";
import { renderReportHtml, reportTitle } from "./report-html";
import { renderReportPdf } from "./report-pdf";

export type ReportFormat = "pdf" | "html";

/** What a report is asked for, as the CLI and the dashboard take it. */
export interface ReportFileRequest {
  period: ReportPeriod;
  /** Last day covered, "YYYY-MM-DD"; default yesterday. */
  date?: string;
  /** A topic's name or id; null: all topics. */
  topic?: string | number | null;
  locale: Locale;
  format: ReportFormat;
  /** For HTML the dashboard serves: its CSP nonce (report-html.ts). */
  styleNonce?: string;
}

/** A made report. */
export interface ReportFile {
  data: ReportData;
  /** The title line (the e-mail subject). */
  title: string;
  /** A download name without spaces: campuswatch-day-2026-12-02[-topic-3].pdf */
  filename: string;
  contentType: string;
  body: Buffer;
}

/**
 * Make one report.
 * @throws ReportRequestError for an unknown topic or a bad date; Chromium's failure for a PDF
 */
export async function makeReport(db: Db, req: ReportFileRequest, now = new Date()): Promise<ReportFile> {
  let topicId: number | null = null;
  if (req.topic !== undefined && req.topic !== null && req.topic !== "") {
    const topic = await findReportTopic(db, String(req.topic));
    if (!topic) throw new ReportRequestError(`no topic named or numbered ${JSON.stringify(String(req.topic))}`);
    topicId = topic.id;
  }
  const data = await reportData(db, { period: req.period, date: req.date, topicId }, now);
  const html = renderReportHtml(data, req.locale, { styleNonce: req.styleNonce });
  const body = req.format === "pdf" ? await renderReportPdf(html) : Buffer.from(html, "utf8");
  return {
    data,
    title: reportTitle(data, req.locale),
    filename: `campuswatch-${data.period}-${data.lastDay}${topicId !== null ? `-topic-${topicId}` : ""}.${req.format}`,
    contentType: req.format === "pdf" ? "application/pdf" : "text/html; charset=utf-8",
    body,
  };
}
