/**
 * Helpers for the hot writes that run as prepared statements on Prisma's SQLite connection
 * (lib/db.ts rawSqlite): a statement cache per connection, and values written and read exactly
 * as Prisma's SQLite adapter writes and reads them, so rows look the same whoever wrote them.
 */
import type BetterSqlite3 from "better-sqlite3";

type Database = BetterSqlite3.Database;
type Statement = BetterSqlite3.Statement;

/** Prepared statements per connection, by SQL text. */
const cache = new WeakMap<Database, Map<string, Statement>>();

/**
 * The statement for `sql` on `db`, prepared once per connection. Integers come back as numbers
 * (Prisma's adapter makes the connection return BigInts; ids here fit a double).
 */
export function prepared(db: Database, sql: string): Statement {
  let stmts = cache.get(db);
  if (!stmts) cache.set(db, (stmts = new Map<string, Statement>()));
  let s = stmts.get(sql);
  if (!s) {
    s = db.prepare(sql).safeIntegers(false);
    stmts.set(sql, s);
  }
  return s;
}

/** A value as Prisma's SQLite adapter writes it: dates as ISO 8601 text with "+00:00", booleans as 0/1. */
export function sqlValue(v: unknown): unknown {
  if (v instanceof Date) return v.toISOString().replace("Z", "+00:00");
  if (typeof v === "boolean") return v ? 1 : 0;
  return v ?? null;
}

/**
 * A stored date as Prisma reads it: ISO 8601 text, SQLite's CURRENT_TIMESTAMP form (UTC, no zone)
 * or milliseconds since the epoch.
 */
export function dateOf(v: unknown): Date {
  if (typeof v === "number" || typeof v === "bigint") return new Date(Number(v));
  const s = String(v);
  return new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(s) ? s : `${s.replace(" ", "T")}Z`);
}

/**
 * `UPDATE "table" SET "c1" = ?, … WHERE "id" = ?` for these columns: the one way the prepared-statement
 * drivers change a row by id (values: the columns' in order, then the id).
 */
export function updateByIdSql(table: string, columns: readonly string[]): string {
  return `UPDATE "${table}" SET ${columns.map((c) => `"${c}" = ?`).join(", ")} WHERE "id" = ?`;
}

/** Run {@link updateByIdSql} for `data`'s defined keys on `db`; how many rows changed (0: no such row). */
export function updateById(db: Database, table: string, id: number, data: Readonly<Record<string, unknown>>): number {
  const columns = Object.keys(data).filter((c) => data[c] !== undefined);
  return prepared(db, updateByIdSql(table, columns)).run(...columns.map((c) => sqlValue(data[c])), id).changes;
}
