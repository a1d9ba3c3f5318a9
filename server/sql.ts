/**
 * What the dashboard's hand-written SQL needs to run on both SQLite and PostgreSQL.
 *
 * Most of it is one text for both: every identifier is quoted (PostgreSQL folds unquoted names to
 * lower case, and returns a column under the name the SELECT list gives it), booleans are compared
 * with TRUE/FALSE (SQLite stores 0/1, PostgreSQL has a boolean type; SQLite reads TRUE as 1), and
 * dates are bound as JS Dates (UTC on both). The few differences are here.
 */
import { Prisma } from "@/generated/prisma/client";
import type { Dialect } from "../lib/db";

/**
 * A number as a raw query returns it. SQLite gives a number or a bigint; PostgreSQL gives count(*)
 * and sum() of an INTEGER column as bigint, and sum() of a BIGINT column as NUMERIC, which Prisma
 * returns as a Decimal. Read it with {@link toNumber}.
 */
export type SqlNumber = number | bigint | Prisma.Decimal;

/** A {@link SqlNumber} (or the NULL of a sum over no rows) as a plain number; NULL is 0. */
export function toNumber(v: SqlNumber | null | undefined): number {
  return v === null || v === undefined ? 0 : Number(v);
}

/**
 * A boolean as a raw query returns it: 0/1 (number or bigint) from SQLite, true/false from
 * PostgreSQL.
 */
export function toBoolean(v: boolean | number | bigint): boolean {
  return typeof v === "boolean" ? v : Number(v) !== 0;
}

/**
 * SQLite's `INDEXED BY` hint, which makes a list query walk the index in date order instead of a
 * plan that sorts the whole table. PostgreSQL has no hints (and rejects the syntax); its
 * cost-based planner picks the same walk for `ORDER BY … LIMIT`, so there it is nothing.
 */
export function indexedBy(dialect: Dialect, index: string): Prisma.Sql {
  return dialect === "sqlite" ? Prisma.sql`INDEXED BY ${Prisma.raw(`"${index}"`)}` : Prisma.empty;
}

/**
 * The Asia/Shanghai calendar day ("2026-11-30") of a stored instant, in SQL: the same expression
 * the day roll-ups' triggers use (SQLite's `date(…, '+8 hours')`, the PostgreSQL migration's
 * `shanghai_day`), so a series counted straight from a table falls on the same days as one read
 * from a roll-up.
 */
export function shanghaiDaySql(dialect: Dialect, column: Prisma.Sql): Prisma.Sql {
  return dialect === "postgresql" ? Prisma.sql`shanghai_day(${column})` : Prisma.sql`date(${column}, '+8 hours')`;
}
