import { NextResponse } from "next/server";
import { z } from "zod";
import { withAuth } from "@/lib/http";
import { parseInput } from "@/lib/validation";
import { db } from "@/lib/db";
import { latestTopicJob } from "@/server/jobs";

const paramsSchema = z.object({ id: z.coerce.number().int().positive() });

/** GET /api/topics/:id/job — the topic's newest training or re-scoring job and its progress (null when none was asked for). */
export const GET = withAuth("read", async (_req, _user, ctx: { params: Promise<{ id: string }> }) => {
  const { id } = parseInput(paramsSchema, await ctx.params);
  return NextResponse.json({ job: await latestTopicJob(db, id) });
});
