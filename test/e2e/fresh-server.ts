/**
 * The second web server of the browser tests: `campuswatch serve` exactly as an operator starts it
 * (no `--host`: the default, 127.0.0.1 only), on a fresh, migrated database with no user at all. What it prints goes to
 * test-results/e2e-fresh/serve.log, where the setup spec finds the one-time first-admin link.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { freshE2eDatabase } from "./database";

const port = process.env.E2E_FRESH_PORT ?? "3108";
const dir = path.resolve("test-results/e2e-fresh");
const url = await freshE2eDatabase(dir, "cw_e2e_fresh");

const log = fs.createWriteStream(path.join(dir, "serve.log"));
const child = spawn(process.execPath, ["bin/campuswatch.mjs", "serve", "--port", port], {
  stdio: ["ignore", "pipe", "pipe"],
  env: { ...process.env, DATABASE_URL: url, CAMPUSWATCH_DATA_DIR: dir, NEXT_TELEMETRY_DISABLED: "1" },
});
for (const stream of [child.stdout, child.stderr]) {
  stream.on("data", (chunk: Buffer) => {
    log.write(chunk);
    process.stdout.write(chunk);
  });
}
const stop = () => child.kill("SIGTERM");
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
child.on("exit", (code) => process.exit(code ?? 0));
