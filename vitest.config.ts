import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["test/unit/**/*.test.ts", "test/integration/**/*.test.ts"],
    environment: "node",
    globalSetup: ["test/support/global-setup.ts"],
    // nodejieba and better-sqlite3 are native addons: forks isolate them cleanly.
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // CAMPUSWATCH_TEST_DNS: host names resolve from a fixed table (here: only localhost), never
    // through the network — for the tests and every CLI process they start (lib/net/address.ts).
    env: { BCRYPT_COST: "4", TZ: "UTC", CAMPUSWATCH_TEST_DNS: "{}" },
  },
});
