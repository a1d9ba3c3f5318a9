import { db } from "@/lib/db";
import { withAuth } from "@/lib/http";
import { auditCsv } from "@/lib/audit";
import { shanghaiDay } from "@/lib/time";
import { parseAuditParams } from "@/server/audit";

/**
 * GET /api/audit/export?actor=&kind=&since=&until= — the audit log as CSV (lib/csv.ts: formula
 * guard), the page's filters applied, newest first, streamed. Admins only (view-audit).
 */
export const GET = withAuth("view-audit", (req) => {
  const { filter } = parseAuditParams(Object.fromEntries(new URL(req.url).searchParams));
  const encoder = new TextEncoder();
  const chunks = auditCsv(db, filter);
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      } catch (e) {
        controller.error(e);
      }
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
  return new Response(stream, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="campuswatch-audit-${shanghaiDay(new Date())}.csv"`,
      "cache-control": "no-store",
    },
  });
});
