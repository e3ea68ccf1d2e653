#!/usr/bin/env bash
# libcu++'s host encoder of a range access_property (__block_encoding_host) against the
# descriptor createpolicy.range makes on the GPU for the same pointer, window and total, on
# device and managed memory. Usage: run.sh [sass|jit|ptxas=PATH]
#   sass (default)  nvcc -cubin -arch=sm_90a
#   jit             nvcc -ptx -arch=compute_90a, loaded as PTX (the driver JIT compiles it)
#   ptxas=PATH      that ptxas -arch=sm_90a on the same PTX (.version lowered for older ptxas)
# Exit 0 whatever the outcome, 2 when something does not build.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mode=${1:-sass}
. "$here/../common/toolchain.sh"  # NVCC, CUDA_HOME, $tmp, build_sm90a

build_sm90a "$mode" "$here/policy_range_host.cpp" "$here/policy_range.cu"  # $tmp/host, $image

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
  differ*) outcome "REPRODUCED (the host encoder's descriptor is not the GPU's: $res)" ;;
  same*) outcome "NOT REPRODUCED (the host encoder and createpolicy.range agree)" ;;
  *) outcome "NOT REPRODUCED (not run: $res)" ;;
esac
