#!/usr/bin/env bash
# Does ptxas reject wgmma.fence / commit_group / wait_group without the .aligned qualifier the
# PTX ISA calls mandatory? No GPU needed. Usage: run.sh [sass|jit|ptxas=PATH]
set -euo pipefail
source "$(cd "$(dirname "$0")" && pwd)/../common/ptxas_check.sh" "${1:-sass}"
check control_fence        sm_90a 8.0 'wgmma.fence.sync.aligned;' accepted
check violation_fence      sm_90a 8.0 'wgmma.fence.sync;' rejected
check violation_commit     sm_90a 8.0 'wgmma.commit_group.sync;' rejected
check violation_wait_group sm_90a 8.0 'wgmma.wait_group.sync 0;' rejected
finish
