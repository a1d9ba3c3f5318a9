/**
 * Copy a CampusWatch SQLite database into an empty PostgreSQL one: the way an installation moves
 * to PostgreSQL when it scales out to several workers (`campuswatch db copy`), and how
 * `seed:large` fills PostgreSQL for the dashboard benchmark.
 *
 * How:
 * - The source is opened read-only and must be up to date; the target is migrated first, so their
 *   tables and columns match.
 * - The tables and columns to copy are read from PostgreSQL's catalog, and ordered so that every
 *   table comes after the tables it references. A column that references its own table
 *   (`Post.parentId`) is filled in a second pass, so row order never matters.
 * - Values are converted by the PostgreSQL column's type: SQLite keeps booleans as 0/1 and dates
 *   as ISO-8601 text.
 * - The day roll-ups and the search index are not copied: PostgreSQL's triggers build them from
 *   the posts, flags and runs as they are inserted, exactly as when crawling.
 * - Everything happens in one transaction: a copy that fails leaves the target empty.
 * - Id sequences are moved past the copied ids, so new rows get new ids, and the tables are
 *   analysed so that the planner uses the indexes from the first query on.
 */
import Database from "better-sqlite3";
import pg from "pg";
import { databaseKind, sqlitePath } from "./config";
import { migrateDatabase, migrationNames } from "./migrate";

/** Tables that are not copied: Prisma's own bookkeeping, and roll-ups PostgreSQL's triggers rebuild. */
const SKIP = new Set(["_prisma_migrations", "post_day_stats", "flag_day_stats", "run_day_stats"]);
/**
 * Tables whose rows a PostgreSQL trigger already wrote while an earlier table was copied (the
 * PostSource row of each post's own account): their copied rows skip the ones already there.
 */
const TRIGGER_FILLED = new Set(["PostSource"]);
/** PostgreSQL allows 65535 parameters per statement. */
const MAX_PARAMS = 60_000;

/** Options of {@link copySqliteToPostgres}. */
export interface CopyOptions {
  /** Progress lines ("Post: 1,000,000 rows in 95.2 s"). @default nothing */
  log?: (line: string) => void;
}

/** What {@link copySqliteToPostgres} copied: rows per table, in copy order. */
export type CopyResult = { table: string; rows: number }[];

interface Column {
  name: string;
  type: string;
}

/** Convert one SQLite value for a PostgreSQL column of type `type`. */
function convert(value: unknown, type: string): unknown {
  if (value === null || value === undefined) return null;
  if (type === "boolean") return value === 1 || value === 1n || value === true || value === "1" || value === "true";
  if (type.startsWith("timestamp")) {
    // "timestamp without time zone" holds UTC (as Prisma writes it): send UTC without an offset,
    // or the server would shift it by the offset and then drop it.
    // SQLite's CURRENT_TIMESTAMP writes "YYYY-MM-DD HH:MM:SS" in UTC without saying so; Date would
    // read that as local time.
    // better-sqlite3 hands a timestamp over as a number (epoch ms), a bigint or text; anything else
    // is not a date.
    let d: Date;
    if (typeof value === "number" || typeof value === "bigint") d = new Date(Number(value));
    else if (typeof value === "string") {
      const zoneless = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(value);
      d = new Date(zoneless ? `${value.replace(" ", "T")}Z` : value);
    } else d = new Date(NaN);
    if (Number.isNaN(d.getTime())) throw new Error(`not a date: ${JSON.stringify(value)}`);
    return d.toISOString().replace("Z", "");
  }
  if (typeof value === "bigint") return value.toString();
  if (value instanceof Uint8Array) return Buffer.from(value);
  return value;
}

const q = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Tables of the PostgreSQL database in an order where every table follows those it references. */
async function plan(client: pg.Client) {
  const { rows: tables } = await client.query<{ table: string }>(
    `SELECT c.relname AS table FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') ORDER BY c.relname`,
  );
  const { rows: cols } = await client.query<{ table: string; name: string; type: string }>(
    `SELECT table_name AS table, column_name AS name, data_type AS type FROM information_schema.columns
     WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`,
  );
  const { rows: fks } = await client.query<{ child: string; parent: string; column: string }>(
    `SELECT ch.relname AS child, pa.relname AS parent, a.attname AS column
     FROM pg_constraint k
     JOIN pg_class ch ON ch.oid = k.conrelid JOIN pg_class pa ON pa.oid = k.confrelid
     JOIN pg_namespace n ON n.oid = ch.relnamespace
     JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = ANY (k.conkey)
     WHERE k.contype = 'f' AND n.nspname = current_schema()`,
  );
  const names = tables.map((t) => t.table).filter((t) => !SKIP.has(t));
  const ordered: string[] = [];
  const placed = new Set<string>();
  const visit = (t: string, path: string[]) => {
    if (placed.has(t)) return;
    if (path.includes(t)) throw new Error(`foreign keys form a cycle: ${[...path, t].join(" → ")}`);
    for (const fk of fks) if (fk.child === t && fk.parent !== t && names.includes(fk.parent)) visit(fk.parent, [...path, t]);
    placed.add(t);
    ordered.push(t);
  };
  for (const t of names) visit(t, []);
  return ordered.map((table) => ({
    table,
    columns: cols.filter((c) => c.table === table).map((c): Column => ({ name: c.name, type: c.type })),
    selfRefs: fks.filter((f) => f.child === table && f.parent === table).map((f) => f.column),
  }));
}

