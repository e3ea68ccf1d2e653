#!/usr/bin/env bash
# Does ptxas reject cp.async with the .shared::cta sub-qualifier below PTX ISA 7.8, as the PTX
# ISA says (and as the same ptxas does for ld.shared::cta and mbarrier.*::cta)? No GPU needed.
# Usage: run.sh [sass|jit|ptxas=PATH]
set -euo pipefail
source "$(cd "$(dirname "$0")" && pwd)/../common/ptxas_check.sh" "${1:-sass}"
check control_ca_ptx78       sm_80 7.8 'cp.async.ca.shared::cta.global [%r_s], [%rd_g], 16;' accepted
check control_plain_ptx77    sm_80 7.7 'cp.async.ca.shared.global [%r_s], [%rd_g], 16;' accepted
check control_ld_cta_ptx77   sm_80 7.7 'ld.shared::cta.u32 %r1, [%r_s];' rejected
check control_mbar_cta_ptx77 sm_80 7.7 'mbarrier.init.shared::cta.b64 [%r_s], 32;' rejected
check violation_ca_ptx77     sm_80 7.7 'cp.async.ca.shared::cta.global [%r_s], [%rd_g], 16;' rejected
check violation_cg_ptx77     sm_80 7.7 'cp.async.cg.shared::cta.global [%r_s], [%rd_g], 16;' rejected
check violation_ca_ptx74     sm_80 7.4 'cp.async.ca.shared::cta.global [%r_s], [%rd_g], 16;' rejected
finish
