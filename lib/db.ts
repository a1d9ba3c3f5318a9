/**
 * The one Prisma client of the process. Both the dashboard and the crawler import `db` from here.
 * DATABASE_URL picks the database: `file:` is SQLite (better-sqlite3 driver adapter), and
 * `postgresql://` is PostgreSQL (pg driver adapter, with the client generated from the PostgreSQL
 * copy of the schema).
 */
import fs from "node:fs";
import path from "node:path";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import type BetterSqlite3 from "better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/generated/prisma/client";
import { PrismaClient as PgPrismaClient } from "@/generated/prisma-pg/client";
import { databaseKind, databaseUrl, scaleOutConfig, sqlitePath } from "./config";
import { prepared } from "./sqlite-statements";
import { PRIVATE_DIR_MODE, securePrivateFiles } from "./private-files";

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
    securePrivateFiles(null);
    const adapter = new PrismaPg({ connectionString: url, max: scaleOutConfig().pgPoolSize, application_name: "campuswatch" });
    return tagDialect(new PgPrismaClient({ adapter }) as unknown as PrismaClient, "postgresql");
  }
  const file = sqlitePath(url);
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
  // The database, its WAL and SHM (and the data directory) readable by this user only.
  securePrivateFiles(file);
  // The busy timeout makes a writer wait for another (crawler and dashboard share the file)
  // instead of failing with SQLITE_BUSY.
  const adapter = new WalSqlite({ url: file, timeout: BUSY_TIMEOUT_MS });
  // WAL is switched on once by `db migrate` (it is a property of the file, not the connection).
  const client = tagDialect(new PrismaClient({ adapter }), "sqlite");
  Object.defineProperty(client, "cwSqlite", { value: adapter, enumerable: false });
  return client;
}

/** The SQLite adapter's connection as this module uses it (`client` is public at run time, not in its types). */
type SqliteConnection = Awaited<ReturnType<PrismaBetterSQLite3["connect"]>> & { client: BetterSqlite3.Database };

/**
 * The SQLite adapter with `synchronous = NORMAL` on its connection. In WAL mode (which `db migrate`
 * turns on) NORMAL keeps the database consistent through any crash and loses nothing when the
 * process dies; only the last transactions before a power cut may roll back. FULL, SQLite's default,
 * waits for an fsync on every commit, and the crawler commits per page.
 *
 * And `temp_store = MEMORY`: SQLite keeps a journal per statement inside a transaction (to undo that
 * statement alone), which by default spills to a new file in /var/tmp past 64 KiB. Inserting one
 * post touches the table, its indexes and what its triggers write, so a crawl of 1,587 pages
 * created, filled and deleted about 600 such files (150,000 writes; issue 17). In memory, a
 * statement's journal is as big as the pages it changes, a few hundred KiB at most here.
 */
class WalSqlite extends PrismaBetterSQLite3 {
  /** The connection Prisma opened last (it opens one, on first use): what {@link rawSqlite} writes on. */
  connection?: SqliteConnection;

  override async connect(): Promise<Awaited<ReturnType<PrismaBetterSQLite3["connect"]>>> {
    const connection = await super.connect();
    await connection.executeScript("PRAGMA synchronous = NORMAL; PRAGMA temp_store = MEMORY");
    this.connection = connection as SqliteConnection;
    return connection;
  }
}

/**
 * Prisma's own SQLite connection, for the few hot writes that run as prepared statements instead of
 * Prisma queries (the crawler's page store: Prisma compiles every query, about 1 ms of CPU each,
 * which was half of a crawl's CPU). It is the same connection Prisma uses, so there is one writer
 * per process as before, and {@link RawSqlite.transaction} takes the adapter's transaction lock, so
 * a write never runs inside a Prisma transaction or beside one.
 */
export interface RawSqlite {
  /**
   * Run `write` synchronously, all or nothing (rolled back if it throws), once every Prisma
   * transaction of the process has ended; the promise settles once the write is committed. Writes
   * asked for in the same turn of the event loop share one transaction, each in a savepoint of its
   * own (see {@link GroupCommit}). Nothing else runs on the connection meanwhile: `write` never awaits.
   */
  transaction<T>(write: (db: BetterSqlite3.Database) => T): Promise<T>;
  /** Writes run and transactions committed on this connection so far (CAMPUSWATCH_PROFILE prints them). */
  readonly stats: { writes: number; commits: number };
}

