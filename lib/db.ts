/**
 * The one Prisma client of the process. Both the dashboard and the crawler import `db` from here.
 * DATABASE_URL picks the database: `file:` is SQLite (better-sqlite3 driver adapter), and
 * `postgresql://` is PostgreSQL (pg driver adapter, with the client generated from the PostgreSQL
 * copy of the schema).
 */
import fs from "node:fs";
import path from "node:path";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/generated/prisma/client";
import { PrismaClient as PgPrismaClient } from "@/generated/prisma-pg/client";
import { databaseKind, databaseUrl, scaleOutConfig, sqlitePath } from "./config";

export type { Prisma } from "@/generated/prisma/client";
export type Db = PrismaClient;

/** Milliseconds a writer waits for a lock before SQLite gives up (crawler and dashboard share the file). */
const BUSY_TIMEOUT_MS = 10_000;

/** Which SQL dialect a client speaks, for the few hand-written queries that differ. */
export function dialectOf(client: PrismaClient): Dialect {
  return (client as unknown as { cwDialect?: Dialect }).cwDialect ?? "sqlite";
}

/** The two databases CampusWatch runs on. */
export type Dialect = "sqlite" | "postgresql";

/** Remember which database a client talks to (read back by {@link dialectOf}, through the lazy proxy too). */
function tagDialect(client: PrismaClient, dialect: Dialect): PrismaClient {
  Object.defineProperty(client, "cwDialect", { value: dialect, enumerable: false });
  return client;
}

/**
 * Create a Prisma client for a database URL. Most code wants the shared {@link db}; tests and the
 * CLI use this for a database of their own.
 */
export function createDb(url = databaseUrl()): PrismaClient {
  if (databaseKind(url) === "postgresql") {
    // The PostgreSQL client is generated from the same schema (scripts/gen-pg-schema.mjs), so its
    // model API is the SQLite client's; only the class differs, hence the cast.
    const adapter = new PrismaPg({ connectionString: url, max: scaleOutConfig().pgPoolSize, application_name: "campuswatch" });
    return tagDialect(new PgPrismaClient({ adapter }) as unknown as PrismaClient, "postgresql");
  }
  const file = sqlitePath(url);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // The busy timeout makes a writer wait for another (crawler and dashboard share the file)
  // instead of failing with SQLITE_BUSY.
  const adapter = new WalSqlite({ url: file, timeout: BUSY_TIMEOUT_MS });
  // WAL is switched on once by `db migrate` (it is a property of the file, not the connection).
  return tagDialect(new PrismaClient({ adapter }), "sqlite");
}

/**
 * The SQLite adapter with `synchronous = NORMAL` on its connection. In WAL mode (which `db migrate`
 * turns on) NORMAL keeps the database consistent through any crash and loses nothing when the
 * process dies; only the last transactions before a power cut may roll back. FULL, SQLite's default,
 * waits for an fsync on every commit, and the crawler commits per page.
 */
class WalSqlite extends PrismaBetterSQLite3 {
  override async connect(): Promise<Awaited<ReturnType<PrismaBetterSQLite3["connect"]>>> {
    const connection = await super.connect();
    await connection.executeScript("PRAGMA synchronous = NORMAL");
    return connection;
  }
}

const globalForDb = globalThis as unknown as { campuswatchDb?: PrismaClient };

/**
 * The process-wide client, created on first use (so a CLI command that never touches the
 * database, like `db migrate`, does not open it) and kept on globalThis so that Next.js dev
 * reloads do not open new ones.
 */
export const db: PrismaClient = new Proxy({} as PrismaClient, {
  get(_target, prop) {
    globalForDb.campuswatchDb ??= createDb();
    const value: unknown = Reflect.get(globalForDb.campuswatchDb, prop);
    return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(globalForDb.campuswatchDb) : value;
  },
});

/** Close the process-wide client if it was ever opened (CLI exit, graceful shutdown). */
export async function disconnectDb(): Promise<void> {
  await globalForDb.campuswatchDb?.$disconnect();
}
