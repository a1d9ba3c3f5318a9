/**
 * Failures that happen around a crawl rather than inside it (the worker records those itself):
 * a crawl that threw something unexpected, a job that could not even be queued, a notification
 * service that rejected after the run. Each is written on the account's CrawlRun so the dashboard
 * shows why, not only the process log.
 */
import type { Db } from "../lib/db";
import type { RunError } from "./worker";

/** A one-line reason for anything thrown. */
export function reasonOf(e: unknown): string {
  if (e instanceof Error) return e.message || e.name;
  return typeof e === "string" ? e : (JSON.stringify(e) ?? String(e));
}

function runError(kind: string, e: unknown): RunError {
  return { at: new Date().toISOString(), kind: e instanceof Error && e.name !== "Error" ? e.name : kind, reason: reasonOf(e) };
}

/**
 * A crawl of `accountId` ended by an exception instead of a summary. The account's run still
 * marked "running" (the crawl's own, when it got that far) is closed as failed with the reason;
 * when there is none, a failed run is created to carry it. The account shows the error too.
 * Never throws: this is called from error handlers (the database may be what failed).
 */
export async function recordCrawlFailure(
  db: Db,
  accountId: number,
  trigger: "schedule" | "manual" | "cli",
  e: unknown,
  log: (message: string) => void = () => undefined,
): Promise<void> {
  const reason = reasonOf(e);
  const note = `crashed: ${reason}`.slice(0, 1000);
  const errors = JSON.stringify([runError("CrawlError", e)]);
  try {
    const now = new Date();
    const closed = await db.crawlRun.updateMany({
      where: { accountId, status: "running" },
      data: { status: "failed", finishedAt: now, note, errorCount: { increment: 1 }, errors },
    });
    if (closed.count === 0) {
      const exists = await db.account.count({ where: { id: accountId } });
      if (!exists) return;
      await db.crawlRun.create({ data: { accountId, trigger, status: "failed", startedAt: now, finishedAt: now, note, errorCount: 1, errors } });
    }
    await db.account.updateMany({ where: { id: accountId }, data: { status: "error", lastError: note } });
  } catch (err) {
    log(`account ${accountId}: could not record the failure on a crawl run (${reasonOf(err)}); the failure was: ${reason}`);
  }
}

/**
 * A job for `accountId` could not be handed to the queue (the queue's database refused): recorded
 * as a skipped run with the reason, so the missed tick is visible. Never throws.
 */
export async function recordSkippedRun(
  db: Db,
  accountId: number,
  trigger: "schedule" | "manual" | "cli",
  note: string,
  log: (message: string) => void = () => undefined,
): Promise<void> {
  const now = new Date();
  try {
    const exists = await db.account.count({ where: { id: accountId } });
    if (exists) await db.crawlRun.create({ data: { accountId, trigger, status: "skipped", startedAt: now, finishedAt: now, note: note.slice(0, 1000) } });
  } catch (err) {
    log(`account ${accountId}: could not record a skipped run (${reasonOf(err)}): ${note}`);
  }
}

/**
 * Add an error to a finished run's error list (a service that failed after the run was written,
 * such as notification delivery). The run's status is left as it was: the crawl itself went as
 * recorded. Never throws.
 */
export async function appendRunError(db: Db, runId: number, kind: string, e: unknown, log: (message: string) => void = () => undefined): Promise<void> {
  try {
    const run = await db.crawlRun.findUnique({ where: { id: runId }, select: { errors: true } });
    if (!run) return;
    let list: RunError[] = [];
    try {
      const parsed: unknown = JSON.parse(run.errors);
      if (Array.isArray(parsed)) list = parsed as RunError[];
    } catch {
      list = [];
    }
    list.push(runError(kind, e));
    await db.crawlRun.update({ where: { id: runId }, data: { errors: JSON.stringify(list.slice(-200)), errorCount: { increment: 1 } } });
  } catch (err) {
    log(`run ${runId}: could not record ${kind} (${reasonOf(err)}): ${reasonOf(e)}`);
  }
}
