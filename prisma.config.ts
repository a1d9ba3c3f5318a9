import fs from "node:fs";
import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";

// Prisma 6.19 with the JavaScript (WASM) engines: nothing is downloaded at install or run time.
// The database is the same one the app uses: DATABASE_URL, else ./data/campuswatch.db.
// A postgresql:// URL selects the PostgreSQL copy of the schema (generated from
// prisma/schema.prisma by scripts/gen-pg-schema.mjs) and its migrations in prisma/postgresql/.
const url = process.env.DATABASE_URL?.trim() || "file:./data/campuswatch.db";
const postgres = /^postgres(ql)?:\/\//i.test(url);

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: postgres ? "prisma/postgresql/schema.prisma" : "prisma/schema.prisma",
  // Prisma wants a promise; building the adapter itself needs nothing awaited.
  adapter() {
    if (postgres) return Promise.resolve(new PrismaPg({ connectionString: url }));
    const file = path.resolve(url.replace(/^file:/, "").replace(/\?.*$/, ""));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    return Promise.resolve(new PrismaBetterSQLite3({ url: file }));
  },
});
