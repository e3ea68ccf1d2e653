#!/usr/bin/env bash
# ci/slurm/healthcheck.sh judged on made-up nodes (CTest: fleet:healthcheck), for Slurm (exit 0
# OK, 1 a problem, 3 no GPU and none expected, 2 bad input) and node-problem-detector (--npd:
# 0 OK, 1 a problem, 2 unknown):
#   - the real cuconform with no GPU where the node should have two: a problem (1), action drain;
#     where none is expected: 3, and OK (0) for NPD;
#   - the real cuconform with two stand-in GPUs, the pre-flight told GPU 1's driver asks for a
#     reset (CUCONFORM_PREFLIGHT_INJECT): a problem, action reset, its cases not run;
#   - a stand-in whose GPUs' results are made from the committed H200 baseline
#     (ci/synth-gpu-results.py): clean (0, action none), one planted new failure on GPU 1 (1,
#     action drain naming the case), a GPU short (1).
#   usage: ci/slurm/healthcheck-test.sh BUILD/cuconform
set -uo pipefail
source "$(cd "$(dirname "$0")/.." && pwd)/skip-where-gpu.sh"
exe=$(cd "$(dirname "${1:?usage: healthcheck-test.sh PATH/cuconform}")" && pwd)/$(basename "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)
command -v python3 >/dev/null 2>&1 || { echo "SKIPPED: python3 not found (it makes the stand-in results)"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/cuconform-health-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
failed=0
expect() {  # NAME WANT_EXIT WANT_TEXT: the last run's exit and line
  if [ "$rc" != "$2" ] || ! grep -q -- "$3" <<<"$out"; then
    echo "FAIL: $1: exit $rc, line: $out (expected exit $2 and '$3')"
    failed=1
  else
    echo "ok: $1: $out"
  fi
}
hc() { CUCONFORM_KNOWN='' CUCONFORM_HEALTH_FILTERS="--area ldgsts" bash "$repo/ci/slurm/healthcheck.sh" "$@"; }

out=$(CUCONFORM_EXE=$exe CUDA_VISIBLE_DEVICES=0,1 hc)
rc=$?
expect "no GPU, two expected" 1 'status=FAIL gpus=[12]/2 new_failures=0 run_exit=3 .*action=drain why="no GPU could be opened (the node should have 2)"'
out=$(CUCONFORM_EXE=$exe CUDA_VISIBLE_DEVICES=0,1 hc --npd)
rc=$?
expect "no GPU, two expected (NPD)" 1 '^FAIL action=drain: no GPU could be opened'
if ! compgen -G '/dev/nvidia[0-9]*' >/dev/null && ! compgen -G '/proc/driver/nvidia/gpus/*' >/dev/null; then
  out=$(env -u CUDA_VISIBLE_DEVICES CUCONFORM_EXE="$exe" CUCONFORM_KNOWN='' CUCONFORM_HEALTH_FILTERS="--area ldgsts" bash "$repo/ci/slurm/healthcheck.sh")
  rc=$?
  expect "no GPU, none expected" 3 'status=NONE .*action=none why="no GPU could be opened, and none is expected here"'
  out=$(env -u CUDA_VISIBLE_DEVICES CUCONFORM_EXE="$exe" CUCONFORM_KNOWN='' CUCONFORM_HEALTH_FILTERS="--area ldgsts" bash "$repo/ci/slurm/healthcheck.sh" --npd)
  rc=$?
  expect "no GPU, none expected (NPD)" 0 '^NONE action=none'
fi
out=$(CUCONFORM_EXE=$exe hc --bogus)
rc=$?
expect "bad option" 2 "unknown option '--bogus'"
out=$(CUCONFORM_EXE=$exe hc --npd --bogus)
rc=$?
expect "bad option (NPD: unknown)" 2 "unknown option '--bogus'"

# The pre-flight stops GPU 1 of two stand-in GPUs before the run: the driver asks for a reset.
out=$(CUCONFORM_EXE=$exe CUCONFORM_FAKE_GPUS=2 CUCONFORM_PREFLIGHT_INJECT=1:recovery_action=1 CUDA_VISIBLE_DEVICES=0,1 hc)
rc=$?
expect "pre-flight: the driver asks for a reset" 1 'status=FAIL .*run_exit=4 .*action=reset why=".*gpu1: unhealthy before the run: the driver.s recovery action is GPU reset'

# Stand-in runs: results made from the baseline (per GPU, --devices hidden so run-node.sh runs
# each GPU apart), the summary line of the planted new failure, exit 1 when it fails.
python3 "$repo/ci/synth-gpu-results.py" "$repo/ci/baselines/NVIDIA-H200_driver-580.159.04.json.gz" "$work" standin 2 1 >"$work/planted" ||
  { echo "FAIL: could not make the stand-in results"; exit 1; }
mkdir -p "$work/clean"
python3 "$repo/ci/synth-gpu-results.py" "$repo/ci/baselines/NVIDIA-H200_driver-580.159.04.json.gz" "$work/clean" standin 2 >/dev/null
planted=$(cat "$work/planted")
bash "$repo/ci/slurm/make-standin.sh" "$work/cuconform-clean" "$exe" "$work/clean"
bash "$repo/ci/slurm/make-standin.sh" "$work/cuconform-planted" "$exe" "$work" 1
out=$(CUCONFORM_EXE=$work/cuconform-clean CUDA_VISIBLE_DEVICES=0,1 hc)
rc=$?
expect "clean GPUs" 0 'status=OK gpus=2/2 new_failures=0 run_exit=0 .*action=none$'
out=$(CUCONFORM_EXE=$work/cuconform-clean CUDA_VISIBLE_DEVICES=0,1 hc --npd)
rc=$?
expect "clean GPUs (NPD)" 0 '^OK action=none'
out=$(CUCONFORM_EXE=$work/cuconform-planted CUDA_VISIBLE_DEVICES=0,1 CUCONFORM_METRICS_DIR=$work/metrics hc)
rc=$?
expect "a new failure on GPU 1" 1 "status=FAIL gpus=2/2 new_failures=1 run_exit=1 .*action=drain why=\"gpu1: new failure $planted\""
[ -f "$work/metrics/cuconform_$(hostname -s)_gpu1.prom" ] || { echo "FAIL: no metrics file for GPU 1 in CUCONFORM_METRICS_DIR"; failed=1; }
out=$(CUCONFORM_EXE=$work/cuconform-planted CUDA_VISIBLE_DEVICES=0,1 hc --npd)
rc=$?
expect "a new failure on GPU 1 (NPD)" 1 "^FAIL action=drain: gpu1: new failure $planted"
out=$(CUCONFORM_EXE=$work/cuconform-clean CUCONFORM_HEALTH_GPUS=4 CUDA_VISIBLE_DEVICES=0,1 hc)
rc=$?
expect "a GPU short" 1 'status=FAIL gpus=2/4 .*why="results of 2 of 4 GPU(s)"'
# The node-problem-detector configuration runs this check in its protocol.
python3 - "$repo/ci/k8s/npd-cuconform.json" <<'PY' || { echo "FAIL: ci/k8s/npd-cuconform.json"; failed=1; }
import json, sys
c = json.load(open(sys.argv[1]))
rule = c["rules"][0]
assert c["plugin"] == "custom" and rule["type"] == "permanent", "not a permanent custom-plugin rule"
assert rule["path"].endswith("ci/slurm/healthcheck.sh") and rule["args"] == ["--npd"], "does not run healthcheck.sh --npd"
assert rule["condition"] == c["conditions"][0]["type"] == "GPUConformanceProblem", "the rule's condition is not declared"
PY
exit "$failed"
