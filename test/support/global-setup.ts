/**
 * Runs once before the suite: migrates a template database that tests copy (see
 * test/support/db.ts), so each test gets a fresh real database without paying for migrations
 * every time.
 *
 * SQLite by default. With CAMPUSWATCH_TEST_DB=postgresql the template is a PostgreSQL database on
 * the server at CAMPUSWATCH_TEST_PG_URL (scripts/test.sh starts one with scripts/pg-local.sh), and
 * every test database is a `CREATE DATABASE … TEMPLATE` copy of it.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { migrateDatabase } from "../../lib/migrate";
import { pgAdmin, pgDatabaseUrl, testDbKind } from "./pg";

export default async function setup({ provide }: { provide: (key: string, value: unknown) => void }) {
  if (testDbKind() === "postgresql") {
    const name = `cw_template_${process.pid}`;
    await pgAdmin(async (c) => {
      await c.query(`DROP DATABASE IF EXISTS ${name}`);
      await c.query(`CREATE DATABASE ${name}`);
    });
    const url = pgDatabaseUrl(name);
    await migrateDatabase(url);
    provide("templateDb", url);
    process.env.CW_TEMPLATE_DB = url;
    console.log(`tests run on PostgreSQL (template database ${name})`);
    return async () => {
      await pgAdmin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-template-"));
  const file = path.join(dir, "template.db");
  await migrateDatabase(`file:${file}`);
  provide("templateDb", file);
  process.env.CW_TEMPLATE_DB = file;
  return () => fs.rmSync(dir, { recursive: true, force: true });
}

declare module "vitest" {
  export interface ProvidedContext {
    templateDb: string;
  }
}
