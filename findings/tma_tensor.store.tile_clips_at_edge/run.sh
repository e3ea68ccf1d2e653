#!/usr/bin/env bash
# A tile-mode tensor store over the dimension-0 edge: does it write past globalDim[0]?
# Usage: run.sh [sass|jit|ptxas=PATH]
#   sass (default)  nvcc -cubin -arch=sm_90a
#   jit             nvcc -ptx -arch=compute_90a, loaded as PTX (the driver JIT compiles it)
#   ptxas=PATH      that ptxas -arch=sm_90a on the same PTX (.version lowered for older ptxas)
# One process per variant. Exit 0 whatever the outcome, 2 when something does not build.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mode=${1:-sass}
. "$here/../common/toolchain.sh"  # NVCC, CUDA_HOME, $tmp, build_sm90a

build_sm90a "$mode" "$here/tma_store_host.cpp" "$here/tma_store.cu"  # $tmp/host, $image

if command -v cuobjdump > /dev/null && [ "$mode" != jit ]; then
  echo "SASS of store_2d (cuobjdump -sass):"
  cuobjdump -sass -fun store_2d "$image" | grep -E '^\s+/\*[0-9a-f]{4}\*/' | sed 's/ *\/\* 0x[0-9a-f]* \*\/ *$//'
fi

ran=0 outside=0
for v in $("$tmp/host" "$image" list); do
  rc=0
  out=$(timeout 120 "$tmp/host" "$image" "$v" 2>&1) || rc=$?
  what=$(sed -n 's/^WHAT //p' <<< "$out")
  res=$(sed -n 's/^RESULT //p' <<< "$out")
  [ -z "$res" ] && res="crash (exit $rc) $(tr '\n' ' ' <<< "$out" | cut -c1-200)"
  case "$res" in ok* | written-outside* | wrong-data* | fault*) ran=$((ran + 1)) ;; esac
  case "$v" in edge_x_2d_w12 | inside_2d) ;; *) if [[ "$res" == written-outside* ]]; then outside=$((outside + 1)); fi ;; esac
  echo "VARIANT $v: $what: expected only the in-bounds box elements to change, observed $res"
done
if [ $ran = 0 ]; then outcome "NOT REPRODUCED (not run: no GPU or no CUDA driver here)"
elif [ $outside -gt 0 ]; then outcome "REPRODUCED ($outside edge variants wrote outside the tensor)"
else outcome "NOT REPRODUCED (no edge variant wrote outside the tensor)"; fi
