#!/usr/bin/env bash
# A partial cp.async.ca of a line speeds up a later cp.async.ca only within the fetched 32-byte
# sector, not across the rest of the 128-byte line (seed 003 says the rest of the line).
# Usage: run.sh   (exit 0 whatever the outcome, 2 when it does not build; needs an sm_80+ GPU)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../common/toolchain.sh"  # NVCC, CUDA_HOME, $tmp
"$NVCC" -O2 -arch=native -o "$tmp/partial_line" "$here/partial_line.cu" || exit 2
command -v nvidia-smi > /dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | sed 's/^/device: /' || true
"$tmp/partial_line"
