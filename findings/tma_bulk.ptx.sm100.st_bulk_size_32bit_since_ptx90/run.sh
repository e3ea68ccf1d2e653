#!/usr/bin/env bash
# st.bulk's 32-bit size register (PTX ISA 9.0): accepted in a 9.0 module for .u32 / .s32 / .b32,
# rejected in 8.6? No GPU needed. Usage: run.sh [sass|jit|ptxas=PATH]
set -euo pipefail
source "$(cd "$(dirname "$0")" && pwd)/../common/ptxas_check.sh" "${1:-sass}"
check control_u32_90       sm_100 9.0 '.reg .u32 %sz; mov.u32 %sz, 16; st.bulk.weak.shared::cta [%r_s], %sz, 0;' accepted
check violation_b32_90     sm_100 9.0 '.reg .b32 %sz; mov.b32 %sz, 16; st.bulk.weak.shared::cta [%r_s], %sz, 0;' accepted
check control_u32_86       sm_100 8.6 '.reg .u32 %sz; mov.u32 %sz, 16; st.bulk.weak.shared::cta [%r_s], %sz, 0;' rejected
check violation_s32_86     sm_100 8.6 '.reg .s32 %sz; mov.s32 %sz, 16; st.bulk.weak.shared::cta [%r_s], %sz, 0;' rejected
finish
