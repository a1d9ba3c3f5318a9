import { z } from "zod";
import { db } from "@/lib/db";
import { jsonError, withAuth } from "@/lib/http";
import { parseInput } from "@/lib/validation";
import { fetchRemoteImage, ImageFetchError, postImageUrl } from "@/server/remote-image";

const paramsSchema = z.object({ id: z.coerce.number().int().positive(), n: z.coerce.number().int().min(0).max(500) });

/**
 * GET /api/posts/:id/images/:n — the n-th image of a post, fetched by this server. Admins only
 * (manage-accounts): loading a remote image tells its host that someone is reading the post.
 * Only images that are in the post can be fetched, never an arbitrary URL.
 */
export const GET = withAuth("manage-accounts", async (_req, _user, ctx: { params: Promise<{ id: string; n: string }> }) => {
  const { id, n } = parseInput(paramsSchema, await ctx.params);
  const url = await postImageUrl(db, id, n);
  if (!url) return jsonError(404, "no such image", "not-found");
  try {
    const img = await fetchRemoteImage(url);
    return new Response(Buffer.from(img.body), {
      headers: {
        "content-type": img.contentType,
        "cache-control": "private, max-age=3600",
        "content-security-policy": "default-src 'none'",
        "x-content-type-options": "nosniff",
      },
    });
  } catch (e) {
    // Network, DNS and policy failures are the image host's problem, not ours: 502 with the reason.
    const reason = e instanceof ImageFetchError ? e.message : `could not load the image (${(e as Error).name})`;
    return jsonError(502, reason, "upstream");
  }
});
