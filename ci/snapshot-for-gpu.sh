#!/usr/bin/env bash
# For a GPU runner that cannot reach a package registry: copies the committed tree (HEAD) and
# the Debian packages it builds with (.deps/debs, from ci/fetch-debs.sh) into .snap/, a
# git-ignored folder to copy to the runner as it is. The runner then builds exactly what is
# committed, not whatever is mid-edit here: there, `cd .snap && bash ci/gpu-run.sh OUTDIR`.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bash ci/fetch-debs.sh  # fetches only the packages .deps/debs lacks
rm -rf .snap
mkdir .snap
git archive HEAD | tar -x -C .snap
git rev-parse --short HEAD > .snap/.commit
mkdir -p .snap/.deps
cp -r .deps/debs .snap/.deps/
du -sh .snap
