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
  const report = await makeReport(db, { period, date, topic: topic ?? null, locale, format });
  return new Response(new Uint8Array(report.body), {
    headers: {
      "content-type": report.contentType,
      "content-disposition": `${format === "pdf" ? "attachment" : "inline"}; filename="${report.filename}"`,
      "cache-control": "no-store",
      // The HTML is self-contained: it may load nothing, run nothing and be framed by nobody.
      ...(format === "html" ? { "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'" } : {}),
    },
  });
});
