/**
 * Bring a database up to date with the committed migrations, using Prisma's own
 * `migrate deploy` (JavaScript engine, so nothing is downloaded).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { databaseKind, sqlitePath } from "./config";

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Result of a migration: Prisma's output, for the CLI to show. */
export interface MigrateResult {
  output: string;
}

/**
 * Apply every pending migration to the database at `url`.
 * @throws Error with Prisma's message when a migration fails.
 */
export async function migrateDatabase(url: string): Promise<MigrateResult> {
  if (databaseKind(url) === "postgresql") {
    throw new Error("PostgreSQL support lands with the scale-out issue; use a file: URL for now");
  }
  if (databaseKind(url) === "sqlite") fs.mkdirSync(path.dirname(sqlitePath(url)), { recursive: true });
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
