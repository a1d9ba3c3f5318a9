/**
 * Kill-safe classification: posts the store queued in UnclassifiedPost whose classification never
 * finished (the process was killed between the store's commit and the classifier, or the
 * classifier failed) are classified here. The worker calls it for its account at the start of
 * every crawl; the scheduler and `campuswatch worker` call it once for everything at start.
 */
import type { Db } from "../../lib/db";
import { storesOf } from "../../lib/store";
import { CRAWL_STORE, one } from "../store/driver";
import { classifyPosts } from "./topic-service";

/** Options of {@link classifyPending}. */
export interface PendingOptions {
  /** Only posts of this account (a crawl catches up its own account). @default every account */
  accountId?: number;
  /** Stop after this many posts (the rest wait for the next call). @default no limit */
  limit?: number;
  /** Posts per classifier call. @default 200 */
  batch?: number;
  /**
   * The classifier (the worker passes its `classify` service). It must remove the posts it
   * finished from UnclassifiedPost, as {@link classifyPosts} does. @default classifyPosts
   */
  classify?: (db: Db, postIds: number[]) => Promise<unknown>;
  /** Stop between batches (shutdown); what is left stays queued. */
  signal?: AbortSignal;
  /**
   * Only posts queued before this time. The start-up catch-up passes its start: what crawls
   * running beside it queue afterwards, they classify themselves. @default no bound
   */
  queuedBefore?: Date;
}

/**
 * Classify every post still listed in UnclassifiedPost, oldest first, in batches. Returns how many
 * posts were handed to the classifier. A classifier failure is thrown (the rows stay, so the next
 * call tries again); the batches before it are done.
 *
 * The walk goes forward by (queuedAt, postId), so a row the classifier leaves in the queue (it
 * skipped the post) is not read again by the same call, and the call always ends; a post stored
 * again meanwhile is queued with a later time and comes round once more, as it should.
 */
export async function classifyPending(db: Db, options: PendingOptions = {}): Promise<number> {
  // Every crawl starts here, and there is usually nothing left: on SQLite a prepared statement
  // says so without a Prisma query (issue 17). It asks less than the query below (any post of the
  // account, whenever queued), so when it finds none, that query would find none either.
  if (options.accountId !== undefined && !(await anyPending(db, options.accountId))) return 0;
  const batch = Math.max(1, options.batch ?? 200);
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  const classify = options.classify ?? ((d: Db, ids: number[]) => classifyPosts(d, ids));
  const scope = {
    // Every post the account reached: one it changed may have been stored first by another account.
    ...(options.accountId === undefined ? {} : { post: { sources: { some: { accountId: options.accountId } } } }),
    ...(options.queuedBefore ? { queuedAt: { lt: options.queuedBefore } } : {}),
  };
  let after: { queuedAt: Date; postId: number } | null = null;
  let done = 0;
  while (done < limit && !options.signal?.aborted) {
    const rows: { postId: number; queuedAt: Date }[] = await db.unclassifiedPost.findMany({
      where: after ? { ...scope, OR: [{ queuedAt: { gt: after.queuedAt } }, { queuedAt: after.queuedAt, postId: { gt: after.postId } }] } : scope,
      orderBy: [{ queuedAt: "asc" }, { postId: "asc" }],
      take: Math.min(batch, limit - done),
      select: { postId: true, queuedAt: true },
    });
    if (rows.length === 0) break;
    after = rows[rows.length - 1]!;
    await classify(
      db,
      rows.map((r) => r.postId),
    );
    done += rows.length;
  }
  return done;
}

/** Whether any post the account reached is queued for classification. */
function anyPending(db: Db, accountId: number): Promise<boolean> {
  return storesOf(db).run(() => one<boolean>({ op: "anyPending", accountId }), CRAWL_STORE, { transaction: false });
}
