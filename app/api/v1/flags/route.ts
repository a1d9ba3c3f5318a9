import { db } from "@/lib/db";
import { apiData, withToken } from "@/lib/api-v1";
import { apiFlags } from "@/server/api-v1";

/**
 * GET /api/v1/flags?status=open|confirmed|dismissed&topic=ID&since=ISO&limit=N&cursor=… — flags,
 * newest first. Token scope read; the owner's role must read.
 */
export const GET = withToken({ scope: "read", permission: "read" }, async (req, user) => {
  const { data, nextCursor } = await apiFlags(db, req.url, user.topics);
  return apiData(data, nextCursor);
});
