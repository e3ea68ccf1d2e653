#!/usr/bin/env bash
# Does ptxas accept every scope the PTX ISA names for red.async .release .global? The syntax
# block says .scope = { .gpu, .cluster }; the PTX ISA Notes and the .mmio condition speak of
# .gpu and .sys (as st.async's release block does). No GPU needed.
# Usage: run.sh [sass|jit|ptxas=PATH]
set -euo pipefail
source "$(cd "$(dirname "$0")" && pwd)/../common/ptxas_check.sh" "${1:-sass}"
check control_gpu         sm_100 8.7 'red.async.release.gpu.global.add.u32 [%rd_g], %r1;' accepted
check control_sys         sm_100 8.7 'red.async.release.sys.global.add.u32 [%rd_g], %r1;' accepted
check control_cta         sm_100 8.7 'red.async.release.cta.global.add.u32 [%rd_g], %r1;' rejected
check violation_cluster   sm_100 8.7 'red.async.release.cluster.global.add.u32 [%rd_g], %r1;' accepted
finish
