#!/usr/bin/env bash
# A bulk-copy issue loop under seed 001's is_elected() runs slower than under threadIdx.x == 0,
# against the seed's "allows the compiler to generate more efficient code".
# Usage: run.sh   (exit 0 whatever the outcome, 2 when it does not build; needs an sm_90 GPU)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../common/toolchain.sh"  # NVCC, CUDA_HOME, $tmp
"$NVCC" -O2 -arch=sm_90a -o "$tmp/elect_issue" "$here/elect_issue.cu" || exit 2
"$NVCC" -arch=sm_90a -cubin -o "$tmp/elect_issue.cubin" "$here/elect_issue.cu" || exit 2
command -v nvidia-smi > /dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | sed 's/^/device: /' || true
# Instruction counts of the two issue loops (the seed's peeling loop would show as extra BRA/VOTE).
if command -v cuobjdump > /dev/null; then
  cuobjdump -sass "$tmp/elect_issue.cubin" | awk '/Function :/{f=$3} /\/\*[0-9a-f]{4}\*\//{n[f]++} /ELECT/{e[f]++} END{for (k in n) printf "sass %s: %d instructions, %d ELECT\n", k, n[k], e[k]}'
fi
rc=0
out=$("$tmp/elect_issue" 2>&1) || rc=$?
printf '%s\n' "$out"
if grep -q '^RESULT ' <<< "$out"; then outcome_said=1; else outcome "NOT REPRODUCED (the program gave no result: exit $rc)"; fi
