// Sum the JSON reports of Vitest and Playwright, on SQLite and on PostgreSQL, into one closing
// line: "N passed, N failed, N skipped" (after one line per run).
// Exits 1 when a runner's report is missing (it crashed before reporting) or no test ran.
import fs from "node:fs";

let passed = 0,
  failed = 0,
  skipped = 0;
const missing = [];
function read(file) {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}
for (const [db, suffix] of [
  ["SQLite", ""],
  ["PostgreSQL", "-pg"],
]) {
  const v = read(`test-results/vitest${suffix}.json`);
  if (v) {
    const s = [v.numPassedTests ?? 0, v.numFailedTests ?? 0, (v.numPendingTests ?? 0) + (v.numTodoTests ?? 0)];
    console.log(`  vitest on ${db}: ${s[0]} passed, ${s[1]} failed, ${s[2]} skipped`);
    passed += s[0];
    failed += s[1];
    skipped += s[2];
  } else missing.push(`vitest on ${db}`);
  const p = read(`test-results/playwright${suffix}.json`);
  if (p) {
    const s = [p.stats?.expected ?? 0, (p.stats?.unexpected ?? 0) + (p.stats?.flaky ?? 0), p.stats?.skipped ?? 0];
    console.log(`  playwright on ${db}: ${s[0]} passed, ${s[1]} failed, ${s[2]} skipped`);
    passed += s[0];
    failed += s[1];
    skipped += s[2];
  } else missing.push(`playwright on ${db}`);
}
if (missing.length) console.log(`missing test reports: ${missing.join(", ")}`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(missing.length || failed || passed === 0 ? 1 : 0);
