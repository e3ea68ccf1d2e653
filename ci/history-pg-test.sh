#!/usr/bin/env bash
# The history tests that touch the database ([history-db]) on a throwaway PostgreSQL: the server
# from Debian's `postgresql` package, a fresh cluster (initdb) in a temporary folder, reachable only
# through a unix socket there (no TCP), run as a user that is not root (the server refuses root:
# `postgres` from the package, else `nobody`), stopped and deleted afterwards.
# Registered with CTest (label host); without the server it reports SKIPPED (exit 77), never passes.
# usage: ci/history-pg-test.sh build/cuconform-tests
set -euo pipefail
tests=${1:?usage: history-pg-test.sh PATH/cuconform-tests}
root=$(cd "$(dirname "$0")/.." && pwd)

bindir=""
for d in ${CUCONFORM_PG_BINDIR:-} $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r) \
         $(ls -d "$root"/.deps/prefix/usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
  if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ]; then bindir=$d; break; fi
done
if [ -z "$bindir" ] && command -v pg_ctl >/dev/null 2>&1 && command -v initdb >/dev/null 2>&1; then
  bindir=$(dirname "$(command -v pg_ctl)")
fi
if [ -z "$bindir" ]; then
  echo "SKIPPED: the PostgreSQL server is not installed (no initdb/pg_ctl; apt-get install postgresql): the history tests ran on SQLite only"
  exit 77
fi
# A server unpacked from .deps/debs (ci/fetch-debs.sh) finds its libraries there.
case "$bindir" in
  "$root"/.deps/prefix/*)
    libs=$(ls -d "$root"/.deps/prefix/usr/lib/*-linux-gnu 2>/dev/null | head -1)
    export LD_LIBRARY_PATH="$libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    [ -e "$libs/libpq.so.5" ] && export CUCONFORM_LIBPQ="$libs/libpq.so.5" ;;
esac
if ! version=$("$bindir/initdb" --version 2>&1); then
  echo "SKIPPED: $bindir/initdb does not run here: $version"
  exit 77
fi

# The server's user: root only runs it through one that is not root.
run_as=()
owner=$(id -un)
if [ "$(id -u)" -eq 0 ]; then
  owner=postgres
  getent passwd postgres >/dev/null || owner=nobody
  if ! command -v runuser >/dev/null 2>&1; then
    echo "SKIPPED: running as root without runuser: cannot start PostgreSQL as another user"
    exit 77
  fi
  run_as=(runuser -u "$owner" --)
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/cuconform-pg.XXXXXX")
chmod 755 "$dir"
[ "$(id -u)" -eq 0 ] && chown "$owner" "$dir"
stop() {
  "${run_as[@]}" "$bindir/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap stop EXIT

echo "history-pg-test: $version in $dir (user $owner, unix socket only)"
if ! "${run_as[@]}" "$bindir/initdb" -D "$dir/data" -U cuconform --auth=trust -E UTF8 --no-locale >"$dir/initdb.log" 2>&1; then
  cat "$dir/initdb.log"
  echo "history-pg-test: initdb failed"
  exit 1
fi
if ! "${run_as[@]}" "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
       -o "-c listen_addresses='' -k $dir -p 5432 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" start >/dev/null; then
  cat "$dir/server.log"
  echo "history-pg-test: the server did not start"
  exit 1
fi

url="postgresql:///{db}?host=$dir&port=5432&user=cuconform"
echo "history-pg-test: CUCONFORM_HISTORY_TEST_DB=$url"
CUCONFORM_HISTORY_TEST_DB="$url" "$tests" "[history-db]"
