#!/usr/bin/env bash
# `npm start`: migrate, build the dashboard when the sources changed, then run the dashboard,
# the scheduler and the demo site in the foreground (Ctrl-C stops all three).
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1
bash scripts/ensure-system-deps.sh
[ -d node_modules ] || npm ci
node bin/campuswatch.mjs db migrate
# Rebuild only when a source file is newer than the last build.
stamp=.next/BUILD_ID
if [ ! -f "$stamp" ] || [ -n "$(find app components lib proxy.ts next.config.ts package-lock.json -newer "$stamp" -print -quit 2>/dev/null)" ]; then
  npx next build
fi
exec node bin/campuswatch.mjs run --demo "$@"
