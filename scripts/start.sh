#!/usr/bin/env bash
# `npm start`: migrate, build the dashboard when the sources changed, then run the dashboard,
# the scheduler and the demo site in the foreground (Ctrl-C stops all three).
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1
bash scripts/ensure-system-deps.sh
[ -d node_modules ] || npm ci
bash scripts/prepare-start.sh
exec node bin/campuswatch.mjs run --demo "$@"
