#!/usr/bin/env bash
# Does ptxas reject st.async with a state space other than .shared::cluster, as the PTX ISA
# says (".ss, if specified, must be .shared::cluster"), the way it does for red.async?
# No GPU needed. Usage: run.sh [sass|jit|ptxas=PATH]
set -euo pipefail
source "$(cd "$(dirname "$0")" && pwd)/../common/ptxas_check.sh" "${1:-sass}"
check control_st_cluster      sm_90 8.1 'st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%r_s], %r0, [%r_s];' accepted
check control_red_cta         sm_90 8.1 'red.async.relaxed.cluster.shared::cta.mbarrier::complete_tx::bytes.add.u32 [%r_s], %r1, [%r_s];' rejected
check violation_st_cta        sm_90 8.1 'st.async.shared::cta.mbarrier::complete_tx::bytes.u32 [%r_s], %r0, [%r_s];' rejected
check violation_st_shared     sm_90 8.1 'st.async.shared.mbarrier::complete_tx::bytes.u32 [%r_s], %r0, [%r_s];' rejected
finish
