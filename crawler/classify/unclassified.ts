/**
 * The UnclassifiedPost queue, written only here (docs/tables.md): queueing stored posts, which the
 * store (crawler/store/index.ts) does through {@link queueStored} / {@link queueStoredSync} in the
 * transaction that stores them, and removing posts once their classifications and flags are
 * written; ./pending.ts classifies what a killed or failed run left behind.
 */
import type BetterSqlite3 from "better-sqlite3";
import type { Db, Prisma } from "../../lib/db";
import { prepared, sqlValue } from "../../lib/sqlite-statements";

/**
 * Queue posts a page created or changed, with queuedAt = the store's `now` (the lastSeenAt it
 * wrote): a changed post's earlier row is replaced, so its new text waits to be judged.
 */
export async function queueStored(tx: Prisma.TransactionClient, created: readonly number[], changed: readonly number[], now: Date): Promise<void> {
  if (changed.length > 0) await tx.unclassifiedPost.deleteMany({ where: { postId: { in: [...changed] } } });
  await tx.unclassifiedPost.createMany({ data: [...created, ...changed].map((postId) => ({ postId, queuedAt: now })) });
}

/** {@link queueStored} on SQLite's own connection, inside the page's synchronous transaction. */
export function queueStoredSync(db: BetterSqlite3.Database, created: readonly number[], changed: readonly number[], now: Date): void {
  const remove = prepared(db, `DELETE FROM "UnclassifiedPost" WHERE "postId" = ?`);
  for (const id of changed) remove.run(id);
  const insert = prepared(db, `INSERT INTO "UnclassifiedPost" ("postId", "queuedAt") VALUES (?, ?)`);
  const at = sqlValue(now);
  for (const id of [...created, ...changed]) insert.run(id, at);
}

/** A post as the classifier read it: its id and the `lastSeenAt` read with its text. */
export interface JudgedPost {
  id: number;
  lastSeenAt: Date;
}

/** Distinct lastSeenAt values per DELETE: keeps the OR well below SQLite's expression depth limit. */
const GROUPS_PER_DELETE = 50;

/**
 * Remove judged posts from the queue, in the transaction that writes their classifications. The
 * store queues a post with queuedAt = its `now`, which is also the lastSeenAt it writes; a row is
 * removed only when queuedAt ≤ the lastSeenAt read together with the judged text. A post stored
 * again as changed after that read was queued with a later time and stays queued: its new text
 * has not been judged. (This relies on the stores of one post happening in time order, which the
 * queues guarantee: one crawl per account at a time.) It costs no read of the queue: posts of one
 * stored page share their lastSeenAt, so the condition is one `postId IN (…)` per distinct time.
 */
export async function dequeueJudged(tx: Prisma.TransactionClient | Db, posts: readonly JudgedPost[]): Promise<void> {
  const byTime = new Map<number, number[]>();
  for (const p of posts) {
    const list = byTime.get(p.lastSeenAt.getTime());
    if (list) list.push(p.id);
    else byTime.set(p.lastSeenAt.getTime(), [p.id]);
  }
  const groups = [...byTime].map(([t, postIds]) => ({ postId: { in: postIds }, queuedAt: { lte: new Date(t) } }));
  for (let i = 0; i < groups.length; i += GROUPS_PER_DELETE) {
    await tx.unclassifiedPost.deleteMany({ where: { OR: groups.slice(i, i + GROUPS_PER_DELETE) } });
  }
}
