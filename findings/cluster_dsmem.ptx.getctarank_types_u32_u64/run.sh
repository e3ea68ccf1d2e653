#!/usr/bin/env bash
# Does ptxas reject getctarank with a type other than .u32 / .u64 (the PTX ISA's .type =
# { .u32, .u64 })? It rejects .b32/.b64 and accepts .s32/.s64. No GPU needed.
# Usage: run.sh [sass|jit|ptxas=PATH]
set -euo pipefail
source "$(cd "$(dirname "$0")" && pwd)/../common/ptxas_check.sh" "${1:-sass}"
check control_u32        sm_90 7.8 'getctarank.shared::cluster.u32 %r1, %r_s;' accepted
check control_u64        sm_90 7.8 'getctarank.u64 %r1, %rd_g;' accepted
check control_b64        sm_90 7.8 'getctarank.b64 %r1, %rd_g;' rejected
check violation_s32      sm_90 7.8 'getctarank.shared::cluster.s32 %r1, %r_s;' rejected
check violation_s64      sm_90 7.8 'getctarank.s64 %r1, %rd_g;' rejected
finish
