#!/usr/bin/env bash
# Does ptxas reject mapa with a type other than .u32 / .u64 (the PTX ISA's .type = { .u32, .u64 })?
# It rejects .b32/.b64 and accepts .s32/.s64. No GPU needed. Usage: run.sh [sass|jit|ptxas=PATH]
set -euo pipefail
source "$(cd "$(dirname "$0")" && pwd)/../common/ptxas_check.sh" "${1:-sass}"
check control_u32        sm_90 7.8 'mapa.shared::cluster.u32 %r1, %r_s, %r0;' accepted
check control_u64        sm_90 7.8 'mapa.u64 %rd_g, %rd_g, %r0;' accepted
check control_b32        sm_90 7.8 'mapa.shared::cluster.b32 %r1, %r_s, %r0;' rejected
check violation_s32      sm_90 7.8 'mapa.shared::cluster.s32 %r1, %r_s, %r0;' rejected
check violation_s64      sm_90 7.8 'mapa.s64 %rd_g, %rd_g, %r0;' rejected
finish
