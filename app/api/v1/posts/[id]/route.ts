import { z } from "zod";
import { db } from "@/lib/db";
import { apiData, apiError, withToken } from "@/lib/api-v1";
import { parseInput } from "@/lib/validation";
import { apiPost } from "@/server/api-v1";

const paramsSchema = z.object({ id: z.coerce.number().int().positive("the post id is a positive number") });

/** GET /api/v1/posts/:id — a post with its stored versions, flags and incident. Token scope read. */
export const GET = withToken({ scope: "read", permission: "read" }, async (_req, _user, ctx: { params: Promise<{ id: string }> }) => {
  const { id } = parseInput(paramsSchema, await ctx.params);
  const post = await apiPost(db, id);
  return post ? apiData(post) : apiError(404, "not-found", `no post ${id}`);
});
