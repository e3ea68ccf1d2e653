#!/usr/bin/env bash
# Does ptxas reject prefetch with an eviction priority but no .global state space? The PTX ISA
# has only `prefetch.global.level::eviction_priority [a];`; ptxas rejects .local there and
# accepts the generic form. No GPU needed. Usage: run.sh [sass|jit|ptxas=PATH]
set -euo pipefail
source "$(cd "$(dirname "$0")" && pwd)/../common/ptxas_check.sh" "${1:-sass}"
check control_global       sm_90 7.8 'prefetch.global.L2::evict_last [%rd_g];' accepted
check control_local        sm_90 7.8 'prefetch.local.L2::evict_last [%rd_g];' rejected
check violation_generic    sm_90 7.8 'prefetch.L2::evict_last [%rd_g];' rejected
finish
