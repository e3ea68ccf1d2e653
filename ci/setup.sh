#!/usr/bin/env bash
# Installs what cuconform builds with: Catch2 2.13, yaml-cpp 0.7, nlohmann/json 3.11, CLI11 2.1, SQLite,
# libpq's header, zlib and RE2 (Debian's catch2, libyaml-cpp-dev, nlohmann-json3-dev, libcli11-dev,
# libsqlite3-dev, libpq-dev: the history database; zlib1g-dev: results files as .json.gz;
# libre2-dev: the known list's regexes). On a runner without a package
# registry, .deps/debs/*.deb (downloaded by ci/fetch-debs.sh on a machine with apt and copied
# here with the tree) are unpacked into .deps/prefix instead, which CMake finds on its own.
# Extras used by some host tests (chromium, yamllint, the PostgreSQL server; Slurm and munge for
# the fleet test; prometheus-node-exporter and prometheus (promtool) for the metrics test) are
# installed when apt-get can; their tests say so and skip when they are
# absent. The build tools (cmake, ninja, g++, git) are installed when missing (a bare Debian 12
# image: ci/k8s/Dockerfile, the host-CI jobs). Without root, sudo is used where there is one;
# where there is none, what is required is named (exit 1) and the extras are skipped.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
packages=(catch2 libyaml-cpp-dev nlohmann-json3-dev libsqlite3-dev libpq-dev zlib1g-dev libcli11-dev libre2-dev)
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

# Optional, from the npm registry into .deps/npm (no root needed): the Kubernetes API schema the
# manifest test reads (ci/k8s/validate.mjs). Pinned, so CI validates against one schema.
npm_extras=(kubernetes-models@5.1.0 yaml@2.9.1)
if [ "${CUCONFORM_SETUP_EXTRAS:-yes}" != no ] && command -v npm >/dev/null 2>&1 &&
   [ ! -d "$root/.deps/npm/node_modules/kubernetes-models" ]; then
  echo "setup: npm install ${npm_extras[*]} into .deps/npm (optional: the Kubernetes manifest test)"
  npm install --prefix "$root/.deps/npm" --no-audit --no-fund --loglevel=error "${npm_extras[@]}" >/dev/null 2>&1 ||
    echo "setup: npm extras not installed; the manifest test will say so"
fi

need=()
for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || need+=("$p"); done
for t in cmake:cmake ninja:ninja-build g++:g++ git:git; do
  command -v "${t%%:*}" >/dev/null 2>&1 || need+=("${t#*:}")
done
extras=()
# CUCONFORM_SETUP_EXTRAS=no: the build's dependencies only (an image: ci/k8s/Dockerfile).
if [ "${CUCONFORM_SETUP_EXTRAS:-yes}" != no ]; then
  command -v chromium >/dev/null 2>&1 || extras+=(chromium)
  command -v yamllint >/dev/null 2>&1 || extras+=(yamllint)
  compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || extras+=(postgresql)
  command -v slurmctld >/dev/null 2>&1 || extras+=(slurm-wlm)
  command -v munged >/dev/null 2>&1 || extras+=(munge)
  command -v ssh-keygen >/dev/null 2>&1 || extras+=(openssh-client)  # certify/verify and their test
  command -v prometheus-node-exporter >/dev/null 2>&1 || extras+=(prometheus-node-exporter)
  command -v promtool >/dev/null 2>&1 || extras+=(prometheus)
fi
if [ ${#need[@]} -eq 0 ] && [ ${#extras[@]} -eq 0 ]; then
  echo "setup: dependencies already installed"
  exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    sudo="sudo"
  else
    # A login node without sudo: say what an administrator must install, skip the extras.
    [ ${#extras[@]} -gt 0 ] && echo "setup: not root and no sudo: optional extras not installed (${extras[*]}); their tests will say so"
    [ ${#need[@]} -eq 0 ] && exit 0
    echo "setup: not root and no sudo: ask for ${need[*]} to be installed (apt-get install ${need[*]}), or use ci/fetch-debs.sh's .deps/debs" >&2
    exit 1
  fi
fi
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
  echo "setup: apt-get install ${extras[*]} (optional: report rendering, YAML lint, history-on-PostgreSQL, Slurm fleet and metrics tests)"
  $sudo apt-get install -y -q --no-install-recommends "${extras[@]}" >/dev/null || echo "setup: optional extras not installed; their tests will say so"
fi
