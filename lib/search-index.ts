/**
 * SQLite's full-text index is filled in bulk (migration 20261201100000_post_search_pending):
 * inserting or editing a post only queues its id in "post_fts_pending", and
 * {@link flushSearchIndex} indexes the whole queue in one statement.
 *
 * Why: the trigram FTS5 index writes a segment at every commit and merges segments as they pile
 * up, so indexing each post in its page's transaction cost about half of storing it (issue 17);
 * one INSERT … SELECT over a few thousand queued posts costs a few milliseconds.
 *
 * Who flushes: the crawler at the end of each account's run, and every search before it reads the
 * index (server/search.ts), so searches see every stored post. PostgreSQL keeps its own index
 * and has no queue: there it does nothing.
 *
 * The index's store ({@link SEARCH_INDEX_STORE}) has the two implementations of lib/store, which
 * picks one per client.
 */
import type BetterSqlite3 from "better-sqlite3";
import { dialectOf, type Db } from "./db";
import { prepared } from "./sqlite-statements";
import { storesOf, type PlanDriver } from "./store";

/** The indexed body of a post: the same text the post_search migration indexed. */
const INDEX_PENDING = `INSERT INTO "post_fts"(rowid, body)
  SELECT p."id", p."title" || char(10) || p."text" || char(10) || coalesce(p."ocrText", '') || char(10)
  FROM "post_fts_pending" q JOIN "Post" p ON p."id" = q."postId"`;
const CLEAR_PENDING = `DELETE FROM "post_fts_pending"`;
const ANY_PENDING = `SELECT EXISTS (SELECT 1 FROM "post_fts_pending") AS "any"`;

/**
 * Index every queued post, inside the caller's transaction on a raw SQLite connection.
 * @returns how many posts were indexed.
 */
export function flushSearchIndexSync(db: BetterSqlite3.Database): number {
  if (!(prepared(db, ANY_PENDING).get() as { any: number }).any) return 0;
  const n = prepared(db, INDEX_PENDING).run().changes;
  prepared(db, CLEAR_PENDING).run();
  return n;
}

/**
 * Index every post queued for SQLite's full-text index, in one transaction. Cheap when nothing is
 * queued (one read); nothing to do on PostgreSQL.
 * @returns how many posts were indexed.
 */
export async function flushSearchIndex(db: Db): Promise<number> {
  return storesOf(db).run(
    function* () {
      return (yield "flush") as number;
    },
    SEARCH_INDEX_STORE,
    { transaction: false },
  );
}

/**
 * The index's store, one operation ("flush" → how many posts were indexed): on SQLite's own
 * connection {@link flushSearchIndexSync}; through Prisma the same statements on a SQLite
 * database (a client not made by createDb), nothing on PostgreSQL, which indexes as it writes.
 */
const SEARCH_INDEX_STORE: PlanDriver<"flush"> = {
  sqlite: (sql) => flushSearchIndexSync(sql),
  prisma: async (_tx, _op, db) => {
    if (dialectOf(db) !== "sqlite") return 0;
    const pending = await db.$queryRawUnsafe<{ any: number | bigint }[]>(ANY_PENDING);
    if (!Number(pending[0]?.any)) return 0;
    const [n] = await db.$transaction([db.$executeRawUnsafe(INDEX_PENDING), db.$executeRawUnsafe(CLEAR_PENDING)]);
    return n;
  },
};