/**
 * Whether `client` writes on a SQLite connection of its own ({@link rawSqlite}): made by
 * {@link createDb} on a SQLite file. lib/store picks a client's backend by this, once.
 */
export function hasRawSqlite(client: PrismaClient): boolean {
  return (client as unknown as { cwSqlite?: WalSqlite }).cwSqlite !== undefined;
}

/** The raw SQLite connection of a client made by {@link createDb}, or null (PostgreSQL, or another client). */
export async function rawSqlite(client: PrismaClient): Promise<RawSqlite | null> {
  const adapter = (client as unknown as { cwSqlite?: WalSqlite }).cwSqlite;
  if (!adapter) return null;
  // Not opened yet, or closed by $disconnect (Prisma opens a new one on its next query): connect now.
  if (!adapter.connection?.client.open) await client.$connect();
  const connection = adapter.connection;
  if (!connection?.client.open) return null;
  let commits = groupCommits.get(connection);
  if (!commits) groupCommits.set(connection, (commits = new GroupCommit(connection)));
  return commits;
}

/** One write waiting for its group's transaction. */
interface QueuedWrite {
  write: (db: BetterSqlite3.Database) => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** Every connection's group commit, made on first use. */
const groupCommits = new WeakMap<SqliteConnection, GroupCommit>();

/**
 * Writes that arrive in the same turn of the event loop share one transaction, each in a savepoint
 * of its own. Why: every commit has a cost of its own (the adapter's lock, BEGIN and COMMIT, the
 * WAL's header and index), paid here once per group. A crawl sends a write or two per page from
 * several accounts at once: committing each took ~9% of the crawl's main thread, and grouping them
 * saves 40% of the commits (`bench:crawl-vs-crawlee --baseline`: ×1.04 pages/s). It saves little of
 * the pages written to the log: different accounts' writes mostly change different index pages.
 *
 * Each write still succeeds or fails alone: one that throws is rolled back to its savepoint and
 * its caller gets the error, while the others commit. Each caller's promise settles after the
 * commit that made its write durable, as with a transaction of its own.
 */
class GroupCommit implements RawSqlite {
  readonly stats = { writes: 0, commits: 0 };
  private queue: QueuedWrite[] = [];
  private scheduled = false;

  constructor(private readonly connection: SqliteConnection) {}

  transaction<T>(write: (db: BetterSqlite3.Database) => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ write, resolve: resolve as (value: unknown) => void, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        // After the callbacks of this turn (other accounts' pages parsed or fetched meanwhile) have queued theirs.
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    // The adapter's startTransaction waits for its lock (held by any open Prisma transaction) and
    // runs BEGIN; commit() and rollback() only release the lock: the SQL is ours to send, as
    // Prisma's engine sends it.
    let tx: Awaited<ReturnType<SqliteConnection["startTransaction"]>>;
    try {
      tx = await this.connection.startTransaction();
    } catch (e) {
      this.scheduled = false;
      for (const w of this.queue.splice(0)) w.reject(e);
      return;
    }
    // Taken after the lock: writes queued while it was awaited join this group.
    const group = this.queue.splice(0);
    this.scheduled = false;
    const raw = this.connection.client;
    const done: { w: QueuedWrite; value: unknown }[] = [];
    try {
      for (const w of group) {
        // A single write needs no savepoint: its failure rolls the whole transaction back.
        if (group.length === 1) {
          done.push({ w, value: w.write(raw) });
          continue;
        }
        prepared(raw, "SAVEPOINT cw_write").run();
        try {
          done.push({ w, value: w.write(raw) });
          prepared(raw, "RELEASE cw_write").run();
        } catch (e) {
          // Some errors (a full disk, I/O) end the whole transaction: then the group is lost, below.
          if (!raw.inTransaction) throw e;
          prepared(raw, "ROLLBACK TO cw_write").run();
          prepared(raw, "RELEASE cw_write").run();
          w.reject(e);
        }
      }
      prepared(raw, "COMMIT").run();
    } catch (e) {
      if (raw.inTransaction) raw.prepare("ROLLBACK").run();
      await tx.rollback();
      // Nothing of the group was kept: every write fails with the error (one already refused keeps its own).
      for (const w of group) w.reject(e);
      return;
    }
    await tx.commit();
    this.stats.commits++;
    this.stats.writes += done.length;
    for (const { w, value } of done) w.resolve(value);
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
