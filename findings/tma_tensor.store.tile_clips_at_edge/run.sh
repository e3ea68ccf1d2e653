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
. "$here/../common/toolchain.sh"  # NVCC, CUDA_HOME, $tmp, lower_version

echo "toolchain: $mode"
echo "nvcc: $("$NVCC" --version | tail -n 1)"
"$NVCC" -o "$tmp/host" "$here/tma_store_host.cpp" -L"$CUDA_HOME/lib64/stubs" -lcuda || exit 2
"$NVCC" -ptx -arch=compute_90a -o "$tmp/k.ptx" "$here/tma_store.cu" || exit 2
case "$mode" in
  sass) "$NVCC" -cubin -arch=sm_90a -o "$tmp/k.cubin" "$here/tma_store.cu" || exit 2; image=$tmp/k.cubin ;;
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
  case "$v" in edge_x_2d_w12 | inside_2d) ;; *) [[ "$res" == written-outside* ]] && outside=$((outside + 1)) ;; esac
  echo "VARIANT $v: $what: expected only the in-bounds box elements to change, observed $res"
done
if [ $ran = 0 ]; then echo "NOT REPRODUCED (not run: no GPU or no CUDA driver here)"
elif [ $outside -gt 0 ]; then echo "REPRODUCED ($outside edge variants wrote outside the tensor)"
else echo "NOT REPRODUCED"; fi
