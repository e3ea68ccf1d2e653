#!/usr/bin/env bash
# Does ptxas reject red.async .release .global with an operation other than .add, as the PTX
# ISA's only .release .global syntax block (red.async{.mmio}.sem.scope{.ss}.add.type) says?
# No GPU needed. Usage: run.sh [sass|jit|ptxas=PATH]
set -euo pipefail
source "$(cd "$(dirname "$0")" && pwd)/../common/ptxas_check.sh" "${1:-sass}"
check control_add_u32 sm_100 8.7 'red.async.release.gpu.global.add.u32 [%rd_g], %r1;' accepted
check control_add_s32 sm_100 8.7 'red.async.release.gpu.global.add.s32 [%rd_g], %r1;' accepted
for form in min.u32 max.u32 min.s32 max.s32 inc.u32 dec.u32 and.b32 or.b32 xor.b32; do
  check "violation_${form/./_}" sm_100 8.7 "red.async.release.gpu.global.$form [%rd_g], %r1;" rejected
done
finish
