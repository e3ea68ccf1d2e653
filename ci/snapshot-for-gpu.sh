#!/usr/bin/env bash
# Copies the committed tree (HEAD) and the carried .deb files into .snap/, a git-ignored
# folder the device tool carries: the GPU run then builds exactly what is committed, not
# whatever is mid-edit in the working tree. Use: carry [".snap"], command
# `cd .snap && bash ci/gpu-run.sh $OUT`.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
[ -e .deps/debs ] || bash ci/fetch-debs.sh
rm -rf .snap
mkdir .snap
git archive HEAD | tar -x -C .snap
git rev-parse --short HEAD > .snap/.commit
mkdir -p .snap/.deps
cp -r .deps/debs .snap/.deps/
du -sh .snap
