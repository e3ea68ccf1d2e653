#!/usr/bin/env bash
# cp.reduce.async.bulk.tensor .and/.or/.xor through a tensor map of INT64 elements: the PTX
# ISA's table gives these operations the .b64 element type; do they work as through an UINT64
# map (and as min/max through the same INT64 map)? Usage: run.sh [sass|jit|ptxas=PATH]
#   sass (default)  nvcc -cubin -arch=sm_90a
#   jit             nvcc -ptx -arch=compute_90a, loaded as PTX (the driver JIT compiles it)
#   ptxas=PATH      that ptxas -arch=sm_90a on the same PTX (.version lowered for older ptxas)
# One process per variant (a fault poisons the context). Exit 0 whatever the outcome, 2 when
# something does not build.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mode=${1:-sass}
. "$here/../common/toolchain.sh"  # NVCC, CUDA_HOME, $tmp, build_sm90a

build_sm90a "$mode" "$here/tensor_reduce_b64_host.cpp" "$here/tensor_reduce_b64.cu"  # $tmp/host, $image

if command -v cuobjdump > /dev/null && [ "$mode" != jit ]; then
  for fn in reduce_and_1d reduce_min_1d; do
    echo "SASS of $fn (cuobjdump -sass), the tensor reduction:"
    cuobjdump -sass -fun "$fn" "$image" | grep -E 'UTMAREDG|UTMA' | sed 's/ *\/\* 0x[0-9a-f]* \*\/ *$//' || true
  done
fi

# The variant list is built in, so it does not need the driver.
variants=$(sed -n '/kVariants\[\]\[2\] = {/,/};/p' "$here/tensor_reduce_b64_host.cpp" | grep -o '{"[a-z0-9]*", "[a-z]*"}' | tr -d '{}",' )
ran=0
declare -A result
while read -r type op; do
  rc=0
  out=$(timeout 120 "$tmp/host" "$image" "$type" "$op" 2>&1) || rc=$?
  res=$(sed -n 's/^RESULT //p' <<< "$out")
  if [ -z "$res" ] && [ $ran = 0 ] && [ $rc = 127 ]; then  # the host does not even load (no libcuda.so.1)
    echo "host program cannot run here: $(tr '\n' ' ' <<< "$out" | cut -c1-200)"
    break
  fi
  [ -z "$res" ] && res="crash (exit $rc) $(tr '\n' ' ' <<< "$out" | cut -c1-200)"
  case "$res" in ok* | wrong-data* | fault*) ran=$((ran + 1)) ;; esac
  result[$type.$op]=$res
  echo "VARIANT $type.$op: cp.reduce.async.bulk.tensor.1d...$op.tile through a CU_TENSOR_MAP_DATA_TYPE_${type^^} map, box of 16 inside: expected each box element old $op src and nothing else changed, observed $res"
done <<< "$variants"

# Every lookup has a default: a variant that never ran (the loop stopped early) must not end the
# script under set -u before its outcome line.
int64_and=${result[int64.and]:-not run} uint64_and=${result[uint64.and]:-not run}
if [ $ran = 0 ]; then outcome "NOT REPRODUCED (not run: no GPU or no CUDA driver here)"
elif [[ "$int64_and" == "fault CUDA_ERROR_ILLEGAL_INSTRUCTION"* ]] && [[ "$uint64_and" == ok* ]]; then
  # The list of faulted variants: a loop whose last test is false returns 1, which under
  # pipefail and set -e ended the script here, after its last variant and before its outcome
  # (seen on an H100, 2026-11-25): the test sits in an if.
  faulted=$(for k in "${!result[@]}"; do if [[ "${result[$k]}" == fault* ]]; then echo "$k"; fi; done | sort | tr '\n' ' ')
  outcome "REPRODUCED (int64.and faults with CUDA_ERROR_ILLEGAL_INSTRUCTION, uint64.and reduces correctly; faulted: ${faulted% })"
else outcome "NOT REPRODUCED (int64.and: $int64_and; uint64.and: $uint64_and)"; fi
