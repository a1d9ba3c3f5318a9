#!/usr/bin/env bash
# A throwaway local PostgreSQL server for tests and benchmarks, from Debian's packages.
#
#   scripts/pg-local.sh start   start it (creating the cluster on first use); prints its URL
#   scripts/pg-local.sh stop    stop it
#   scripts/pg-local.sh url     print the URL of the server
#
# The cluster lives in /tmp/campuswatch-pg-$PORT (not in the checkout: PostgreSQL refuses to run
# as root, so under root the cluster belongs to the `postgres` user, which must be able to reach
# its directory). It listens on 127.0.0.1 only, with trust authentication, UTF-8 and the C.UTF-8
# locale (pg_trgm needs a Unicode-aware locale to index Chinese).
# Port: CAMPUSWATCH_PG_PORT, default 54329.
set -euo pipefail
port="${CAMPUSWATCH_PG_PORT:-54329}"
dir="/tmp/campuswatch-pg-$port"
url="postgresql://campuswatch@127.0.0.1:$port/postgres"

bindir() {
  local d
  d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
  if [ -z "$d" ] || [ ! -x "$d/initdb" ]; then
    echo "PostgreSQL server binaries not found (install with: sudo apt-get install postgresql)" >&2
    exit 3
  fi
  echo "$d"
}

# Run a server binary as the cluster's owner: ourselves, or `postgres` when we are root.
as_owner() {
  if [ "$(id -u)" = "0" ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "${1:-}" in
  start)
    bin=$(bindir)
    if [ ! -f "$dir/PG_VERSION" ]; then
      mkdir -p "$dir"
      [ "$(id -u)" = "0" ] && chown postgres: "$dir"
      as_owner "$bin/initdb" -D "$dir" -U campuswatch --auth=trust --encoding=UTF8 --locale=C.UTF-8 >"$dir.initdb.log" 2>&1 || {
        cat "$dir.initdb.log" >&2
        exit 1
      }
    fi
    if ! as_owner "$bin/pg_ctl" -D "$dir" status >/dev/null 2>&1; then
      # fsync off: a test cluster trades crash safety for speed. Enough connections for the
      # suite's parallel test files, each with its own database and pool.
      as_owner "$bin/pg_ctl" -D "$dir" -l "$dir/server.log" -w -t 60 start \
        -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=400" >/dev/null || {
        tail -20 "$dir/server.log" >&2
        exit 1
      }
    fi
    echo "$url"
    ;;
  stop)
    bin=$(bindir)
    [ -f "$dir/PG_VERSION" ] && as_owner "$bin/pg_ctl" -D "$dir" -m fast -w stop >/dev/null 2>&1 || true
    ;;
  url)
    echo "$url"
    ;;
  *)
    echo "usage: $0 start|stop|url" >&2
    exit 2
    ;;
esac
