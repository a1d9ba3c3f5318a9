/**
 * Writing one batch of verdicts: the Classification rows replaced, each post's open Flag per topic
 * opened, updated or closed, and the judged posts taken off the UnclassifiedPost queue, in one
 * transaction. The decisions are made once, in {@link planBatch}; its store ({@link VERDICT_STORE})
 * carries them out through Prisma (PostgreSQL) or as prepared statements on Prisma's own SQLite
 * connection, which spares Prisma's per-query compile on the crawler's hot path (issue 17);
 * lib/store picks which.
 */
import type BetterSqlite3 from "better-sqlite3";
import { dialectOf, type Db } from "../../lib/db";
import { storesOf, type PlanDriver, type Tx } from "../../lib/store";
import { prepared, sqlValue } from "../../lib/sqlite-statements";
import { writeSentimentsPrisma, writeSentimentsSqlite, type SentimentRow } from "../store/sentiment";
import { dequeueJudged, type JudgedPost } from "./unclassified";
import type { PostVerdict } from "./verdict";

/** One post's verdict against one topic. */
export interface VerdictRow {
  postId: number;
  topicId: number;
  verdict: PostVerdict;
  modelVersion: number;
}

/** What a batch changed in the flags. */
export interface BatchFlags {
  opened: number;
  updated: number;
  closed: number;
}

interface ExistingFlag {
  id: number;
  postId: number;
  topicId: number;
  status: string;
  reasons: string;
  score: number;
}

interface ClassificationRow {
  postId: number;
  topicId: number;
  score: number;
  cosine: number;
  label: string;
  relevant: boolean;
  topTerms: string;
  sensitiveHits: string;
  modelVersion: number;
}

type NewFlag = { postId: number; topicId: number; reasons: string; score: number };

/** A database operation of a batch, and (in the comment) what the driver passes back for it. */
type BatchOp =
  /** → nothing: PostgreSQL locks the posts' rows (see {@link runPrisma}); SQLite has one writer. */
  | { op: "lock"; postIds: number[] }
  /** → nothing: the posts' classifications for these topics replaced by `rows`. */
  | { op: "replace"; postIds: number[]; topicIds: number[]; rows: ClassificationRow[] }
  /** → ExistingFlag[]: the posts' flags for these topics. */
  | { op: "flags"; postIds: number[]; topicIds: number[] }
  /** → nothing: an open flag's reasons and score (a flag reviewed meanwhile is left alone). */
  | { op: "updateFlag"; id: number; reasons: string; score: number }
  /** → nothing. */
  | { op: "createFlags"; rows: NewFlag[] }
  /** → nothing: these flags removed, if still open. */
  | { op: "closeFlags"; ids: number[] }
  /** → nothing: the posts' sentiment, written by the Post table's owner (crawler/store/sentiment.ts). */
  | { op: "sentiment"; rows: SentimentRow[] }
  /** → nothing: ./unclassified.ts dequeueJudged. */
  | { op: "dequeue"; posts: JudgedPost[] };

type BatchPlan = Generator<BatchOp, BatchFlags, unknown>;

/** The operations of one batch, in order. `dequeue`: the posts were judged against every enabled topic. */
function* planBatch(
  posts: readonly JudgedPost[],
  topicIds: number[],
  rows: readonly VerdictRow[],
  dequeue: boolean,
  sentiments: readonly SentimentRow[],
): BatchPlan {
  const presentIds = posts.map((p) => p.id);
  const flags: BatchFlags = { opened: 0, updated: 0, closed: 0 };
  yield { op: "lock", postIds: presentIds };
  // Replace rather than upsert row by row: two statements per batch instead of one per pair.
  yield {
    op: "replace",
    postIds: presentIds,
    topicIds,
    rows: rows.map((r) => ({
      postId: r.postId,
      topicId: r.topicId,
      score: r.verdict.score,
      cosine: r.verdict.cosine,
      label: r.verdict.label,
      relevant: r.verdict.relevant,
      topTerms: JSON.stringify(r.verdict.topTerms),
      sensitiveHits: JSON.stringify([...new Set(r.verdict.sensitiveHits.map((h) => h.word))]),
      modelVersion: r.modelVersion,
    })),
  };
  const existing = (yield { op: "flags", postIds: presentIds, topicIds }) as ExistingFlag[];
  const byKey = new Map(existing.map((f) => [`${f.postId}:${f.topicId}`, f]));
  const create: NewFlag[] = [];
  const close: number[] = [];
  for (const r of rows) {
    const flag = byKey.get(`${r.postId}:${r.topicId}`);
    const reasons = JSON.stringify(r.verdict.reasons);
    const score = r.verdict.score > 0 ? r.verdict.score : r.verdict.cosine;
    if (r.verdict.reasons.length > 0) {
      if (!flag) create.push({ postId: r.postId, topicId: r.topicId, reasons, score });
      else if (flag.status === "open" && (flag.reasons !== reasons || flag.score !== score)) {
        // Guarded by status so a review that landed meanwhile is not overwritten.
        yield { op: "updateFlag", id: flag.id, reasons, score };
        flags.updated++;
      }
    } else if (flag && flag.status === "open") {
      close.push(flag.id);
    }
  }
  if (create.length > 0) yield { op: "createFlags", rows: create };
  if (close.length > 0) yield { op: "closeFlags", ids: close };
  if (sentiments.length > 0) yield { op: "sentiment", rows: [...sentiments] };
  if (dequeue) yield { op: "dequeue", posts: [...posts] };
  flags.opened = create.length;
  flags.closed = close.length;
  return flags;
}

