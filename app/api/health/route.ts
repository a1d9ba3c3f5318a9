import { NextResponse } from "next/server";
import { db } from "@/lib/db";
import { withAuth } from "@/lib/http";
import { healthReport } from "@/server/health";

/** GET /api/health: database reachable, running crawls, last run. Signed-in users only. */
export const GET = withAuth("read", async () => {
  const { runningCrawls, lastRun } = await healthReport(db);
  return NextResponse.json({ ok: true, runningCrawls, lastRun });
});
