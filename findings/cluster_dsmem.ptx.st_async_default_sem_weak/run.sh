#!/usr/bin/env bash
# Does ptxas treat a st.async without .sem as weak, as the PTX ISA says ("If .sem is not
# specified, it defaults to .weak")? A weak st.async must be .shared::cluster with an mbarrier
# completion, so the release-only global form without .sem should be rejected.
# No GPU needed (sm_100 is only the assembler's target). Usage: run.sh [sass|jit|ptxas=PATH]
set -euo pipefail
source "$(cd "$(dirname "$0")" && pwd)/../common/ptxas_check.sh" "${1:-sass}"
check control_release_sys       sm_100 8.7 'st.async.release.sys.global.u32 [%rd_g], %r0;' accepted
check control_release_gpu       sm_100 8.7 'st.async.release.gpu.global.u32 [%rd_g], %r0;' accepted
check control_weak_sys          sm_100 8.7 'st.async.weak.sys.global.u32 [%rd_g], %r0;' rejected
check control_mmio_no_sem       sm_100 8.7 'st.async.mmio.sys.global.u32 [%rd_g], %r0;' rejected
check violation_no_sem_sys      sm_100 8.7 'st.async.sys.global.u32 [%rd_g], %r0;' rejected
check violation_no_sem_gpu      sm_100 8.7 'st.async.gpu.global.u32 [%rd_g], %r0;' rejected
finish
