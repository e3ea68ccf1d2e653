# shellcheck shell=bash disable=SC2034  # PG_URL, PG_WHY: for the caller
# A throwaway PostgreSQL for tests, sourced (not run): the server from Debian's `postgresql`
# package, a fresh cluster (initdb) in a folder of the caller's, reachable only through a unix
# socket there (no TCP), run as a user that is not root (the server refuses root: `postgres`
# from the package, else `nobody`).
#   pg_throwaway_start DIR   0: started, PG_URL set (postgresql:///{db}?host=DIR&...: {db} is a
#                            database name the caller fills in); 77: no server here (PG_WHY says
#                            why); 1: it did not start (the log is printed)
#   pg_throwaway_stop        stops it (safe to call twice; the caller removes DIR)
# Used by ci/history-pg-test.sh and ci/slurm/fleet-test.sh.

pg_throwaway_start() {
  local dir=$1 root d version
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  PG_BINDIR="" PG_URL="" PG_WHY="" PG_DIR=$dir PG_RUN_AS=()
  for d in ${CUCONFORM_PG_BINDIR:-} $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r) \
           $(ls -d "$root"/.deps/prefix/usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ]; then PG_BINDIR=$d; break; fi
  done
  if [ -z "$PG_BINDIR" ]; then
    PG_WHY="the PostgreSQL server is not installed (no initdb/pg_ctl; apt-get install postgresql)"
    return 77
  fi
  if ! version=$("$PG_BINDIR/initdb" --version 2>&1); then
    PG_WHY="$PG_BINDIR/initdb does not run here: $version"
    return 77
  fi
  local owner
  owner=$(id -un)
  if [ "$(id -u)" -eq 0 ]; then
    owner=postgres
    getent passwd postgres >/dev/null || owner=nobody
    if ! command -v runuser >/dev/null 2>&1; then
      PG_WHY="running as root without runuser: cannot start PostgreSQL as another user"
      return 77
    fi
    PG_RUN_AS=(runuser -u "$owner" --)
  fi
  mkdir -p "$dir" && chmod 755 "$dir"
  [ "$(id -u)" -eq 0 ] && chown "$owner" "$dir"
  if ! "${PG_RUN_AS[@]}" "$PG_BINDIR/initdb" -D "$dir/data" -U cuconform --auth=trust -E UTF8 --no-locale >"$dir/initdb.log" 2>&1; then
    cat "$dir/initdb.log"
    return 1
  fi
  if ! "${PG_RUN_AS[@]}" "$PG_BINDIR/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
         -o "-c listen_addresses='' -k $dir -p 5432 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" start >/dev/null; then
    cat "$dir/server.log"
    return 1
  fi
  PG_URL="postgresql:///{db}?host=$dir&port=5432&user=cuconform"
  echo "throwaway-pg: $version in $dir (user $owner, unix socket only)"
}

pg_throwaway_stop() {
  [ -n "${PG_BINDIR:-}" ] && [ -d "${PG_DIR:-}/data" ] || return 0
  "${PG_RUN_AS[@]}" "$PG_BINDIR/pg_ctl" -D "$PG_DIR/data" -m immediate stop >/dev/null 2>&1 || true
}
