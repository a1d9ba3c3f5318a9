import fs from "node:fs";
import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";

// Prisma 6.19 with the JavaScript (WASM) engines: nothing is downloaded at install or run time.
// The database is the same one the app uses: DATABASE_URL, else ./data/campuswatch.db.
export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: "prisma/schema.prisma",
  async adapter() {
    const url = process.env.DATABASE_URL?.trim() || "file:./data/campuswatch.db";
    const file = path.resolve(url.replace(/^file:/, "").replace(/\?.*$/, ""));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    return new PrismaBetterSQLite3({ url: file });
  },
});
