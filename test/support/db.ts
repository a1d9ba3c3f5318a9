/**
 * A fresh, real SQLite database for a test: a copy of the migrated template made by
 * global-setup.ts, opened through the same Prisma client code the app uses.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { inject } from "vitest";
import { createDb, type Db } from "../../lib/db";

export interface TestDb {
  db: Db;
  url: string;
  file: string;
  cleanup: () => Promise<void>;
}

/** Copy the template database to a temp file and open it. Call `cleanup` in afterEach/afterAll. */
export async function createTestDb(): Promise<TestDb> {
  const template = inject("templateDb");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-test-"));
  const file = path.join(dir, "test.db");
  fs.copyFileSync(template, file);
  const url = `file:${file}`;
  const db = createDb(url);
  return {
    db,
    url,
    file,
    cleanup: async () => {
      await db.$disconnect();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
