/**
 * The page plan (./page-plan.ts) carried out as prepared statements on Prisma's own SQLite
 * connection, in one synchronous transaction (lib/db.ts rawSqlite). Same rows as ./page-prisma.ts
 * — the same SQL types Prisma writes (dates as ISO 8601 text with "+00:00", booleans as 0/1) — at
 * a fraction of the CPU: Prisma compiles each query (about 1 ms of CPU), a prepared statement here
 * is reused for the life of the connection.
 */
import type BetterSqlite3 from "better-sqlite3";
import type { RawSqlite } from "../../lib/db";
import { runPlan } from "../../lib/plan";
import { dateOf, prepared, sqlValue } from "../../lib/sqlite-statements";
import type { ExistingPost, NewPost, PageOp, PagePlan, PostChange, StoreOutcome } from "./page-plan";
import { INSERT_SOURCE_SQL, onSiteSql } from "./site";
// The queue's owner (docs/tables.md); its light file, not the classifier.
import { queueStoredSync } from "../classify/unclassified";

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

/** Run a page's plan in one synchronous SQLite transaction. */
export function storeWithSqlite(raw: RawSqlite, plan: () => PagePlan): Promise<StoreOutcome> {
  return raw.transaction((db) => runPlan(plan(), (op) => runOp(db, op)));
}

/** One operation of the plan; see {@link PageOp} for what each returns. */
function runOp(db: Database, op: PageOp): unknown {
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
    case "addSources": {
      const insert = prepared(db, INSERT_SOURCE_SQL);
      const now = sqlValue(op.now);
      return [...new Set(op.postIds)].filter((postId) => insert.run(postId, op.accountId, now).changes > 0);
    }
    case "insert": {
      const insert = prepared(db, INSERT_POST);
      return op.rows.map((row) => Number(insert.run(...NEW_POST_COLUMNS.map((c) => sqlValue(row[c]))).lastInsertRowid));
    }
    case "update": {
      const keys = Object.keys(op.change) as (keyof PostChange)[];
      const sql = `UPDATE "Post" SET ${keys.map((k) => `"${k}" = ?`).join(", ")} WHERE "id" = ?`;
      prepared(db, sql).run(...keys.map((k) => sqlValue(op.change[k])), op.id);
      return undefined;
    }
    case "version": {
      const r = op.row;
      prepared(
        db,
        `INSERT INTO "PostVersion" ("postId", "version", "title", "text", "html", "sha1", "seenAt", "replacedAt") VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(r.postId, r.version, r.title, r.text, r.html, r.sha1, sqlValue(r.seenAt), sqlValue(r.replacedAt));
      return undefined;
    }
    case "threadLastReply":
      setThreadLastReplySync(db, op.accountId, op.platformId, op.lastReplyAt);
      return undefined;
    case "queue":
      queueStoredSync(db, op.created, op.changed, op.now);
      return undefined;
  }
}

/** ./page-prisma.ts setThreadLastReply, as one statement. */
export function setThreadLastReplySync(db: Database, accountId: number, platformId: string, lastReplyAt: Date | null): void {
  prepared(
    db,
    `UPDATE "Post" SET "lastReplyAt" = ? WHERE "platformId" = ? AND EXISTS (SELECT 1 FROM "PostSource" s WHERE s."postId" = "Post"."id" AND s."accountId" = ?)`,
  ).run(sqlValue(lastReplyAt), platformId, accountId);
}
