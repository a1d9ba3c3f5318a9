import { db } from "@/lib/db";
import { apiData, withToken } from "@/lib/api-v1";
import { apiPosts } from "@/server/api-v1";

/**
 * GET /api/v1/posts?account=ID&platform=P&since=ISO&flagged=0|1&deleted=0|1&limit=N&cursor=… —
 * posts and replies, newest first. Token scope read.
 */
export const GET = withToken({ scope: "read", permission: "read" }, async (req) => {
  const { data, nextCursor } = await apiPosts(db, req.url);
  return apiData(data, nextCursor);
});
