#!/usr/bin/env bash
# Does ptxas take every .proxykind the PTX ISA lists for membar.proxy (.alias, .async,
# .async.global, .async.shared::{cta, cluster}), membar.proxy being a synonym for fence.proxy on
# sm_70 and higher? No GPU needed. Usage: run.sh [sass|jit|ptxas=PATH]
set -euo pipefail
source "$(cd "$(dirname "$0")" && pwd)/../common/ptxas_check.sh" "${1:-sass}"
check control_membar_alias            sm_90 8.0 'membar.proxy.alias;' accepted
check control_fence_async             sm_90 8.0 'fence.proxy.async;' accepted
check control_fence_async_cta         sm_90 8.0 'fence.proxy.async.shared::cta;' accepted
# The documented forms that ptxas refuses: a "violation" here is a documented form rejected.
check violation_membar_async          sm_90 8.0 'membar.proxy.async;' accepted
check violation_membar_async_global   sm_90 8.0 'membar.proxy.async.global;' accepted
check violation_membar_async_cta      sm_90 8.0 'membar.proxy.async.shared::cta;' accepted
check violation_membar_async_cluster  sm_90 8.0 'membar.proxy.async.shared::cluster;' accepted
finish
