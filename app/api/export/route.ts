import { z } from "zod";
import { db } from "@/lib/db";
import { withAuth } from "@/lib/http";
import { parseInput } from "@/lib/validation";
import { exportFilteredPosts } from "@/server/export";
import { parsePostFilter } from "@/server/posts";
import { shanghaiDay } from "@/server/overview";

const querySchema = z.object({
  format: z.enum(["csv", "jsonl"], { error: "format must be csv or jsonl" }),
  flagged: z.enum(["0", "1"]).default("0"),
});

/**
 * GET /api/export?format=csv|jsonl&flagged=1&… — the current list filter (same query-string
 * fields as the pages) as a download, streamed. Permission: export.
 */
// Not async: the response streams, so nothing is awaited before it is returned.
export const GET = withAuth("export", (req, user) => {
  const params = Object.fromEntries(new URL(req.url).searchParams);
  const { format, flagged } = parseInput(querySchema, params);
  // A scoped user exports only their topics' flags, as their list shows them.
  const filter = { ...parsePostFilter(params, flagged === "1").filter, scope: user.topics };
  const encoder = new TextEncoder();
  const chunks = exportFilteredPosts(db, format, filter);
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
  const name = `campuswatch-${flagged === "1" ? "flagged" : "posts"}-${shanghaiDay(new Date())}.${format}`;
  return new Response(stream, {
    headers: {
      "content-type": format === "csv" ? "text/csv; charset=utf-8" : "application/x-ndjson; charset=utf-8",
      "content-disposition": `attachment; filename="${name}"`,
      "cache-control": "no-store",
    },
  });
});
