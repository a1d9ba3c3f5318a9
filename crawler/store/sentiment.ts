/**
 * Post.sentiment and Post.sentimentScore: the classifier decides them (crawler/classify/sentiment.ts),
 * the Post table's owner writes them. The classifier's verdict batch (crawler/classify/write-batch.ts)
 * calls these inside its transaction, so a post's sentiment changes with its classifications.
 */
import type BetterSqlite3 from "better-sqlite3";
import type { Tx } from "../../lib/store";
import { prepared } from "../../lib/sqlite-statements";

/** One post's sentiment as the classifier judged it. */
export interface SentimentRow {
  postId: number;
  sentiment: "negative" | "neutral" | "positive";
  /** P(negative). */
  score: number;
}

/** Write the rows through Prisma (PostgreSQL, or a SQLite client without its raw connection). */
export async function writeSentimentsPrisma(tx: Tx, rows: readonly SentimentRow[]): Promise<void> {
  for (const r of rows) await tx.post.updateMany({ where: { id: r.postId }, data: { sentiment: r.sentiment, sentimentScore: r.score } });
}

/** Write the rows with one statement prepared once per connection (SQLite). */
export function writeSentimentsSqlite(db: BetterSqlite3.Database, rows: readonly SentimentRow[]): void {
  const update = prepared(db, `UPDATE "Post" SET "sentiment" = ?, "sentimentScore" = ? WHERE "id" = ?`);
  for (const r of rows) update.run(r.sentiment, r.score, r.postId);
}
