#!/usr/bin/env bash
# Does ptxas reject a variable's address as the destination of st.async and red.async? The PTX
# ISA allows only a register or register + immediate offset there. No GPU needed.
# Usage: run.sh [sass|jit|ptxas=PATH]
set -euo pipefail
source "$(cd "$(dirname "$0")" && pwd)/../common/ptxas_check.sh" "${1:-sass}"
check control_st_register   sm_90 8.1 'st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%r_s+4], %r0, [%r_s];' accepted
check control_red_register  sm_90 8.1 'red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%r_s+4], %r1, [%r_s];' accepted
check violation_st_variable  sm_90 8.1 'st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [smem], %r0, [%r_s];' rejected
check violation_red_variable sm_90 8.1 'red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [smem], %r1, [%r_s];' rejected
finish
