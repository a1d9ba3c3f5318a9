import { z } from "zod";
import { getLocale } from "next-intl/server";
import { db } from "@/lib/db";
import { withAuth } from "@/lib/http";
import { parseInput } from "@/lib/validation";
import { makeReport } from "@/server/report-file";

/** An empty field of the form (the "all topics" choice) is no value. */
const blankIsAbsent = (v: unknown) => (v === "" ? undefined : v);

const querySchema = z.object({
  period: z.enum(["day", "week"], { error: "period must be day or week" }),
  date: z.preprocess(
    blankIsAbsent,
    z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, { error: "date must be a day written YYYY-MM-DD" })
      .optional(),
  ),
  topic: z.preprocess(blankIsAbsent, z.string().regex(/^\d+$/, { error: "topic must be a topic id" }).optional()),
  format: z.enum(["pdf", "html"], { error: "format must be pdf or html" }).default("pdf"),
});

/**
 * GET /api/reports?period=day|week&date=YYYY-MM-DD&topic=ID&format=pdf|html — a daily or weekly
 * report (server/report-file.ts) in the reader's language, as a download (PDF) or a page to read
 * (HTML). Permission: export (a report is an export of the period's figures).
 */
export const GET = withAuth("export", async (req) => {
  const { period, date, topic, format } = parseInput(querySchema, Object.fromEntries(new URL(req.url).searchParams));
  const locale = (await getLocale()) === "en" ? "en" : "zh-CN";
  // The dashboard's CSP (proxy.ts) allows a <style> element only with this request's nonce.
  const styleNonce = /'nonce-([^']+)'/.exec(req.headers.get("content-security-policy") ?? "")?.[1];
  const report = await makeReport(db, { period, date, topic: topic ?? null, locale, format, styleNonce });
  return new Response(new Uint8Array(report.body), {
    headers: {
      "content-type": report.contentType,
      "content-disposition": `${format === "pdf" ? "attachment" : "inline"}; filename="${report.filename}"`,
      "cache-control": "no-store",
    },
  });
});
