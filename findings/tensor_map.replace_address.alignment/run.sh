#!/usr/bin/env bash
# cuTensorMapReplaceAddress accepts a 16- (not 32-) byte aligned address for an INTERLEAVE_32B
# map, which cuTensorMapEncodeTiled rejects. Host code only (Driver API, a GPU's driver needed).
# Usage: run.sh   (exit 0 whatever the outcome, 2 when it does not build)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../common/toolchain.sh"  # NVCC, CUDA_HOME, $tmp
"$NVCC" -o "$tmp/replace" "$here/replace_address.cpp" -L"$CUDA_HOME/lib64/stubs" -lcuda || exit 2
command -v nvidia-smi > /dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | sed 's/^/device: /' || true
# The program prints its own RESULT line; if it stops without one (no driver, a fault), say so.
rc=0
out=$("$tmp/replace" 2>&1) || rc=$?
printf '%s\n' "$out"
if grep -q '^RESULT ' <<< "$out"; then outcome_said=1; else outcome "NOT REPRODUCED (the program gave no result: exit $rc)"; fi
