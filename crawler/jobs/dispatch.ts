/**
 * Handing queued Job rows to the queue: the scheduler does it every second or so. On SQLite the
 * queue is in this process; on PostgreSQL it is pg-boss and any worker may take the job. A row
 * handed over but never claimed (the process holding the in-process queue died, a pg-boss message
 * lost) is handed over again after `redispatchMs`; claiming is conditional, so a job handed over
 * twice still runs once.
 */
import type { Db } from "../../lib/db";
import type { JobKind, QueueItem } from "./types";

/** Options of {@link dispatchQueuedJobs}. */
export interface DispatchOptions {
  /** Hand a row over again when nobody claimed it for this long. @default 60000 */
  redispatchMs?: number;
  /** Rows handed over per call. @default 50 */
  batch?: number;
  now?: Date;
}

/** Hand queued rows to `enqueue`; returns how many were handed over. */
export async function dispatchQueuedJobs(db: Db, enqueue: (item: QueueItem) => boolean | Promise<boolean>, opts: DispatchOptions = {}): Promise<number> {
  const now = opts.now ?? new Date();
  const stale = new Date(now.getTime() - (opts.redispatchMs ?? 60_000));
  const rows = await db.job.findMany({
    where: { status: "queued", OR: [{ dispatchedAt: null }, { dispatchedAt: { lt: stale } }] },
    select: { id: true, kind: true, dispatchedAt: true },
    orderBy: { id: "asc" },
    take: opts.batch ?? 50,
  });
  let n = 0;
  for (const r of rows) {
    // Conditional on the hand-over read: of several dispatchers (a scheduler, PostgreSQL workers)
    // passing at once, one hands the row over.
    const mine = await db.job.updateMany({ where: { id: r.id, status: "queued", dispatchedAt: r.dispatchedAt }, data: { dispatchedAt: now } });
    if (mine.count === 0) continue;
    if (await enqueue({ jobId: r.id, kind: r.kind as JobKind })) n++;
  }
  return n;
}

/**
 * Forget which queued rows were handed to an in-process queue: called when such a queue starts,
 * since whatever an earlier process held in memory died with it.
 */
export async function forgetDispatches(db: Db): Promise<void> {
  await db.job.updateMany({ where: { status: "queued", dispatchedAt: { not: null } }, data: { dispatchedAt: null } });
}
