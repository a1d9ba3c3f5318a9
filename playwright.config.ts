import { defineConfig } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 3107);
const freshPort = Number(process.env.E2E_FRESH_PORT ?? 3108);

/**
 * Browser tests run Debian's Chromium (no Playwright browser download) against a production
 * build served by test/e2e/server.ts, which prepares a fresh SQLite database and a local
 * platform site first.
 */
export default defineConfig({
  testDir: "test/e2e",
  outputDir: "test-results/e2e",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  reporter: [["list"], ["json", { outputFile: process.env.CW_PLAYWRIGHT_JSON ?? "test-results/playwright.json" }]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    // The specs read the dashboard in English: every context (also those a spec opens itself)
    // sends Accept-Language en-US. test/e2e/locale.spec.ts opens Chinese contexts on purpose.
    locale: "en-US",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
    trace: "off",
    screenshot: "only-on-failure",
  },
  webServer: [
    {
      command: `node bin/tsx.mjs test/e2e/server.ts`,
      url: `http://127.0.0.1:${port}/sign-in`,
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: "pipe",
      // CAMPUSWATCH_TEST_DNS: names resolve from a fixed table, never through the network (lib/net/address.ts).
      env: { E2E_PORT: String(port), NEXT_DIST_DIR: process.env.NEXT_DIST_DIR ?? ".next-test", CAMPUSWATCH_TEST_DNS: "{}" },
    },
    {
      // `campuswatch serve` on a database with no user: the first-admin setup spec.
      command: `node bin/tsx.mjs test/e2e/fresh-server.ts`,
      url: `http://127.0.0.1:${freshPort}/sign-in`,
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: "pipe",
      env: { E2E_FRESH_PORT: String(freshPort), NEXT_DIST_DIR: process.env.NEXT_DIST_DIR ?? ".next-test", CAMPUSWATCH_TEST_DNS: "{}" },
    },
  ],
});