/**
 * Copy every row of the SQLite database at `from` (a file: URL) into the PostgreSQL database at
 * `to`, which must be empty (see the module comment).
 */
export async function copySqliteToPostgres(from: string, to: string, options: CopyOptions = {}): Promise<CopyResult> {
  const log = options.log ?? (() => undefined);
  if (databaseKind(from) !== "sqlite") throw new Error(`--from must be a SQLite file: URL (got ${JSON.stringify(from)})`);
  if (databaseKind(to) !== "postgresql") throw new Error(`--to must be a postgresql:// URL (got ${JSON.stringify(to)})`);
  // Read-only: a missing file is an error (not a new empty database), and the source is never
  // changed, even while CampusWatch is still running on it.
  const source = new Database(sqlitePath(from), { readonly: true, fileMustExist: true });
  try {
    const applied = new Set(
      (
        source.prepare(`SELECT migration_name AS name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`).all() as {
          name: string;
        }[]
      ).map((r) => r.name),
    );
    const missing = migrationNames("sqlite").filter((m) => !applied.has(m));
    if (missing.length)
      throw new Error(
        `the SQLite database is not up to date (${missing.length} migrations missing): run \`DATABASE_URL=${from} campuswatch db migrate\` first`,
      );
  } catch (e) {
    source.close();
    throw /no such table: _prisma_migrations/.test((e as Error).message) ? new Error(`${from} is not a CampusWatch database`) : e;
  }
  source.defaultSafeIntegers(true);
  await migrateDatabase(to);

  const client = new pg.Client({ connectionString: to, application_name: "campuswatch db copy" });
  await client.connect();
  const result: CopyResult = [];
  try {
    const tables = await plan(client);
    for (const { table } of tables) {
      const { rows } = await client.query<{ any: boolean }>(`SELECT EXISTS (SELECT 1 FROM ${q(table)}) AS any`);
      if (rows[0]!.any) throw new Error(`the target database is not empty (table ${table} has rows); copy into a new, empty database`);
    }
    const sourceTables = new Set((source.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as { name: string }[]).map((r) => r.name));
    await client.query("BEGIN");
    for (const { table, columns, selfRefs } of tables) {
      if (!sourceTables.has(table)) throw new Error(`the SQLite database has no table ${table}`);
      const started = performance.now();
      const perBatch = Math.max(1, Math.floor(MAX_PARAMS / columns.length));
      const insertSql = (n: number) =>
        `INSERT INTO ${q(table)} (${columns.map((c) => q(c.name)).join(", ")}) VALUES ` +
        Array.from({ length: n }, (_, r) => `(${columns.map((_c, i) => `$${r * columns.length + i + 1}`).join(", ")})`).join(", ") +
        (TRIGGER_FILLED.has(table) ? " ON CONFLICT DO NOTHING" : "");
      const later: { id: unknown; column: string; value: unknown }[] = [];
      let batch: unknown[] = [];
      let count = 0;
      const flush = async () => {
        if (batch.length === 0) return;
        await client.query(insertSql(batch.length / columns.length), batch);
        batch = [];
      };
      const rows = source.prepare(`SELECT ${columns.map((c) => q(c.name)).join(", ")} FROM ${q(table)}`).iterate() as Iterable<Record<string, unknown>>;
      for (const row of rows) {
        for (const c of columns) {
          let value = convert(row[c.name], c.type);
          if (selfRefs.includes(c.name) && value !== null) {
            later.push({ id: convert(row.id, "integer"), column: c.name, value });
            value = null;
          }
          batch.push(value);
        }
        count++;
        if (batch.length >= perBatch * columns.length) await flush();
      }
      await flush();
      // The second pass for columns referring to the same table (a reply's thread).
      for (let i = 0; i < later.length; i += 10_000) {
        const part = later.slice(i, i + 10_000);
        for (const column of selfRefs) {
          const mine = part.filter((p) => p.column === column);
          if (mine.length === 0) continue;
          await client.query(`UPDATE ${q(table)} AS t SET ${q(column)} = v.value FROM unnest($1::int[], $2::int[]) AS v(id, value) WHERE t."id" = v.id`, [
            mine.map((p) => p.id),
            mine.map((p) => p.value),
          ]);
        }
      }
      if (columns.some((c) => c.name === "id" && (c.type === "integer" || c.type === "bigint"))) {
        await client.query(`SELECT setval(pg_get_serial_sequence($1, 'id'), coalesce(max("id"), 0) + 1, false) FROM ${q(table)}`, [q(table)]);
      }
      result.push({ table, rows: count });
      log(`${table}: ${count.toLocaleString("en-US")} rows in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
    await client.query("COMMIT");
    // Fresh statistics, so the planner picks the indexes at once rather than after autovacuum.
    await client.query("ANALYZE");
  } catch (e) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw e;
  } finally {
    source.close();
    await client.end();
  }
  return result;
}
