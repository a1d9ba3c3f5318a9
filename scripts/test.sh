#!/usr/bin/env bash
# The whole test suite: type check, Vitest (unit + integration against local servers and real
# SQLite files), a production build, then the browser tests in Debian Chromium.
# Ends with one line "N passed, N failed, N skipped" summing every runner.
set -uo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1
mkdir -p test-results
rm -f test-results/vitest.json test-results/playwright.json
status=0

bash scripts/ensure-system-deps.sh

echo "== type check"
npx tsc --noEmit -p . || status=1

echo "== vitest"
npx vitest run --reporter=default --reporter=json --outputFile.json=test-results/vitest.json || status=1

echo "== build for browser tests"
if NEXT_DIST_DIR=.next-test npx next build > test-results/next-build.log 2>&1; then
  echo "== playwright (Chromium: ${CHROMIUM_PATH:-/usr/bin/chromium})"
  npx playwright test || status=1
else
  tail -40 test-results/next-build.log
  echo "next build failed: browser tests not run" >&2
  status=1
fi

node scripts/test-summary.mjs || status=1
exit $status
