/**
 * A fresh, real database for a test, opened through the same Prisma client code the app uses:
 * a copy of the migrated template that global-setup.ts made. SQLite by default (a temp file);
 * PostgreSQL when the suite runs with CAMPUSWATCH_TEST_DB=postgresql (a database of its own on
 * the test server).
 */
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, inject } from "vitest";
import { createDb, type Db } from "../../lib/db";
import { createPgDatabaseFrom, dropPgDatabase, pgDatabaseUrl } from "./pg";

export interface TestDb {
  db: Db;
  /** DATABASE_URL of this database, for child processes. */
  url: string;
  /** Which database kind it is. */
  kind: "sqlite" | "postgresql";
  /** Drop it. Call in afterEach/afterAll. */
  cleanup: () => Promise<void>;
}

/** Make a fresh copy of the template database and open it. Call `cleanup` in afterEach/afterAll. */
export async function createTestDb(): Promise<TestDb> {
  const template = inject("templateDb");
  if (/^postgres(ql)?:/.test(template)) {
    const templateName = new URL(template).pathname.slice(1);
    const name = `cw_test_${crypto.randomBytes(6).toString("hex")}`;
    await createPgDatabaseFrom(templateName, name);
    const url = pgDatabaseUrl(name);
    const db = createDb(url);
    return {
      db,
      url,
      kind: "postgresql",
      cleanup: async () => {
        await db.$disconnect();
        await dropPgDatabase(name);
      },
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-test-"));
  const file = path.join(dir, "test.db");
  fs.copyFileSync(template, file);
  const url = `file:${file}`;
  const db = createDb(url);
  return {
    db,
    url,
    kind: "sqlite",
    cleanup: async () => {
      await db.$disconnect();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The same client without its raw SQLite connection (lib/db.ts rawSqlite): every query goes through Prisma. */
export function prismaOnly(db: Db): Db {
  return new Proxy({} as Db, {
    get(_target, prop) {
      if (prop === "cwSqlite") return undefined;
      const value: unknown = Reflect.get(db, prop);
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(db) : value;
    },
  });
}

/**
 * Fresh test databases for the tests of a file, each cleaned up after its test. Call once at the
 * top level of the file: `const openDb = testDbs();`, then `const { db } = await openDb();` in a test.
 */
export function testDbs(): () => Promise<TestDb> {
  const open: TestDb[] = [];
  afterEach(async () => {
    for (const t of open.splice(0)) await t.cleanup();
  });
  return async () => {
    const t = await createTestDb();
    open.push(t);
    return t;
  };
}
