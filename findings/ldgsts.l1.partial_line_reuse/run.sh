#!/usr/bin/env bash
# A partial cp.async.ca of a line speeds up a later cp.async.ca only within the fetched 32-byte
# sector, not across the rest of the 128-byte line (seed 003 says the rest of the line).
# Usage: run.sh   (exit 0 whatever the outcome, 2 when it does not build; needs an sm_80+ GPU)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../common/toolchain.sh"  # NVCC, CUDA_HOME, $tmp
# The local GPU's arch; without a GPU (nvcc's native would mean sm_75 there) build for sm_80, so
# the build is checked and the run says why it cannot go on.
arch=native; nvidia-smi > /dev/null 2>&1 || arch=sm_80
"$NVCC" -O2 -arch=$arch -o "$tmp/partial_line" "$here/partial_line.cu" || exit 2
command -v nvidia-smi > /dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | sed 's/^/device: /' || true
# The program prints its own RESULT line; if it stops without one (no driver, a fault), say so.
rc=0
out=$("$tmp/partial_line" 2>&1) || rc=$?
printf '%s\n' "$out"
if grep -q '^RESULT ' <<< "$out"; then outcome_said=1; else outcome "NOT REPRODUCED (the program gave no result: exit $rc)"; fi
