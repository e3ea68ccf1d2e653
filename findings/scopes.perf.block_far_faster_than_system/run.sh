#!/usr/bin/env bash
# Relaxed block-scoped atomics are no faster than system-scoped ones (seed 002: far faster);
# seq_cst shows the scope's cost for contrast.
# Usage: run.sh   (exit 0 whatever the outcome, 2 when it does not build; needs an sm_70+ GPU)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../common/toolchain.sh"  # NVCC, CUDA_HOME, $tmp
arch=native; nvidia-smi > /dev/null 2>&1 || arch=sm_80
"$NVCC" -O2 -std=c++17 -arch=$arch -o "$tmp/scope_rate" "$here/scope_rate.cu" || exit 2
command -v nvidia-smi > /dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | sed 's/^/device: /' || true
rc=0
out=$("$tmp/scope_rate" 2>&1) || rc=$?
printf '%s\n' "$out"
if grep -q '^RESULT ' <<< "$out"; then outcome_said=1; else outcome "NOT REPRODUCED (the program gave no result: exit $rc)"; fi
