/**
 * The UnclassifiedPost queue as the classifier sees it: removing posts once their classifications
 * and flags are written. The store (crawler/store/index.ts) adds the rows in the transaction that stores
 * the posts; ./pending.ts classifies what a killed or failed run left behind.
 */
import { dialectOf, type Db, type Prisma } from "../../lib/db";

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

/**
 * PostgreSQL: lock the rows of the posts a classifying transaction is about to judge, in id order.
 * Why: two classifiers can now meet on one post (the start-up catch-up of ./pending.ts beside a
 * crawl, several processes starting at once). Without the lock both delete the post's old
 * Classification rows and both insert new ones, and the second fails on the unique key; with it
 * the second waits, then replaces what the first wrote. SQLite runs one write transaction at a
 * time, so it needs nothing.
 */
export async function lockPosts(db: Db, tx: Prisma.TransactionClient, postIds: readonly number[]): Promise<void> {
  if (dialectOf(db) !== "postgresql" || postIds.length === 0) return;
  await tx.$queryRaw`SELECT "id" FROM "Post" WHERE "id" = ANY(${[...postIds]}::int[]) ORDER BY "id" FOR UPDATE`;
}
