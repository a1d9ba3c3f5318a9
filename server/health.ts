/** What `GET /api/health` answers: the database is reachable, how many crawls run, the last run. */
import type { Db } from "../lib/db";

/** Crawls running now and the latest run (any status), for the health route. */
export async function healthReport(db: Db) {
  const [runningCrawls, lastRun] = await Promise.all([
    db.crawlRun.count({ where: { status: "running" } }),
    db.crawlRun.findFirst({ orderBy: { id: "desc" }, select: { id: true, status: true, startedAt: true } }),
  ]);
  return { runningCrawls, lastRun };
}
