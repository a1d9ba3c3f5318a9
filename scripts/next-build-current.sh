#!/usr/bin/env bash
# next-build-current.sh DIR: exit 0 when the Next.js build in DIR (.next, .next-test) exists and no
# source file is newer than it. One rule for scripts/prepare-start.sh (rebuild before `npm start`)
# and scripts/test.sh (the browser tests reuse a current quick-start build instead of building twice).
set -uo pipefail
cd "$(dirname "$0")/.."
stamp="${1:-.next}/BUILD_ID"
[ -f "$stamp" ] || exit 1
[ -z "$(find app components lib server crawler i18n messages proxy.ts next.config.ts package-lock.json -newer "$stamp" -print -quit 2>/dev/null)" ]
