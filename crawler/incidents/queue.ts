/**
 * The IncidentQueue, written only here: the store queues the posts a page created or changed in
 * the transaction that stores them (crawler/store page drivers call {@link queueForClustering} /
 * {@link queueForClusteringSync} beside the classifier's queue), and ./cluster.ts removes a post in
 * the transaction that clusters it. A run killed in between leaves the post queued; the next
 * crawl of its account or the start-up catch-up clusters it, once.
 */
import type BetterSqlite3 from "better-sqlite3";
import type { Prisma } from "../../lib/db";
import { prepared, sqlValue } from "../../lib/sqlite-statements";
import type { Tx } from "./index-store";

/** Queue created and changed posts for clustering (a changed post's earlier row is replaced). */
export async function queueForClustering(tx: Prisma.TransactionClient, created: readonly number[], changed: readonly number[], now: Date): Promise<void> {
  if (changed.length > 0) await tx.incidentQueue.deleteMany({ where: { postId: { in: [...changed] } } });
  await tx.incidentQueue.createMany({ data: [...created, ...changed].map((postId) => ({ postId, queuedAt: now })) });
}

/** {@link queueForClustering} on SQLite's own connection, inside the page's synchronous transaction. */
export function queueForClusteringSync(db: BetterSqlite3.Database, created: readonly number[], changed: readonly number[], now: Date): void {
  const remove = prepared(db, `DELETE FROM "IncidentQueue" WHERE "postId" = ?`);
  for (const id of changed) remove.run(id);
  const insert = prepared(db, `INSERT INTO "IncidentQueue" ("postId", "queuedAt") VALUES (?, ?)`);
  const at = sqlValue(now);
  for (const id of [...created, ...changed]) insert.run(id, at);
}

/** Queue stored posts (a rebuild queues them all); an already queued post keeps its row. */
export async function queuePosts(tx: Tx, postIds: readonly number[], now: Date): Promise<void> {
  for (let i = 0; i < postIds.length; i += 1000) {
    const ids = postIds.slice(i, i + 1000);
    const have = new Set((await tx.incidentQueue.findMany({ where: { postId: { in: ids } }, select: { postId: true } })).map((r) => r.postId));
    const fresh = ids.filter((id) => !have.has(id));
    if (fresh.length > 0) await tx.incidentQueue.createMany({ data: fresh.map((postId) => ({ postId, queuedAt: now })) });
  }
}

/**
 * Remove a clustered post from the queue, unless it was queued again after `queuedAt` (stored again
 * with a changed text meanwhile: that text has not been clustered).
 */
export async function dequeueClustered(tx: Tx, postId: number, queuedAt: Date): Promise<void> {
  await tx.incidentQueue.deleteMany({ where: { postId, queuedAt: { lte: queuedAt } } });
}

/** {@link dequeueClustered} on SQLite's own connection, inside the clustering's synchronous transaction. */
export function dequeueClusteredSync(db: BetterSqlite3.Database, postId: number, queuedAt: Date): void {
  prepared(db, `DELETE FROM "IncidentQueue" WHERE "postId" = ? AND "queuedAt" <= ?`).run(postId, sqlValue(queuedAt));
}
