#!/usr/bin/env bash
# Downloads the Debian packages cuconform builds with into .deps/debs (git-ignored), for a GPU
# runner that cannot reach a package registry: copy .deps/debs there with the source tree and
# ci/setup.sh unpacks them (ci/snapshot-for-gpu.sh puts both in one folder).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$root/.deps/debs"
cd "$root/.deps/debs"
# Only what is not there yet: re-running it after a dependency was added fetches just that one.
for p in catch2 libyaml-cpp-dev nlohmann-json3-dev libsqlite3-dev libpq-dev zlib1g-dev libcli11-dev libre2-dev; do
  compgen -G "${p}_*.deb" >/dev/null || apt-get download "$p"
done
# Optional, for the history test on PostgreSQL (skipped where the server does not run): the server
# the `postgresql` package names (postgresql-15 on Debian 12), its client and libpq, which the
# cuconform executable also opens at run time for --db postgresql://...
server=$(apt-cache depends postgresql 2>/dev/null | awk '/Depends: postgresql-[0-9]+$/ {print $2; exit}')
for p in postgresql ${server:+"$server" "postgresql-client-${server#postgresql-}"} libpq5; do
  compgen -G "${p}_*.deb" >/dev/null || apt-get download "$p" || echo "fetch-debs: $p not downloaded (optional)"
done
ls -l "$root/.deps/debs"
