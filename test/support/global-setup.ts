/**
 * Runs once before the suite: migrates a template SQLite database that tests copy
 * (see test/support/db.ts), so each test gets a fresh real database without paying for Prisma's
 * migration engine every time.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { migrateDatabase } from "../../lib/migrate";

export default async function setup({ provide }: { provide: (key: string, value: unknown) => void }) {
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
