/**
 * The page plan (./page-plan.ts) carried out as prepared statements on Prisma's own SQLite
 * connection, in the plan's synchronous transaction (lib/store). Same rows as ./page-prisma.ts
 * — the same SQL types Prisma writes (dates as ISO 8601 text with "+00:00", booleans as 0/1) — at
 * a fraction of the CPU: Prisma compiles each query (about 1 ms of CPU), a prepared statement here
 * is reused for the life of the connection.
 */
import type BetterSqlite3 from "better-sqlite3";
import { dateOf, prepared, sqlValue, updateById } from "../../lib/sqlite-statements";
import type { ExistingPost, NewPost, PageOp } from "./page-plan";
import { onSiteSql } from "./site";
import { addSourcesSync } from "./sqlite";
// The queue's owner (docs/tables.md); its light file, not the classifier.
import { queueStoredSync } from "../classify/unclassified";
import { queueForClusteringSync } from "../incidents/queue";

type Database = BetterSqlite3.Database;

const NEW_POST_COLUMNS = [
  "accountId",
  "siteKey",
  "platformId",
  "parentId",
  "kind",
  "url",
  "title",
  "author",
  "authorId",
  "publishedAt",
  "incomplete",
  "text",
  "html",
  "sha1",
  "listSha1",
  "replyCount",
  "lastReplyAt",
  "archivePath",
  "ocrText",
  "firstSeenAt",
  "lastSeenAt",
] as const satisfies readonly (keyof NewPost)[];

const INSERT_POST = `INSERT INTO "Post" (${NEW_POST_COLUMNS.map((c) => `"${c}"`).join(", ")}) VALUES (${NEW_POST_COLUMNS.map(() => "?").join(", ")})`;

const EXISTING_COLUMNS = `"id", "accountId", "platformId", "parentId", "sha1", "incomplete", "deletedAt", "version", "title", "text", "html", "ocrText", "firstSeenAt", "author", "authorId"`;

type ExistingRow = Omit<ExistingPost, "incomplete" | "deletedAt" | "firstSeenAt"> & { incomplete: number; deletedAt: unknown; firstSeenAt: unknown };

/** One operation of the plan; see {@link PageOp} for what each returns. */
export function runPageOpSqlite(db: Database, op: PageOp): unknown {
  switch (op.op) {
    case "find": {
      // The site's posts, or the account's own rows (./site.ts onSite).
      const on = onSiteSql(op.accountId, op.siteKey, op.platformIds);
      const rows = prepared(db, `SELECT ${EXISTING_COLUMNS} FROM "Post" WHERE ${on.where}`).all(...on.values) as ExistingRow[];
      return rows.map((r): ExistingPost => ({
        ...r,
        incomplete: r.incomplete !== 0,
        deletedAt: r.deletedAt === null ? null : dateOf(r.deletedAt),
        firstSeenAt: dateOf(r.firstSeenAt),
      }));
    }
    case "addSources":
      return addSourcesSync(db, op.accountId, op.postIds, op.now);
    case "insert": {
      const insert = prepared(db, INSERT_POST);
      return op.rows.map((row) => Number(insert.run(...NEW_POST_COLUMNS.map((c) => sqlValue(row[c]))).lastInsertRowid));
    }
    case "update":
      updateById(db, "Post", op.id, op.change);
      return undefined;
    case "version": {
      const r = op.row;
      prepared(
        db,
        `INSERT INTO "PostVersion" ("postId", "version", "title", "text", "html", "sha1", "seenAt", "replacedAt") VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(r.postId, r.version, r.title, r.text, r.html, r.sha1, sqlValue(r.seenAt), sqlValue(r.replacedAt));
      return undefined;
    }
    case "threadLastReply":
      prepared(
        db,
        `UPDATE "Post" SET "lastReplyAt" = ? WHERE "platformId" = ? AND EXISTS (SELECT 1 FROM "PostSource" s WHERE s."postId" = "Post"."id" AND s."accountId" = ?)`,
      ).run(sqlValue(op.lastReplyAt), op.platformId, op.accountId);
      return undefined;
    case "queue":
      queueStoredSync(db, op.created, op.changed, op.now);
      queueForClusteringSync(db, op.created, op.changed, op.now);
      return undefined;
  }
}
