#!/usr/bin/env bash
# Does ptxas accept red.async.relaxed without a completion mechanism, which the PTX ISA says
# defaults to .mbarrier::complete_tx::bytes? No GPU needed. Usage: run.sh [sass|jit|ptxas=PATH]
set -euo pipefail
source "$(cd "$(dirname "$0")" && pwd)/../common/ptxas_check.sh" "${1:-sass}"
check control_explicit        sm_90 8.1 'red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%r_s], %r1, [%r_s];' accepted
check violation_default       sm_90 8.1 'red.async.relaxed.cluster.shared::cluster.add.u32 [%r_s], %r1, [%r_s];' accepted
finish
