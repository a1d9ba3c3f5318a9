import { db } from "@/lib/db";
import { apiData, withToken } from "@/lib/api-v1";
import { apiIncidents } from "@/server/api-v1";

/**
 * GET /api/v1/incidents?status=candidate|open|handled|dismissed|merged&topic=ID&since=ISO&limit=N&cursor=…
 * — incidents, newest first. Token scope read.
 */
export const GET = withToken({ scope: "read", permission: "read" }, async (req, user) => {
  const { data, nextCursor } = await apiIncidents(db, req.url, user.topics);
  return apiData(data, nextCursor);
});
