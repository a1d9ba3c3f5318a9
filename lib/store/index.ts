/**
 * The data-access seam: the one place that knows which backend a client writes through.
 *
 * Every aggregate the crawl touches (runs, accounts and their access settings, history marks,
 * known posts, pages, topic rows, the classifier's queue and verdicts, the search index) is written
 * the same way: its rules are a plan (lib/plan.ts) — a generator that decides and yields database
 * operations — and its store is a {@link PlanDriver}, a SQLite implementation (prepared statements
 * on Prisma's own connection, lib/db.ts rawSqlite, in one synchronous transaction) and a Prisma
 * implementation (PostgreSQL, or a SQLite client without that connection) that only carry the
 * operations out. {@link storesOf} picks the backend once per client; no other module asks.
 *
 * Why two implementations at all: on SQLite, Prisma compiles every query (about 1.5 ms of the
 * crawl's busy thread each), which was half a crawl's CPU (issue 17); a prepared statement is
 * compiled once per connection.
 */
import { hasRawSqlite, type Db } from "../db";
import { sqliteStores } from "./sqlite";
import { prismaStores } from "./prisma";
import type { Stores } from "./types";

export type { Backend, PlanDriver, RunOptions, Stores, Tx } from "./types";

const chosen = new WeakMap<Db, Stores>();

/**
 * The stores of a client, chosen once for it: SQLite's prepared statements when the client was
 * made by lib/db.ts createDb on a SQLite file (it carries its adapter), Prisma otherwise.
 */
export function storesOf(db: Db): Stores {
  let stores = chosen.get(db);
  if (!stores) {
    stores = hasRawSqlite(db) ? sqliteStores(db) : prismaStores(db);
    chosen.set(db, stores);
  }
  return stores;
}

export { sqliteStores, prismaStores };