/**
 * Write one batch of verdicts in one transaction (see the module comment).
 * @param dequeue the posts were judged against every enabled topic: take them off the queue
 * @param sentiments the posts' sentiment (./sentiment.ts), written in the same transaction
 */
export async function writeBatch(
  db: Db,
  posts: readonly JudgedPost[],
  topicIds: number[],
  rows: readonly VerdictRow[],
  dequeue: boolean,
  sentiments: readonly SentimentRow[] = [],
): Promise<BatchFlags> {
  return storesOf(db).run(() => planBatch(posts, topicIds, rows, dequeue, sentiments), VERDICT_STORE, { timeout: 120_000, maxWait: 30_000 });
}

/** The verdict store: a batch's operations through Prisma and on SQLite. */
const VERDICT_STORE: PlanDriver<BatchOp> = { sqlite: runSqlite, prisma: runPrisma };

/**
 * The Prisma implementation. Its "lock" on PostgreSQL: the rows of the posts a classifying
 * transaction is about to judge, locked in id order. Why: two classifiers can meet on one post
 * (the start-up catch-up of ./pending.ts beside a crawl, several processes starting at once).
 * Without the lock both delete the post's old Classification rows and both insert new ones, and
 * the second fails on the unique key; with it the second waits, then replaces what the first
 * wrote. SQLite runs one write transaction at a time, so it needs nothing.
 */
async function runPrisma(tx: Tx, op: BatchOp, db: Db): Promise<unknown> {
  switch (op.op) {
    case "lock":
      if (dialectOf(db) === "postgresql" && op.postIds.length > 0)
        await tx.$queryRaw`SELECT "id" FROM "Post" WHERE "id" = ANY(${[...op.postIds]}::int[]) ORDER BY "id" FOR UPDATE`;
      return undefined;
    case "replace":
      await tx.classification.deleteMany({ where: { postId: { in: op.postIds }, topicId: { in: op.topicIds } } });
      await tx.classification.createMany({ data: op.rows });
      return undefined;
    case "flags":
      return tx.flag.findMany({
        where: { postId: { in: op.postIds }, topicId: { in: op.topicIds } },
        select: { id: true, postId: true, topicId: true, status: true, reasons: true, score: true },
      });
    case "updateFlag":
      await tx.flag.updateMany({ where: { id: op.id, status: "open" }, data: { reasons: op.reasons, score: op.score } });
      return undefined;
    case "createFlags":
      await tx.flag.createMany({ data: op.rows });
      return undefined;
    case "closeFlags":
      await tx.flag.deleteMany({ where: { id: { in: op.ids }, status: "open" } });
      return undefined;
    case "sentiment":
      return writeSentimentsPrisma(tx, op.rows);
    case "dequeue":
      return dequeueJudged(tx, op.posts);
  }
}

type Database = BetterSqlite3.Database;

/** The SQLite implementation: the same operations as statements prepared once (each pair or row by its unique key). */
function runSqlite(db: Database, op: BatchOp): unknown {
  switch (op.op) {
    case "lock":
      return undefined;
    case "replace": {
      const remove = prepared(db, `DELETE FROM "Classification" WHERE "postId" = ? AND "topicId" = ?`);
      for (const postId of op.postIds) for (const topicId of op.topicIds) remove.run(postId, topicId);
      const insert = prepared(
        db,
        `INSERT INTO "Classification" ("postId", "topicId", "score", "cosine", "label", "relevant", "topTerms", "sensitiveHits", "modelVersion", "createdAt") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      const now = sqlValue(new Date());
      for (const r of op.rows)
        insert.run(r.postId, r.topicId, r.score, r.cosine, r.label, sqlValue(r.relevant), r.topTerms, r.sensitiveHits, r.modelVersion, now);
      return undefined;
    }
    case "flags": {
      const find = prepared(db, `SELECT "id", "postId", "topicId", "status", "reasons", "score" FROM "Flag" WHERE "postId" = ? AND "topicId" = ?`);
      return op.postIds.flatMap((postId) => op.topicIds.flatMap((topicId) => find.all(postId, topicId) as ExistingFlag[]));
    }
    case "updateFlag":
      prepared(db, `UPDATE "Flag" SET "reasons" = ?, "score" = ? WHERE "id" = ? AND "status" = 'open'`).run(op.reasons, op.score, op.id);
      return undefined;
    case "createFlags": {
      const insert = prepared(db, `INSERT INTO "Flag" ("postId", "topicId", "reasons", "score", "status", "createdAt") VALUES (?, ?, ?, ?, 'open', ?)`);
      const now = sqlValue(new Date());
      for (const f of op.rows) insert.run(f.postId, f.topicId, f.reasons, f.score, now);
      return undefined;
    }
    case "closeFlags": {
      const remove = prepared(db, `DELETE FROM "Flag" WHERE "id" = ? AND "status" = 'open'`);
      for (const id of op.ids) remove.run(id);
      return undefined;
    }
    case "sentiment":
      writeSentimentsSqlite(db, op.rows);
      return undefined;
    case "dequeue": {
      // ./unclassified.ts dequeueJudged: a post stored again since it was read stays queued.
      const remove = prepared(db, `DELETE FROM "UnclassifiedPost" WHERE "postId" = ? AND "queuedAt" <= ?`);
      for (const p of op.posts) remove.run(p.id, sqlValue(p.lastSeenAt));
      return undefined;
    }
  }
}
