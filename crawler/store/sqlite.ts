/**
 * The SQLite implementation of the crawl's small aggregates (./ops.ts): each operation as prepared
 * statements on Prisma's own connection, inside the plan's transaction (lib/store). Values are
 * written and read as Prisma's SQLite adapter writes and reads them (lib/sqlite-statements.ts),
 * so rows look the same whichever implementation wrote them.
 */
import type BetterSqlite3 from "better-sqlite3";
import { dateOf, prepared, sqlValue, updateById, updateRows } from "../../lib/sqlite-statements";
import type { Account, CrawlOp, KnownRow, StoredMark, StoredTopicRow } from "./ops";
import { INSERT_SOURCE_SQL, onSiteSql } from "./site";

type Database = BetterSqlite3.Database;

/** Account columns Prisma reads as booleans (stored as 0/1) and as dates (stored as text). */
const ACCOUNT_BOOLEANS = ["enabled", "ocr", "adaptive"] as const;
const ACCOUNT_DATES = ["lastRunAt", "nextRunAt", "crawlRequestedAt", "cookiesSetAt", "robotsPolicySetAt", "createdAt", "updatedAt"] as const;

const KNOWN_COLUMNS = `"id", "accountId", "platformId", "sha1", "listSha1", "replyCount", "lastReplyAt", "publishedAt", "incomplete", "deletedAt"`;

const TOPIC_COLUMNS = ["id", "name", "keywords", "sensitiveWords", "relevantLabels", "nbThreshold", "cosineThreshold", "modelVersion", "enabled", "userDict"];
const TOPIC_ROWS_SQL = `SELECT ${TOPIC_COLUMNS.map((c) => `"${c}"`).join(", ")} FROM "Topic" ORDER BY "id"`;

const optionalDate = (v: unknown): Date | null => (v === null || v === undefined ? null : dateOf(v));

/** Record `accountId` as a source of these posts (those it is not one of yet); the ids it newly became a source of. */
export function addSourcesSync(db: Database, accountId: number, postIds: readonly number[], now: Date): number[] {
  const insert = prepared(db, INSERT_SOURCE_SQL);
  const at = sqlValue(now);
  return [...new Set(postIds)].filter((postId) => insert.run(postId, accountId, at).changes > 0);
}

/** One operation; see {@link CrawlOp} for what each returns. */
export function runCrawlOpSqlite(db: Database, op: CrawlOp): unknown {
  switch (op.op) {
    case "accounts": {
      const where = "id" in op.which ? `"id" = ?` : `"enabled" = 1`;
      const rows = prepared(db, `SELECT * FROM "Account" WHERE ${where} ORDER BY "id"`).all(...("id" in op.which ? [op.which.id] : [])) as Record<
        string,
        unknown
      >[];
      return rows.map((r) => {
        for (const c of ACCOUNT_BOOLEANS) r[c] = r[c] !== 0;
        for (const c of ACCOUNT_DATES) r[c] = optionalDate(r[c]);
        return r as unknown as Account;
      });
    }
    case "accountAccess":
      return (prepared(db, `SELECT "${op.column}" AS "v" FROM "Account" WHERE "id" = ?`).get(op.id) as { v: string | null } | undefined)?.v;
    case "updateAccount":
      return updateById(db, "Account", op.id, op.data);
    case "closeRuns":
      return prepared(db, `UPDATE "CrawlRun" SET "status" = 'failed', "finishedAt" = ?, "note" = ? WHERE "accountId" = ? AND "status" = 'running'`).run(
        sqlValue(op.finishedAt),
        op.note,
        op.accountId,
      ).changes;
    case "insertRun": {
      const r = op.row;
      return Number(
        prepared(
          db,
          `INSERT INTO "CrawlRun" ("accountId", "trigger", "status", "startedAt", "robotsPolicy", "robotsPolicySetBy", "robotsPolicySetAt") VALUES (?, ?, ?, ?, ?, ?, ?)`,
        ).run(r.accountId, r.trigger, r.status, sqlValue(r.startedAt), r.robotsPolicy, sqlValue(r.robotsPolicySetBy), sqlValue(r.robotsPolicySetAt))
          .lastInsertRowid,
      );
    }
    case "updateRun":
      return updateById(db, "CrawlRun", op.id, op.data);
    case "marks":
      return markRows(prepared(db, `SELECT "scope", "newestAt", "resume" FROM "HistoryMark" WHERE "accountId" = ?`).all(op.accountId));
    case "marksOf": {
      const find = prepared(db, `SELECT "scope", "newestAt", "resume" FROM "HistoryMark" WHERE "accountId" = ? AND "scope" = ?`);
      return markRows(op.scopes.flatMap((scope) => find.all(op.accountId, scope)));
    }
    case "insertMarks": {
      const insert = prepared(db, `INSERT INTO "HistoryMark" ("accountId", "scope", "newestAt", "resume", "updatedAt") VALUES (?, ?, ?, ?, ?)`);
      const at = sqlValue(op.at);
      for (const m of op.marks) insert.run(op.accountId, m.scope, sqlValue(m.newestAt), m.resume, at);
      return undefined;
    }
    case "updateMark":
      updateRows(db, "HistoryMark", { ...op.change, updatedAt: op.at }, { accountId: op.accountId, scope: op.scope });
      return undefined;
    case "knownRows": {
      // The site's posts, or the account's own rows (./site.ts onSite).
      const on = onSiteSql(op.accountId, op.siteKey, op.platformIds);
      const rows = prepared(db, `SELECT ${KNOWN_COLUMNS} FROM "Post" WHERE ${on.where}`).all(...on.values) as Record<string, unknown>[];
      return rows.map((r): KnownRow => ({
        id: r.id as number,
        accountId: r.accountId as number,
        platformId: r.platformId as string,
        sha1: r.sha1 as string,
        listSha1: r.listSha1 as string | null,
        replyCount: r.replyCount as number | null,
        lastReplyAt: optionalDate(r.lastReplyAt),
        publishedAt: dateOf(r.publishedAt),
        incomplete: r.incomplete !== 0,
        deletedAt: optionalDate(r.deletedAt),
      }));
    }
    case "addSources":
      return addSourcesSync(db, op.accountId, op.postIds, op.now);
    case "topicRows":
      return (prepared(db, TOPIC_ROWS_SQL).all() as (Omit<StoredTopicRow, "enabled"> & { enabled: number })[]).map((r) => ({ ...r, enabled: r.enabled !== 0 }));
    case "anyPending":
      return (
        prepared(
          db,
          `SELECT 1 FROM "UnclassifiedPost" u WHERE EXISTS (SELECT 1 FROM "PostSource" s WHERE s."postId" = u."postId" AND s."accountId" = ?) LIMIT 1`,
        ).get(op.accountId) !== undefined
      );
  }
}

function markRows(rows: unknown[]): StoredMark[] {
  return (rows as { scope: string; newestAt: unknown; resume: string | null }[]).map((r) => ({
    scope: r.scope,
    newestAt: dateOf(r.newestAt),
    resume: r.resume,
  }));
}
