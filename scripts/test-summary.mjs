// Sum the JSON reports of Vitest and Playwright into one closing line: "N passed, N failed, N skipped".
// Exits 1 when a runner's report is missing (it crashed before reporting) or no test ran.
import fs from "node:fs";

let passed = 0, failed = 0, skipped = 0, missing = [];
function read(file) {
  try { return JSON.parse(fs.readFileSync(file, "utf8")); } catch { return null; }
}
const v = read("test-results/vitest.json");
if (v) {
  passed += v.numPassedTests ?? 0;
  failed += v.numFailedTests ?? 0;
  skipped += (v.numPendingTests ?? 0) + (v.numTodoTests ?? 0);
} else missing.push("vitest");
const p = read("test-results/playwright.json");
if (p) {
  passed += p.stats?.expected ?? 0;
  failed += (p.stats?.unexpected ?? 0) + (p.stats?.flaky ?? 0);
  skipped += p.stats?.skipped ?? 0;
} else missing.push("playwright");
if (missing.length) console.log(`missing test reports: ${missing.join(", ")}`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(missing.length || failed || passed === 0 ? 1 : 0);
