/**
 * The PostgreSQL side of the test databases: which database kind this run uses, and an admin
 * connection to the test server for creating and dropping databases.
 */
import pg from "pg";

/** The database kind the suite runs on: CAMPUSWATCH_TEST_DB=postgresql, else SQLite. */
export function testDbKind(): "sqlite" | "postgresql" {
  return process.env.CAMPUSWATCH_TEST_DB === "postgresql" ? "postgresql" : "sqlite";
}

/** URL of the test server's maintenance database (scripts/pg-local.sh prints it). */
export function pgServerUrl(): string {
  const url = process.env.CAMPUSWATCH_TEST_PG_URL;
  if (!url) throw new Error("CAMPUSWATCH_TEST_DB=postgresql needs CAMPUSWATCH_TEST_PG_URL (scripts/pg-local.sh start prints one)");
  return url;
}

/** The URL of database `name` on the test server. */
export function pgDatabaseUrl(name: string): string {
  const u = new URL(pgServerUrl());
  u.pathname = `/${name}`;
  return u.toString();
}

/** Run `fn` with a connection to the test server's maintenance database (or the server at `url`). */
export async function pgAdmin<T>(fn: (c: pg.Client) => Promise<T>, url = pgServerUrl()): Promise<T> {
  const c = new pg.Client({ connectionString: url, application_name: "campuswatch tests" });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/**
 * Create database `name` as a copy of `template`. PostgreSQL refuses a copy while another
 * session is connected to the template (another test file copying it at the same instant), so
 * that error is retried.
 */
export async function createPgDatabaseFrom(template: string, name: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await pgAdmin((c) => c.query(`CREATE DATABASE ${name} TEMPLATE ${template}`));
      return;
    } catch (e) {
      if (attempt >= 50 || !/being accessed by other users/.test((e as Error).message)) throw e;
      await new Promise((r) => setTimeout(r, 50 + Math.random() * 100));
    }
  }
}

/** Drop database `name`, closing any connection a killed test process left behind. */
export async function dropPgDatabase(name: string): Promise<void> {
  await pgAdmin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}
