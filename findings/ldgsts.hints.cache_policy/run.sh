#!/usr/bin/env bash
# cp.async .L2::cache_hint + createpolicy.fractional: which kernel shapes fault?
# Usage: run.sh [sass|jit|ptxas=PATH]
#   sass (default)  nvcc -cubin -arch=sm_90a; also the suite's build (fatbin, -O3 -lineinfo)
#   jit             nvcc -ptx -arch=compute_90a, loaded as PTX: the driver JIT compiles it
#   ptxas=PATH      that ptxas -arch=sm_90a on the same PTX (.version lowered for older ptxas)
# Every variant runs in its own process (a fault poisons the context). Exit 0 whatever the
# outcome (it is in the output), 2 when something does not build.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mode=${1:-sass}
. "$here/../common/toolchain.sh"  # NVCC, CUDA_HOME, $tmp, lower_version
src=$here/cache_hint_variants.cu

echo "toolchain: $mode"
echo "nvcc: $("$NVCC" --version | tail -n 1)"
"$NVCC" -o "$tmp/repro" "$here/repro.cpp" -L"$CUDA_HOME/lib64/stubs" -lcuda || exit 2
"$NVCC" -ptx -arch=compute_90a -o "$tmp/k.ptx" "$src" || exit 2
extra=()  # variants also run from the suite's own build
case "$mode" in
  sass)
    "$NVCC" -cubin -arch=sm_90a -o "$tmp/k.cubin" "$src" || exit 2
    image=$tmp/k.cubin sass_of=$tmp/k.cubin
    # The suite's build: one fatbin, sm_80 + sm_90a SASS + compute_80 PTX, -O3 -lineinfo.
    "$NVCC" -fatbin -gencode=arch=compute_80,code=sm_80 -gencode=arch=compute_90a,code=sm_90a \
      -gencode=arch=compute_80,code=compute_80 -std=c++17 -O3 -lineinfo -o "$tmp/suite.fatbin" "$src" || exit 2
    extra=(X_el_ca16 X_ef_cg16 S_el_ca16 M) ;;
  jit)
    image=$tmp/k.ptx sass_of=$tmp/jit.cubin ;;
  ptxas=*)
    PTXAS=${mode#ptxas=}
    echo "ptxas: $("$PTXAS" --version | tail -n 1)"
    lower_version "$tmp/k.ptx" "$PTXAS"
    "$PTXAS" -arch=sm_90a -o "$tmp/k.cubin" "$tmp/k.ptx" || exit 2
    image=$tmp/k.cubin sass_of=$tmp/k.cubin ;;
  *) echo "usage: $0 [sass|jit|ptxas=PATH]" >&2; exit 2 ;;
esac

# The SASS: LDGSTS per variant, and the whole of the suite's kernel and of the minimal one.
show_sass() {
  local DIS
  DIS=$(command -v cuobjdump || true)
  if [ -z "$DIS" ]; then echo "(no cuobjdump here: SASS not shown)"; return; fi
  if [ "$mode" = jit ]; then "$tmp/repro" jit-cubin "$tmp/k.ptx" "$tmp/jit.cubin" || return 0; fi
  echo
  echo "== SASS ($DIS -sass; $( [ "$mode" = jit ] && echo "the driver JIT's cubin of the same PTX" || echo "the cubin that runs"))"
  "$DIS" -sass "$sass_of" > "$tmp/all.sass"
  echo "-- LDGSTS and LDG per variant"
  awk '/Function :/ {f=$3} /LDGSTS|LDG\.E/ {sub(/^ *\/\*[0-9a-f]+\*\/ */, ""); sub(/ *\/\*.*$/, ""); print "  " f ": " $0}' "$tmp/all.sass"
  for f in v_X_el_ca16 v_M; do
    echo "-- $f"
    "$DIS" -sass -fun "$f" "$sass_of" | grep -E '^\s+/\*[0-9a-f]{4}\*/' | sed 's/ *\/\* 0x[0-9a-f]* \*\/ *$//'
  done
}

if ! "$tmp/repro" policies "$image"; then
  show_sass
  echo "cannot run here (no GPU, no CUDA driver, or the image does not load): nothing was tested"
  outcome "NOT REPRODUCED (not run: no GPU, no CUDA driver, or the image does not load)"
  exit 0
fi
variants=$(sed -n 's/^\.visible \.entry v_\([A-Za-z0-9_]*\)(.*/\1/p' "$tmp/k.ptx")

declare -A result
one() {  # NAME IMAGE LABEL
  local out rc=0 line
  out=$(timeout 120 "$tmp/repro" run "$2" "$1" 2>&1) || rc=$?
  line=$(grep -m1 '^RESULT ' <<< "$out" || true)
  if [ -z "$line" ]; then
    if [ $rc = 142 ] || [ $rc = 124 ]; then line="RESULT timeout"; else line="RESULT crash (exit $rc) $(tr '\n' ' ' <<< "$out" | cut -c1-200)"; fi
  fi
  line=${line#RESULT }
  result[$3]=${line%% *}
  echo "VARIANT $3: expected ok (data unchanged), observed $line"
}
for v in $variants; do one "$v" "$image" "$v"; done
for v in "${extra[@]}"; do one "$v" "$tmp/suite.fatbin" "$v@suite_build"; done

echo
echo "== table (variant: result); X_* = the suite's kernels verbatim, S_* = the suite's shape, M* = the minimal kernel, ctl_ld4 = ld.global with the policy"
for v in $variants; do printf '  %-24s %s\n' "$v" "${result[$v]}"; done
for v in "${extra[@]}"; do printf '  %-24s %s\n' "$v@suite_build" "${result[$v@suite_build]}"; done

echo
echo "== narrowing (one change at a time)"
base=${result[S_el_ca16]:-?}
echo "  S_el_ca16 (suite shape): $base; M (minimal): ${result[M]:-?}"
for v in $variants; do
  case "$v" in
    S_el_ca16 | S_*_ca4 | S_*_ca8 | S_*_ca16 | S_*_cg16) ;;
    S_*) [ "${result[$v]}" != "$base" ] && echo "  $v: ${result[$v]} (suite shape is $base): this change matters" ;;
    M_*) [ "${result[$v]}" != "${result[M]:-?}" ] && echo "  $v: ${result[$v]} (minimal is ${result[M]:-?}): this change matters" ;;
  esac
done || true

show_sass

faults=0
for k in "${!result[@]}"; do case "${result[$k]}" in fault | wrong-data) faults=$((faults + 1)) ;; esac; done
echo
if [ $faults -gt 0 ]; then outcome "REPRODUCED ($faults of ${#result[@]} variants faulted or changed the data)"; else outcome "NOT REPRODUCED (no variant of ${#result[@]} faulted or changed the data)"; fi
