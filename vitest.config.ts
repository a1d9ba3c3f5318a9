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
    env: { BCRYPT_COST: "4", TZ: "UTC" },
  },
});
