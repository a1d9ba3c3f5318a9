import { z } from "zod";
import { db } from "@/lib/db";
import { apiData, apiError, withToken } from "@/lib/api-v1";
import { parseInput } from "@/lib/validation";
import { reviewFlagsReport, reviewInputSchema } from "@/server/reviews";
import { apiFlag } from "@/server/api-v1";

const paramsSchema = z.object({ id: z.coerce.number().int().positive("the flag id is a positive number") });
const bodySchema = reviewInputSchema.pick({ decision: true, note: true });

/** The largest body read: a decision and a note of at most 1000 characters. */
const MAX_BODY_BYTES = 16 * 1024;

/**
 * POST /api/v1/flags/:id/review with `{"decision": "confirm"|"dismiss", "note": "…"}` — the same
 * review as the dashboard's (server/reviews.ts): the flag closes, the decision is recorded under the
 * token's owner, the post becomes a training sample and the topic is asked to learn. Token scope
 * review; the owner's role must review.
 */
export const POST = withToken({ scope: "review", permission: "review" }, async (req, user, ctx: { params: Promise<{ id: string }> }) => {
  const { id } = parseInput(paramsSchema, await ctx.params);
  const raw = await req.text();
  if (Buffer.byteLength(raw) > MAX_BODY_BYTES) return apiError(413, "too-large", `the body is at most ${MAX_BODY_BYTES} bytes`);
  let json: unknown;
  try {
    json = raw ? JSON.parse(raw) : {};
  } catch {
    return apiError(400, "invalid", 'the body must be JSON: {"decision": "confirm" | "dismiss", "note": "…"}');
  }
  const body = parseInput(bodySchema, json);
  const report = await reviewFlagsReport(
    db,
    { flagIds: [id], decision: body.decision, note: body.note },
    { id: user.id, username: user.username, topics: user.topics },
  );
  if (report.reviewed === 0) return apiError(404, "not-found", `no flag ${id}`);
  return apiData(await apiFlag(db, id, user.topics));
});
