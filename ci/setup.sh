#!/usr/bin/env bash
# Installs what cuconform builds with: Catch2 2.13, yaml-cpp 0.7 and nlohmann/json 3.11
# (Debian's catch2, libyaml-cpp-dev and nlohmann-json3-dev). With .deps/debs/*.deb present (carried to a machine with no package
# registry, see ci/fetch-debs.sh) they are unpacked into .deps/prefix instead, which
# CMake finds on its own. Extras used by some host tests (chromium, yamllint) are
# installed when apt-get can; their tests say so and skip when they are absent.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
debs=("$root"/.deps/debs/*.deb)

if [ -e "${debs[0]}" ]; then
  echo "setup: unpacking ${#debs[@]} carried .deb file(s) into .deps/prefix"
  rm -rf "$root/.deps/prefix"
  mkdir -p "$root/.deps/prefix"
  for d in "${debs[@]}"; do dpkg -x "$d" "$root/.deps/prefix"; done
  exit 0
fi

need=()
for p in catch2 libyaml-cpp-dev nlohmann-json3-dev; do dpkg -s "$p" >/dev/null 2>&1 || need+=("$p"); done
extras=()
command -v chromium >/dev/null 2>&1 || extras+=(chromium)
command -v yamllint >/dev/null 2>&1 || extras+=(yamllint)
if [ ${#need[@]} -eq 0 ] && [ ${#extras[@]} -eq 0 ]; then
  echo "setup: dependencies already installed"
  exit 0
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
if ! command -v apt-get >/dev/null 2>&1; then
  [ ${#need[@]} -eq 0 ] && exit 0
  echo "setup: missing ${need[*]} and no apt-get here: run ci/fetch-debs.sh on a machine with one and carry .deps/debs" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q >/dev/null
if [ ${#need[@]} -gt 0 ]; then
  echo "setup: apt-get install ${need[*]}"
  $sudo apt-get install -y -q "${need[@]}" >/dev/null
fi
if [ ${#extras[@]} -gt 0 ]; then
  echo "setup: apt-get install ${extras[*]} (optional: report rendering and YAML lint tests)"
  $sudo apt-get install -y -q --no-install-recommends "${extras[@]}" >/dev/null || echo "setup: optional extras not installed; their tests will say so"
fi
