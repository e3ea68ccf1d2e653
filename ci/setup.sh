#!/usr/bin/env bash
# Installs what cuconform builds with: Catch2 2.13, yaml-cpp 0.7, nlohmann/json 3.11, CLI11 2.1, SQLite,
# libpq's header and zlib (Debian's catch2, libyaml-cpp-dev, nlohmann-json3-dev, libcli11-dev,
# libsqlite3-dev, libpq-dev: the history database; zlib1g-dev: results files as .json.gz). On a runner without a package
# registry, .deps/debs/*.deb (downloaded by ci/fetch-debs.sh on a machine with apt and copied
# here with the tree) are unpacked into .deps/prefix instead, which CMake finds on its own.
# Extras used by some host tests (chromium, yamllint, the PostgreSQL server) are installed when
# apt-get can; their tests say so and skip when they are absent.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
packages=(catch2 libyaml-cpp-dev nlohmann-json3-dev libsqlite3-dev libpq-dev zlib1g-dev libcli11-dev)
debs=("$root"/.deps/debs/*.deb)

if [ -e "${debs[0]}" ]; then
  echo "setup: unpacking ${#debs[@]} .deb file(s) from .deps/debs into .deps/prefix"
  rm -rf "$root/.deps/prefix"
  mkdir -p "$root/.deps/prefix"
  for d in "${debs[@]}"; do dpkg -x "$d" "$root/.deps/prefix"; done
  # .deb files fetched before a dependency was added lack it: say so here, not in CMake.
  missing=()
  for p in "${packages[@]}"; do
    compgen -G "$root/.deps/debs/${p}_*.deb" >/dev/null || dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && exit 0
  echo "setup: .deps/debs lacks ${missing[*]}: run ci/fetch-debs.sh again on a machine with apt and copy .deps/debs here" >&2
  exit 1
fi

need=()
for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || need+=("$p"); done
extras=()
command -v chromium >/dev/null 2>&1 || extras+=(chromium)
command -v yamllint >/dev/null 2>&1 || extras+=(yamllint)
compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || extras+=(postgresql)
if [ ${#need[@]} -eq 0 ] && [ ${#extras[@]} -eq 0 ]; then
  echo "setup: dependencies already installed"
  exit 0
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
if ! command -v apt-get >/dev/null 2>&1; then
  [ ${#need[@]} -eq 0 ] && exit 0
  echo "setup: missing ${need[*]} and no apt-get here: run ci/fetch-debs.sh on a machine with one and copy .deps/debs here" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q >/dev/null
if [ ${#need[@]} -gt 0 ]; then
  echo "setup: apt-get install ${need[*]}"
  $sudo apt-get install -y -q "${need[@]}" >/dev/null
fi
if [ ${#extras[@]} -gt 0 ]; then
  echo "setup: apt-get install ${extras[*]} (optional: report rendering, YAML lint and history-on-PostgreSQL tests)"
  $sudo apt-get install -y -q --no-install-recommends "${extras[@]}" >/dev/null || echo "setup: optional extras not installed; their tests will say so"
fi
