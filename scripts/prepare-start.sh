#!/usr/bin/env bash
# The part of `npm start` before the servers run: migrate the database, then build the dashboard
# when a source file is newer than the last build. scripts/start.sh runs it, and CI runs it alone
# (.ci/run) to check that the quick start leaves the working tree as it was cloned.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1
node bin/campuswatch.mjs db migrate
# Rebuild only when a source file is newer than the last build.
stamp=.next/BUILD_ID
if [ ! -f "$stamp" ] || [ -n "$(find app components lib server crawler i18n messages proxy.ts next.config.ts package-lock.json -newer "$stamp" -print -quit 2>/dev/null)" ]; then
  npx next build
fi
