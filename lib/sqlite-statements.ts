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
 * Change rows as the prepared-statement drivers do it, in one place: `UPDATE "table" SET "c" = ?, …
 * WHERE "k" = ? AND …` for `data`'s defined keys and the keys of `where` (each statement prepared
 * once per connection). Returns how many rows changed (0: no such row).
 */
export function updateRows(db: Database, table: string, data: object, where: Readonly<Record<string, unknown>>): number {
  const set = Object.entries(data).filter(([, v]) => v !== undefined);
  const keys = Object.entries(where);
  const sql = `UPDATE "${table}" SET ${set.map(([c]) => `"${c}" = ?`).join(", ")} WHERE ${keys.map(([k]) => `"${k}" = ?`).join(" AND ")}`;
  return prepared(db, sql).run(...[...set, ...keys].map(([, v]) => sqlValue(v))).changes;
}

/** {@link updateRows} of the row with this id. */
export function updateById(db: Database, table: string, id: number, data: object): number {
  return updateRows(db, table, data, { id });
}
