/**
 * Discovery rows as others move them: a run paused or queued by the dashboard, its page limit
 * raised by the CLI, failed by the jobs layer when its job died; a candidate adopted as an account.
 * The loop itself (./create.ts, ./crawl.ts, ./revisit.ts, ./persist.ts) writes the rest. Kept here
 * so that every write of DiscoveryRun and CandidateAccount is in crawler/discover (docs/tables.md),
 * each conditional on the run's status where a race matters.
 */
import type { Db } from "../../lib/db";

/**
 * Ask a running or queued run to pause (the loop sees the status between pages, writes its
 * frontier and stops). Returns false when the run was neither.
 */
export async function pauseDiscoveryRunRow(db: Db, runId: number, note: string): Promise<boolean> {
  const r = await db.discoveryRun.updateMany({ where: { id: runId, status: { in: ["running", "queued"] } }, data: { status: "paused", note } });
  return r.count > 0;
}

/**
 * Mark a paused, failed or finished run "queued" (waiting for a worker). Returns false when it was
 * in none of those states (another request queued or started it meanwhile).
 */
export async function queueDiscoveryRunRow(db: Db, runId: number, note: string): Promise<boolean> {
  const r = await db.discoveryRun.updateMany({ where: { id: runId, status: { in: ["paused", "failed", "done"] } }, data: { status: "queued", note } });
  return r.count > 0;
}

/** Mark a running or queued run failed with the reason (its job died); a run in any other state is left alone. */
export async function failDiscoveryRunRow(db: Db, runId: number, note: string): Promise<void> {
  await db.discoveryRun.updateMany({ where: { id: runId, status: { in: ["running", "queued"] } }, data: { status: "failed", note: note.slice(0, 500) } });
}

/** Set a run's page limit (throws when the run does not exist, as Prisma's update does). */
export async function setDiscoveryRunMaxPages(db: Db, runId: number, maxPages: number): Promise<void> {
  await db.discoveryRun.update({ where: { id: runId }, data: { maxPages }, select: { id: true } });
}

/**
 * Remember the monitored account a candidate was adopted as (server/discovery.ts `adoptCandidate`
 * registers the account first). Throws when the candidate does not exist, as Prisma's update does.
 */
export async function markCandidateAdopted(db: Db, candidateId: number, accountId: number): Promise<void> {
  await db.candidateAccount.update({ where: { id: candidateId }, data: { adoptedAccountId: accountId }, select: { id: true } });
}
