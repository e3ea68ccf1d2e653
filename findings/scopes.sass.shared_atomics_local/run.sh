#!/usr/bin/env bash
# Which SASS atomic does each API give for a block-scoped add on a __shared__ int?
# Usage: run.sh [sass|jit|ptxas=PATH]
#   sass  (default) nvcc -cubin for sm_80 and sm_90a (no GPU needed)
#   jit   nvcc -ptx for compute_90a, compiled by the driver's JIT (cuLink*; needs a GPU)
#   ptxas=PATH  nvcc -ptx, then that ptxas for sm_80 and sm_90a (.version lowered if needed)
# Reading the SASS needs cuobjdump (or nvdisasm) from the CUDA toolkit.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mode=${1:-sass}
. "$here/../common/toolchain.sh"  # NVCC, $tmp, lower_version
kernels="counter_cuda_atomic counter_atomic_ref counter_nv_builtin counter_atomicadd counter_atomicadd_block"
controls="counter_atomicadd counter_atomicadd_block"

echo "toolchain: $mode"
"$NVCC" --version | tail -n 1
cubins=()
case "$mode" in
  sass)
    for a in sm_80 sm_90a; do
      "$NVCC" -cubin -arch=$a -o "$tmp/$a.cubin" "$here/shared_atomics.cu" || exit 2
      cubins+=("$a")
    done ;;
  jit)
    "$NVCC" -ptx -arch=compute_90a -o "$tmp/k.ptx" "$here/shared_atomics.cu" || exit 2
    "$NVCC" -o "$tmp/jit_cubin" "$here/jit_cubin.cpp" -lcuda || exit 2
    "$tmp/jit_cubin" "$tmp/k.ptx" "$tmp/jit_sm_90a.cubin" || { echo "driver JIT failed (no GPU?)"; outcome "NOT REPRODUCED (not run: driver JIT failed)"; exit 0; }
    cubins+=("jit_sm_90a") ;;
  ptxas=*)
    PTXAS=${mode#ptxas=}
    "$PTXAS" --version | tail -n 1
    for a in 80 90a; do
      "$NVCC" -ptx -arch=compute_$a -o "$tmp/k$a.ptx" "$here/shared_atomics.cu" || exit 2
      lower_version "$tmp/k$a.ptx" "$PTXAS"
      "$PTXAS" -arch=sm_$a -o "$tmp/sm_$a.cubin" "$tmp/k$a.ptx" || exit 2
      cubins+=("sm_$a")
    done ;;
  *) echo "usage: $0 [sass|jit|ptxas=PATH]" >&2; exit 2 ;;
esac

DIS=$(command -v cuobjdump || true)
if [ -z "$DIS" ]; then
  if command -v nvdisasm > /dev/null; then DIS=nvdisasm; else
    echo "no cuobjdump or nvdisasm here: the cubins built, but their SASS cannot be read"
    outcome "NOT REPRODUCED (not run: SASS cannot be read here)"; exit 0
  fi
fi
# "function opcode" per atomic instruction in the cubin.
atomics_of() {
  if [ "$(basename "$DIS")" = cuobjdump ]; then "$DIS" -sass "$1"; else "$DIS" -c "$1"; fi |
    awk '/Function :/ {f=$3} /^\.text\./ {f=$1; sub(/^\.text\./,"",f); sub(/:$/,"",f)}
         match($0, /(ATOMS|ATOMG|ATOM|RED|REDG)\.[A-Z0-9_.]*/) {print f, substr($0, RSTART, RLENGTH)}'
}

lost=0 controls_ok=1
for c in "${cubins[@]}"; do
  atomics_of "$tmp/$c.cubin" > "$tmp/$c.txt"
  echo "SASS atomics of $c ($DIS):"; sed 's/^/  /' "$tmp/$c.txt"
  for k in $kernels; do
    ops=$(awk -v k="$k" '$1 == k {print $2}' "$tmp/$c.txt" | sort -u | tr '\n' ' ')
    ops=${ops% }
    if [ -z "$ops" ]; then form=unknown; elif grep -q '^ATOMS\.' <<< "${ops// /$'\n'}"; then form=shared; else form=generic; fi
    echo "VARIANT $k@$c: expected ATOMS (shared-memory atomic), observed ${ops:-no atomic instruction} ($form)"
    if [[ " $controls " == *" $k "* ]]; then [ $form = shared ] || controls_ok=0; elif [ $form = generic ]; then lost=1; fi
  done
done
if [ $lost = 1 ] && [ $controls_ok = 1 ]; then outcome "REPRODUCED (a scoped-API kernel is generic ATOM while both atomicAdd controls are ATOMS)"
elif [ $lost = 1 ]; then outcome "NOT REPRODUCED (the atomicAdd controls are not ATOMS either: a different behaviour)"
else outcome "NOT REPRODUCED (every scoped-API kernel is ATOMS)"; fi
