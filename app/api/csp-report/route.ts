import { CSP_REPORT_MAX_BYTES, CspReportLog, parseCspReport, readCapped } from "@/lib/csp-report";
import { jsonError } from "@/lib/http";

const reportLog = new CspReportLog();

/**
 * POST /api/csp-report: browsers' CSP violation reports (lib/security-headers.ts). No sign-in —
 * a browser sends them on its own — so the body is capped at 16 KB and the log rate-limited
 * (lib/csp-report.ts). Answers 204 whether or not the body held a report: nothing to tell.
 */
export async function POST(req: Request): Promise<Response> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > CSP_REPORT_MAX_BYTES) return jsonError(413, `report larger than ${CSP_REPORT_MAX_BYTES} bytes`, "too_large");
  const text = await readCapped(req.body, CSP_REPORT_MAX_BYTES);
  if (text === null) return jsonError(413, `report larger than ${CSP_REPORT_MAX_BYTES} bytes`, "too_large");
  await reportLog.log(parseCspReport(text));
  return new Response(null, { status: 204 });
}
