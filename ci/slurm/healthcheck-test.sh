#!/usr/bin/env bash
# ci/slurm/healthcheck.sh judged on three made-up nodes (CTest: fleet:healthcheck): the real
# cuconform with no GPU (exit 3), and a stand-in whose runs fail only known cases (exit 0,
# status OK) or one case the known list does not have (exit 1, status FAIL).
#   usage: ci/slurm/healthcheck-test.sh BUILD/cuconform
set -uo pipefail
source "$(cd "$(dirname "$0")/.." && pwd)/skip-where-gpu.sh"
exe=$(cd "$(dirname "${1:?usage: healthcheck-test.sh PATH/cuconform}")" && pwd)/$(basename "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)
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

out=$(CUCONFORM_EXE=$exe CUCONFORM_HEALTH_FILTERS="--area ldgsts" CUDA_VISIBLE_DEVICES=0,1 bash "$repo/ci/slurm/healthcheck.sh")
rc=$?
expect "no GPU" 3 'status=FAIL gpus=[12]/2 new_failures=0 run_exit=3 .*why="no GPU could be opened"'

# A stand-in run: results from the real one (no GPU), then the summary line and exit 1.
for new in 0 1; do
  cat >"$work/cuconform-$new" <<STAND
#!/usr/bin/env bash
# --devices hidden: run-node.sh runs each GPU apart, a results file per GPU even without a GPU.
if [ "\$1" = help ] || [ "\$1" = --help ] || [ "\$2" = --help ]; then "$exe" "\$@" 2>&1 | grep -v -- --devices; exit 0; fi
[ "\$1" = run ] || exec "$exe" "\$@"
"$exe" "\$@" >/dev/null 2>&1
echo "of 3 failure(s): 3 known finding(s) (runtime 3), 0 known flake(s), $new new (known.yaml)"
exit 1
STAND
  chmod +x "$work/cuconform-$new"
done
out=$(CUCONFORM_EXE=$work/cuconform-0 CUCONFORM_HEALTH_FILTERS="--area ldgsts" CUDA_VISIBLE_DEVICES=0,1 bash "$repo/ci/slurm/healthcheck.sh")
rc=$?
expect "known failures only" 0 'status=OK gpus=2/2 new_failures=0 run_exit=1'
out=$(CUCONFORM_EXE=$work/cuconform-1 CUCONFORM_HEALTH_FILTERS="--area ldgsts" CUDA_VISIBLE_DEVICES=0,1 bash "$repo/ci/slurm/healthcheck.sh")
rc=$?
expect "a new failure" 1 'status=FAIL gpus=2/2 new_failures=2 run_exit=1 .*why="2 failure(s) not in the known list"'
out=$(CUCONFORM_EXE=$work/cuconform-0 CUCONFORM_HEALTH_GPUS=4 CUCONFORM_HEALTH_FILTERS="--area ldgsts" CUDA_VISIBLE_DEVICES=0,1 bash "$repo/ci/slurm/healthcheck.sh")
rc=$?
expect "a GPU short" 1 'status=FAIL gpus=2/4 .*why="results of 2 of 4 GPU(s)"'
exit "$failed"
