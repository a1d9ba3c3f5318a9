#!/usr/bin/env bash
# The whole test suite, on both databases: type check, lint, a production build, then twice —
# once on SQLite (the default) and once on PostgreSQL (a throwaway local server,
# scripts/pg-local.sh) — Vitest (unit + integration against local servers and real databases) and
# the browser tests in Debian Chromium. Ends with one line "N passed, N failed, N skipped" summing
# every run.
set -uo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1
mkdir -p test-results
rm -f test-results/vitest*.json test-results/playwright*.json
status=0

bash scripts/ensure-system-deps.sh

# CW_FAST_STAGE_DONE=1 (set by .ci/run, which has just run the type check, lint and unit tests as its
# fast first stage) skips repeating them here; a person running `npm test` gets everything.
if [ "${CW_FAST_STAGE_DONE:-0}" != 1 ]; then
  echo "== type check"
  npx tsc --noEmit -p . || status=1
  echo "== lint"
  npm run lint || status=1
fi
node scripts/gen-pg-schema.mjs --check || status=1

echo "== build for browser tests"
built=1
# The quick start's build (`npm start`, or CI's run of scripts/prepare-start.sh) is the same
# production build: when it is current with the sources the browser tests use it instead of
# building a second time (minutes on a small machine). Otherwise they get their own, .next-test.
if [ -z "${NEXT_DIST_DIR:-}" ] && bash scripts/next-build-current.sh .next; then
  export NEXT_DIST_DIR=.next
  echo "using the quick start's build in .next (current with the sources)"
elif ! NEXT_DIST_DIR="${NEXT_DIST_DIR:-.next-test}" npx next build > test-results/next-build.log 2>&1; then
  tail -40 test-results/next-build.log
  echo "next build failed: browser tests not run" >&2
  built=0
  status=1
fi

# run_suite NAME [VITEST PATHS...]: Vitest then Playwright, reports in
# test-results/{vitest,playwright}NAME.json. Without paths Vitest runs everything.
run_suite() {
  local name=$1
  shift
  echo "== vitest$name $*"
  npx vitest run "$@" --reporter=default --reporter=json --outputFile.json="test-results/vitest$name.json" || status=1
  if [ "$built" = 1 ]; then
    echo "== playwright$name (Chromium: ${CHROMIUM_PATH:-/usr/bin/chromium})"
    CW_PLAYWRIGHT_JSON="test-results/playwright$name.json" npx playwright test || status=1
  fi
}

echo "==== on SQLite"
if [ "${CW_FAST_STAGE_DONE:-0}" = 1 ]; then
  run_suite "" test/integration
else
  run_suite ""
fi

echo "==== on PostgreSQL"
if pg_url=$(bash scripts/pg-local.sh start); then
  # Unit tests touch no database: the PostgreSQL run is the integration and browser tests.
  CAMPUSWATCH_TEST_DB=postgresql CAMPUSWATCH_TEST_PG_URL="$pg_url" run_suite "-pg" test/integration
  bash scripts/pg-local.sh stop
else
  echo "PostgreSQL is not available here (see above): the PostgreSQL run was not done" >&2
  echo "  (install it with: sudo apt-get install postgresql)" >&2
  status=1
fi

node scripts/test-summary.mjs || status=1
exit $status
