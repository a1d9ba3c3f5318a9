import { NextResponse } from "next/server";
import { db } from "@/lib/db";
import { withAuth } from "@/lib/http";

/** GET /api/health: database reachable, running crawls, last run. Signed-in users only. */
export const GET = withAuth("read", async () => {
  const [running, last] = await Promise.all([
    db.crawlRun.count({ where: { status: "running" } }),
    db.crawlRun.findFirst({ orderBy: { id: "desc" }, select: { id: true, status: true, startedAt: true } }),
  ]);
  return NextResponse.json({ ok: true, runningCrawls: running, lastRun: last });
});
