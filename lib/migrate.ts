/**
 * Bring a database up to date with the committed migrations, using Prisma's own
 * `migrate deploy` (JavaScript engine, so nothing is downloaded).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import crypto from "node:crypto";
import pg from "pg";
import { databaseKind, sqlitePath } from "./config";
import { backfillSiteKeys } from "./post-sources";

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The committed migrations for a database kind, oldest first (the same names on both). */
export function migrationNames(kind: "sqlite" | "postgresql"): string[] {
  const dir = path.join(projectRoot, kind === "postgresql" ? "prisma/postgresql/migrations" : "prisma/migrations");
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
}

/** Result of a migration: Prisma's output, for the CLI to show. */
export interface MigrateResult {
  output: string;
}

/**
 * Apply every pending migration to the database at `url`, then fill in what SQL cannot compute
 * (the site keys of posts stored before them, lib/post-sources.ts; idempotent).
 * @throws Error with Prisma's message when a migration fails.
 */
export async function migrateDatabase(url: string): Promise<MigrateResult> {
  const result = await applyMigrations(url);
  // Data the SQL migrations cannot compute (site keys of posts stored before them), in TS.
  const keys = await backfillSiteKeys(url);
  if (keys.keyed > 0 || keys.leftApart > 0) {
    result.output += `\nsite keys: ${keys.keyed} posts keyed` + (keys.leftApart ? `, ${keys.leftApart} stored twice before kept apart` : "");
  }
  return result;
}

async function applyMigrations(url: string): Promise<MigrateResult> {
  if (databaseKind(url) === "postgresql") return migratePostgres(url);
  if (databaseKind(url) === "sqlite") fs.mkdirSync(path.dirname(sqlitePath(url)), { recursive: true, mode: 0o700 });
  const require = createRequire(import.meta.url);
  const prismaCli = require.resolve("prisma/build/index.js");
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, [prismaCli, "migrate", "deploy"], {
      cwd: projectRoot,
      // prisma.config.ts resolves relative file: paths against the cwd, so pass an absolute one.
      env: {
        ...process.env,
        DATABASE_URL: databaseKind(url) === "sqlite" ? `file:${sqlitePath(url)}` : url,
        PRISMA_HIDE_UPDATE_MESSAGE: "1",
        CHECKPOINT_DISABLE: "1",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) resolve(out);
      else reject(new Error(`migration failed (prisma exit ${code}):\n${out.trim()}`));
    });
  });
  if (databaseKind(url) === "sqlite") enableWal(sqlitePath(url));
  return { output };
}

/**
 * WAL lets the dashboard read while the crawler writes. It is stored in the database file, so
 * setting it once after migrating is enough for every later connection.
 */
function enableWal(file: string) {
  const require = createRequire(import.meta.url);
  const Database = require("better-sqlite3") as typeof import("better-sqlite3");
  const conn = new Database(file);
  try {
    conn.pragma("journal_mode = WAL");
  } finally {
    conn.close();
  }
}

/** Arbitrary constant: the advisory lock that serialises concurrent `db migrate` runs. */
const MIGRATE_LOCK = 72_707_001;

/**
 * Apply prisma/postgresql/migrations to a PostgreSQL database.
 *
 * Why not `prisma migrate deploy`: with the JavaScript schema engine and `@prisma/adapter-pg`
 * (the only engine that works offline here) every migrate command fails with "Column type 'name'
 * could not be deserialized" (prisma/orm#27403, open). So this applies the same migration files
 * the same way Prisma would (in name order, each in a transaction) and records them in Prisma's
 * own `_prisma_migrations` table with Prisma's checksum, so `prisma migrate status` and a later
 * Prisma that fixes the bug agree with it. An advisory lock makes several workers starting at
 * once migrate one after another. An applied migration whose file changed is refused.
 */
async function migratePostgres(url: string): Promise<MigrateResult> {
  const dir = path.join(projectRoot, "prisma/postgresql/migrations");
  const names = migrationNames("postgresql");
  const client = new pg.Client({ connectionString: url, application_name: "campuswatch migrate" });
  await client.connect();
  const lines: string[] = [];
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATE_LOCK]);
    await client.query(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
      "id" VARCHAR(36) PRIMARY KEY NOT NULL, "checksum" VARCHAR(64) NOT NULL, "finished_at" TIMESTAMPTZ,
      "migration_name" VARCHAR(255) NOT NULL, "logs" TEXT, "rolled_back_at" TIMESTAMPTZ,
      "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(), "applied_steps_count" INTEGER NOT NULL DEFAULT 0)`);
    const applied = new Map<string, string>(
      (
        await client.query<{ migration_name: string; checksum: string }>(
          `SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
        )
      ).rows.map((r) => [r.migration_name, r.checksum]),
    );
    for (const name of names) {
      const sql = fs.readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      const checksum = crypto.createHash("sha256").update(sql).digest("hex");
      const known = applied.get(name);
      if (known !== undefined) {
        if (known !== checksum) throw new Error(`migration ${name} was changed after it was applied (checksum differs)`);
        continue;
      }
      await client.query("BEGIN");
      try {
        await client.query(sql);
        await client.query(`INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count) VALUES ($1, $2, now(), $3, 1)`, [
          crypto.randomUUID(),
          checksum,
          name,
        ]);
        await client.query("COMMIT");
      } catch (e) {
        await client.query("ROLLBACK");
        throw new Error(`migration failed: ${name}: ${(e as Error).message}`);
      }
      lines.push(`Applying migration \`${name}\``);
    }
    lines.push(lines.length ? "All migrations have been successfully applied." : "No pending migrations to apply.");
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [MIGRATE_LOCK]).catch(() => {});
    await client.end();
  }
  return { output: `${names.length} migrations found in prisma/postgresql/migrations\n${lines.join("\n")}` };
}
