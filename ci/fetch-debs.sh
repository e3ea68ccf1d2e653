#!/usr/bin/env bash
# Downloads the Debian packages cuconform builds with into .deps/debs (git-ignored), for a GPU
# runner that cannot reach a package registry: copy .deps/debs there with the source tree and
# ci/setup.sh unpacks them (ci/snapshot-for-gpu.sh puts both in one folder).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$root/.deps/debs"
cd "$root/.deps/debs"
# Only what is not there yet: re-running it after a dependency was added fetches just that one.
for p in catch2 libyaml-cpp-dev nlohmann-json3-dev; do
  compgen -G "${p}_*.deb" >/dev/null || apt-get download "$p"
done
ls -l "$root/.deps/debs"
