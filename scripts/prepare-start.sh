#!/usr/bin/env bash
# The part of `npm start` before the servers run: migrate the database, then build the dashboard
# when a source file is newer than the last build. scripts/start.sh runs it, and CI runs it alone
# (.ci/run) to check that the quick start leaves the working tree as it was cloned.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1
node bin/campuswatch.mjs db migrate
# Rebuild only when a source file is newer than the last build.
if ! bash scripts/next-build-current.sh .next; then
  npx next build
fi
