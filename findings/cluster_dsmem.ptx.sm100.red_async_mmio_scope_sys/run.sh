#!/usr/bin/env bash
# Does ptxas reject red.async.mmio with a scope other than .sys, as the PTX ISA says ("If .mmio
# is specified, .scope must be .sys")? No GPU needed. Usage: run.sh [sass|jit|ptxas=PATH]
set -euo pipefail
source "$(cd "$(dirname "$0")" && pwd)/../common/ptxas_check.sh" "${1:-sass}"
check control_mmio_sys        sm_100 8.7 'red.async.mmio.release.sys.global.add.u32 [%rd_g], %r1;' accepted
check control_mmio_relaxed    sm_100 8.7 'red.async.mmio.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%r_s], %r1, [%r_s];' rejected
check violation_mmio_gpu      sm_100 8.7 'red.async.mmio.release.gpu.global.add.u32 [%rd_g], %r1;' rejected
check violation_st_async_mmio_gpu sm_100 8.7 'st.async.mmio.release.gpu.global.u32 [%rd_g], %r1;' rejected
finish
