/**
 * The web server of the browser tests: a fresh SQLite database (migrated, with one admin and one
 * reviewer), then `next start` on the production build in NEXT_DIST_DIR. Playwright starts and
 * stops it (playwright.config.ts → webServer).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { migrateDatabase } from "../../lib/migrate";
import { createDb } from "../../lib/db";
import { createUser } from "../../lib/users";
import { E2E_USERS } from "./users";

const port = process.env.E2E_PORT ?? "3107";
const dir = path.resolve("test-results/e2e-data");
fs.rmSync(dir, { recursive: true, force: true });
fs.mkdirSync(dir, { recursive: true });
const url = `file:${path.join(dir, "e2e.db")}`;
await migrateDatabase(url);
const db = createDb(url);
for (const u of Object.values(E2E_USERS)) await createUser(db, u);
await db.$disconnect();

const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");
const child = spawn(process.execPath, [nextBin, "start", "-p", port, "-H", "127.0.0.1"], {
  stdio: "inherit",
  env: { ...process.env, DATABASE_URL: url, CAMPUSWATCH_DATA_DIR: dir, NEXT_TELEMETRY_DISABLED: "1" },
});
const stop = () => child.kill("SIGTERM");
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
child.on("exit", (code) => process.exit(code ?? 0));
