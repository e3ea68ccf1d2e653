#!/usr/bin/env bash
# The history tests that touch the database ([history-db]) on a throwaway PostgreSQL
# (ci/throwaway-pg.sh: the server from Debian's `postgresql` package, a fresh cluster in a
# temporary folder, reachable only through a unix socket there, run as a user that is not root),
# stopped and deleted afterwards.
# Registered with CTest (label host); without the server it reports SKIPPED (exit 77), never passes.
# usage: ci/history-pg-test.sh build/cuconform-tests
set -euo pipefail
tests=${1:?usage: history-pg-test.sh PATH/cuconform-tests}
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/ci/throwaway-pg.sh"

# A server unpacked from .deps/debs (ci/fetch-debs.sh) finds its libraries there.
libs=$(ls -d "$root"/.deps/prefix/usr/lib/*-linux-gnu 2>/dev/null | head -1 || true)
if [ -n "$libs" ] && compgen -G "$root/.deps/prefix/usr/lib/postgresql/*/bin/initdb" >/dev/null &&
   ! compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null; then
  export LD_LIBRARY_PATH="$libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  [ -e "$libs/libpq.so.5" ] && export CUCONFORM_LIBPQ="$libs/libpq.so.5"
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/cuconform-pg.XXXXXX")
stop() {
  pg_throwaway_stop
  rm -rf "$dir"
}
trap stop EXIT
rc=0
pg_throwaway_start "$dir" || rc=$?
if [ "$rc" = 77 ]; then
  echo "SKIPPED: $PG_WHY: the history tests ran on SQLite only"
  exit 77
fi
[ "$rc" = 0 ] || { echo "history-pg-test: the server did not start"; exit 1; }
echo "history-pg-test: CUCONFORM_HISTORY_TEST_DB=$PG_URL"
CUCONFORM_HISTORY_TEST_DB="$PG_URL" "$tests" "[history-db]"
