#!/usr/bin/env bash
# cp.reduce.async.bulk .add.f32: does it flush subnormal inputs and results to sign-preserving
# zero, as the PTX ISA says the current implementation does? red.global.add.f32 on the same
# values for contrast. Usage: run.sh [sass|jit|ptxas=PATH]
#   sass (default)  nvcc -cubin -arch=sm_90a
#   jit             nvcc -ptx -arch=compute_90a, loaded as PTX (the driver JIT compiles it)
#   ptxas=PATH      that ptxas -arch=sm_90a on the same PTX (.version lowered for older ptxas)
# Exit 0 whatever the outcome, 2 when something does not build.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mode=${1:-sass}
. "$here/../common/toolchain.sh"  # NVCC, CUDA_HOME, $tmp, build_sm90a

build_sm90a "$mode" "$here/bulk_reduce_f32_host.cpp" "$here/bulk_reduce_f32.cu"  # $tmp/host, $image

if command -v cuobjdump > /dev/null && [ "$mode" != jit ]; then
  for fn in bulk_add_f32 red_add_f32; do
    echo "SASS of $fn (cuobjdump -sass), the reduction:"
    cuobjdump -sass -fun "$fn" "$image" | grep -E 'UBLKRED|RED|ATOM' | sed 's/ *\/\* 0x[0-9a-f]* \*\/ *$//' || true
  done
fi

rc=0
out=$(timeout 120 "$tmp/host" "$image" 2>&1) || rc=$?
res=$(sed -n 's/^RESULT //p' <<< "$out")
if [ -z "$res" ]; then
  echo "host program gave no result (exit $rc): $(tr '\n' ' ' <<< "$out" | cut -c1-200)"
  outcome "NOT REPRODUCED (not run: no GPU or no CUDA driver here)"
  exit 0
fi
grep -v '^RESULT ' <<< "$out" || true
echo "VARIANT bulk_add_f32: cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 of 12 pairs: expected the flushed sums (sign-preserving zero for subnormal inputs and results), observed $res"
case "$res" in
  keeps-subnormals*) outcome "REPRODUCED (the bulk .add.f32 kept subnormals: the IEEE sum where it differs from the flushed one)" ;;
  error* ) outcome "NOT REPRODUCED (not run: $res)" ;;
  *) outcome "NOT REPRODUCED ($res)" ;;
esac
