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
. "$here/../common/toolchain.sh"  # NVCC, CUDA_HOME, $tmp, lower_version

echo "toolchain: $mode"
echo "nvcc: $("$NVCC" --version | tail -n 1)"
"$NVCC" -o "$tmp/host" "$here/bulk_reduce_f32_host.cpp" -L"$CUDA_HOME/lib64/stubs" -lcuda || exit 2
"$NVCC" -ptx -arch=compute_90a -o "$tmp/k.ptx" "$here/bulk_reduce_f32.cu" || exit 2
case "$mode" in
  sass) "$NVCC" -cubin -arch=sm_90a -o "$tmp/k.cubin" "$here/bulk_reduce_f32.cu" || exit 2; image=$tmp/k.cubin ;;
  jit) image=$tmp/k.ptx ;;
  ptxas=*)
    PTXAS=${mode#ptxas=}
    echo "ptxas: $("$PTXAS" --version | tail -n 1)"
    lower_version "$tmp/k.ptx" "$PTXAS"
    "$PTXAS" -arch=sm_90a -o "$tmp/k.cubin" "$tmp/k.ptx" || exit 2
    image=$tmp/k.cubin ;;
  *) echo "usage: $0 [sass|jit|ptxas=PATH]" >&2; exit 2 ;;
esac
command -v nvidia-smi > /dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | sed 's/^/device: /' || true

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
  echo "RESULT NOT REPRODUCED (not run: no GPU or no CUDA driver here)"
  exit 0
fi
grep -v '^RESULT ' <<< "$out" || true
echo "VARIANT bulk_add_f32: cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 of 12 pairs: expected the flushed sums (sign-preserving zero for subnormal inputs and results), observed $res"
case "$res" in
  keeps-subnormals*) echo "RESULT REPRODUCED (the bulk .add.f32 kept subnormals: the IEEE sum where it differs from the flushed one)" ;;
  error* ) echo "RESULT NOT REPRODUCED (not run: $res)" ;;
  *) echo "RESULT NOT REPRODUCED ($res)" ;;
esac
