import { NextResponse } from "next/server";
import { z } from "zod";
import { withAuth } from "@/lib/http";
import { parseInput } from "@/lib/validation";
import { topicJob } from "@/lib/queries/topics";

const paramsSchema = z.object({ id: z.coerce.number().int().positive() });

/** GET /api/topics/:id/job — progress of the topic's training or re-scoring in this server (null when none ran). */
export const GET = withAuth("read", async (_req, _user, ctx: { params: Promise<{ id: string }> }) => {
  const { id } = parseInput(paramsSchema, await ctx.params);
  return NextResponse.json({ job: topicJob(id) });
});
