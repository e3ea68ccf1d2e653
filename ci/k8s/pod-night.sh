#!/usr/bin/env bash
# One pod of a Kubernetes night (ci/k8s/cuconform-nightly.yaml): every GPU of this node
# (ci/slurm/run-node.sh) into RESULTS/NIGHT/nodes/NODE/, published whole with its completion
# marker. A node whose GPUs cannot be opened (run exit 3) or where one became unhealthy (4) has
# written its results, which say so: the pod succeeds and the fleet view reports the node; the
# night does not fail. Bad input (2) fails this index without a retry (the Job's
# podFailurePolicy); a pod killed before it published anything is retried (backoffLimitPerIndex).
#   env: NIGHT (the Job's name: one folder per night), NODE_NAME, POD_NAME, CUCONFORM_RESULTS
#        (default /results), CUCONFORM_FILTERS, INDEX_FAILURES (failed tries of this index so far)
set -uo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
night=${CUCONFORM_RESULTS:-/results}/${NIGHT:?NIGHT: the Job name}
export CUCONFORM_ATTEMPT=$((${INDEX_FAILURES:-0} + 1))
export CUCONFORM_EXE=${CUCONFORM_EXE:-$here/build/cuconform}
bash "$here/ci/slurm/run-node.sh" "$night" "${NODE_NAME:-$(hostname -s)}"
rc=$?
case $rc in
  0 | 1 | 3 | 4) exit 0 ;;
  *) exit "$rc" ;;
esac
