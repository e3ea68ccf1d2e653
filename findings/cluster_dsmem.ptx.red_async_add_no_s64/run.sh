#!/usr/bin/env bash
# Does ptxas reject red.async .add.s64 with the mbarrier completion (.shared::cluster), as the
# PTX ISA's ADD syntax block for that form lists .type = { .u32, .s32, .u64 } only (.s64 is in
# the .release .global block)? No GPU needed. Usage: run.sh [sass|jit|ptxas=PATH]
set -euo pipefail
source "$(cd "$(dirname "$0")" && pwd)/../common/ptxas_check.sh" "${1:-sass}"
rd='.reg .b64 %rd<4>; mov.b64 %rd1, 1;'
form='red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes'
check control_add_u64  sm_90 8.1 "$rd $form.add.u64 [%r_s], %rd1, [%r_s];" accepted
check control_add_s32  sm_90 8.1 "$form.add.s32 [%r_s], %r1, [%r_s];" accepted
check control_inc_s32  sm_90 8.1 "$form.inc.s32 [%r_s], %r1, [%r_s];" rejected
check control_and_b64  sm_90 8.1 "$rd $form.and.b64 [%r_s], %rd1, [%r_s];" rejected
check control_min_u64  sm_90 8.1 "$rd $form.min.u64 [%r_s], %rd1, [%r_s];" rejected
check violation_add_s64 sm_90 8.1 "$rd $form.add.s64 [%r_s], %rd1, [%r_s];" rejected
finish
