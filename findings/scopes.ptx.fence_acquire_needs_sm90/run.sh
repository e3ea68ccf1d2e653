#!/usr/bin/env bash
# Does ptxas reject fence.acquire/.release for sm_80 (and below PTX 8.6), as the PTX ISA says?
# No GPU needed. Usage: run.sh [sass|jit|ptxas=PATH]
#   sass (default) / jit: the toolkit's ptxas (nvcc's); jit has no meaning for an assembler
#   check and runs the same as sass. ptxas=PATH: that ptxas.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../common/ptxas_check.sh" "${1:-sass}"
tmp=$ptx_tmp

# Only the violations count towards the finding; a control that goes the wrong way is reported.
check control_acquire_sm90       sm_90 8.6 'fence.acquire.gpu;'      accepted
check control_release_sm90       sm_90 8.6 'fence.release.gpu;'      accepted
check control_acq_rel_sm80       sm_80 8.6 'fence.acq_rel.gpu;'      accepted
check control_cluster_sm80       sm_80 8.6 'fence.acq_rel.cluster;'  rejected
check control_proxy_ptx78        sm_90 7.8 'fence.proxy.async;'      rejected
check violation_acquire_sm80     sm_80 8.6 'fence.acquire.gpu;'      rejected
check violation_release_sm80     sm_80 8.6 'fence.release.gpu;'      rejected
check violation_acquire_cta_sm80 sm_80 8.6 'fence.acquire.cta;'      rejected
check violation_release_sys_sm80 sm_80 8.6 'fence.release.sys;'      rejected
check violation_acquire_sm75     sm_75 8.6 'fence.acquire.gpu;'      rejected
check violation_acquire_ptx78    sm_90 7.8 'fence.acquire.gpu;'      rejected
check violation_acquire_ptx85    sm_90 8.5 'fence.acquire.gpu;'      rejected
check violation_release_ptx85    sm_90 8.5 'fence.release.gpu;'      rejected
# What the accepted sm_80 fence became (needs cuobjdump).
CUOBJDUMP=$(command -v cuobjdump || true)
[ -z "$CUOBJDUMP" ] && [ -x /usr/local/cuda/bin/cuobjdump ] && CUOBJDUMP=/usr/local/cuda/bin/cuobjdump
if [ -n "$CUOBJDUMP" ]; then
  sed -e "s/^\.target .*/.target sm_80/" "$here/fence_acquire.ptx" > "$tmp/sm80.ptx"
  if "$PTXAS" -arch=sm_80 "$tmp/sm80.ptx" -o "$tmp/sm80.cubin" 2>/dev/null; then
    echo "SASS of fence.acquire.gpu assembled for sm_80 (cuobjdump -sass):"
    # Seen on an H100 machine (cuobjdump 13.0): "nvdisasm error : Illegal instruction found":
    # the disassembler rejects what the assembler produced for sm_80. Say so and go on.
    if ! sass=$("$CUOBJDUMP" -sass "$tmp/sm80.cubin" 2>&1); then
      echo "  cuobjdump failed on the sm_80 cubin: $(printf '%s' "$sass" | tr '\n' ' ')"
    else
      printf '%s\n' "$sass" | grep -E '^\s+/\*[0-9a-f]{4}\*/' | sed 's/^ */  /' || true
    fi
  fi
else
  echo "(no cuobjdump: SASS of the sm_80 module not shown)"
fi
finish
