#!/usr/bin/env bash
# mbarrier.complete_tx.shared::cluster of a peer's bytes before the owner's arm (tx-count below
# zero, an arrival pending): does the phase complete at once? Variants: 8192 and 16 bytes,
# 1 and 2 expected arrivals; control: the arm first. Usage: run.sh [sass|jit|ptxas=PATH]
#   sass (default)  nvcc -cubin -arch=sm_90a
#   jit             nvcc -ptx -arch=compute_90a, loaded as PTX (the driver JIT compiles it)
#   ptxas=PATH      that ptxas -arch=sm_90a on the same PTX (.version lowered for older ptxas)
# Exit 0 whatever the outcome, 2 when something does not build.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mode=${1:-sass}
. "$here/../common/toolchain.sh"  # NVCC, CUDA_HOME, $tmp, build_sm90a

build_sm90a "$mode" "$here/tx_before_arm_host.cpp" "$here/tx_before_arm.cu"  # $tmp/host, $image

rc=0
out=$(timeout 120 "$tmp/host" "$image" 2>&1) || rc=$?
res=$(sed -n 's/^RESULT //p' <<< "$out")
if [ -z "$res" ]; then
  echo "host program gave no result (exit $rc): $(tr '\n' ' ' <<< "$out" | cut -c1-200)"
  outcome "NOT REPRODUCED (not run: no GPU or no CUDA driver here)"
  exit 0
fi
grep -v '^RESULT ' <<< "$out" || true
case "$res" in
  early-complete*) outcome "REPRODUCED (a phase completed by a peer's bytes before its arrival: ${res#early-complete: })" ;;
  probe-decided-late*) outcome "REPRODUCED (not the GPU's barrier: ${res#probe-decided-late: }: the try_wait's predicate resolved after the thread's own later arrive)" ;;
  pending*) outcome "NOT REPRODUCED (every phase stayed pending until its arrivals, whichever kernel)" ;;
  control-failed*) outcome "NOT REPRODUCED (the probe's control failed: ${res#control-failed: })" ;;
  *) outcome "NOT REPRODUCED (not run: $res)" ;;
esac
