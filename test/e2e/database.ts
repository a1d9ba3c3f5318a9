/**
 * A fresh, migrated database for one of the browser tests' web servers: a SQLite file in `dir`, or
 * on the PostgreSQL pass (CAMPUSWATCH_TEST_DB=postgresql) a new database `pgName` on the test server.
 * `dir` is emptied first. Returns the DATABASE_URL.
 */
import fs from "node:fs";
import path from "node:path";
import { migrateDatabase } from "../../lib/migrate";
import { pgAdmin, pgDatabaseUrl, testDbKind } from "../support/pg";

export async function freshE2eDatabase(dir: string, pgName: string): Promise<string> {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  let url = `file:${path.join(dir, `${pgName}.db`)}`;
  if (testDbKind() === "postgresql") {
    await pgAdmin(async (c) => {
      await c.query(`DROP DATABASE IF EXISTS ${pgName} WITH (FORCE)`);
      await c.query(`CREATE DATABASE ${pgName}`);
    });
    url = pgDatabaseUrl(pgName);
  }
  await migrateDatabase(url);
  return url;
}
