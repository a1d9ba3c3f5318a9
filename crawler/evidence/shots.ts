/**
 * Screenshots at crawl time: after a crawl run that flagged posts, an `evidenceShots` job
 * (crawler/jobs) draws the raw page of each flagged post while the archive surely still has it,
 * so a post deleted from its platform an hour later still has its picture as the platform showed it.
 */
import path from "node:path";
import { crawlerConfig, dataDir } from "../../lib/config";
import type { Db } from "../../lib/db";
import { ScreenshotRenderer } from "./screenshot";

/** The flags a run opened: on its account, created between its start and its end (as notifications count them). */
function runFlagsWhere(run: { accountId: number; startedAt: Date; finishedAt: Date | null }) {
  return { createdAt: { gte: run.startedAt, lte: run.finishedAt ?? new Date() }, post: { accountId: run.accountId, archivePath: { not: null } } };
}

/** True when the run opened a flag on a post whose raw page was archived: a screenshot job has work. */
export async function runFlaggedArchivedPosts(db: Db, crawlRunId: number): Promise<boolean> {
  const run = await db.crawlRun.findUnique({ where: { id: crawlRunId }, select: { accountId: true, startedAt: true, finishedAt: true } });
  if (!run) return false;
  return (await db.flag.findFirst({ where: runFlagsWhere(run), select: { id: true } })) !== null;
}

/** What {@link drawRunScreenshots} did. */
export interface RunShots {
  /** Archived pages drawn now. */
  drawn: number;
  /** Pages that had their screenshot already, or whose archive file is gone. */
  skipped: number;
  failed: number;
}

/**
 * Draw the screenshot of every archived page behind the flags a run opened (each page once;
 * those drawn before are skipped). A page that cannot be drawn is counted and logged, not thrown:
 * the others still get theirs, and the export draws it again on demand.
 */
export async function drawRunScreenshots(
  db: Db,
  crawlRunId: number,
  options: {
    archiveDir?: string;
    chromiumPath?: string;
    signal?: AbortSignal;
    log?: (message: string) => void;
    progress?: (done: number, total: number) => void;
  } = {},
): Promise<RunShots> {
  const result: RunShots = { drawn: 0, skipped: 0, failed: 0 };
  const run = await db.crawlRun.findUnique({ where: { id: crawlRunId }, select: { accountId: true, startedAt: true, finishedAt: true } });
  if (!run) return result;
  const flags = await db.flag.findMany({ where: runFlagsWhere(run), select: { post: { select: { archivePath: true } } } });
  const pages = [...new Set(flags.map((f) => f.post.archivePath).filter((p): p is string => p !== null))];
  if (pages.length === 0) return result;
  const archiveDir = options.archiveDir ?? path.join(dataDir(), "archive");
  const renderer = new ScreenshotRenderer({ chromiumPath: options.chromiumPath ?? crawlerConfig().chromiumPath, log: options.log });
  if (!renderer.available()) {
    options.log?.(`no Chromium at ${options.chromiumPath ?? crawlerConfig().chromiumPath}: ${pages.length} screenshots left for the export to draw`);
    result.skipped = pages.length;
    return result;
  }
  try {
    for (const [i, rel] of pages.entries()) {
      if (options.signal?.aborted) break;
      options.progress?.(i, pages.length);
      try {
        const shot = await renderer.ensure(archiveDir, rel);
        if (shot?.drawnNow) result.drawn++;
        else result.skipped++;
      } catch (e) {
        result.failed++;
        options.log?.(`screenshot of ${rel} failed: ${(e as Error).message.split("\n")[0]}`);
      }
    }
  } finally {
    await renderer.close();
  }
  return result;
}
