#!/usr/bin/env bash
# Downloads the Debian packages cuconform builds with into .deps/debs (git-ignored), to be
# carried to a machine with no package registry (the GPU machine: name .deps in `carry`).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$root/.deps/debs"
cd "$root/.deps/debs"
apt-get download catch2 libyaml-cpp-dev nlohmann-json3-dev
ls -l "$root/.deps/debs"
