#!/usr/bin/env bash
# Health check of a GPU node for the scheduler: the smoke profile (one case per rule and
# variant) on every GPU of the node (ci/slurm/run-node.sh: `cuconform run --devices all`),
# before a job (a prolog) or as Slurm's HealthCheckProgram (docs/fleet.md, "Health check").
# Prints one line a scheduler or a person reads:
#   cuconform-health node=gpu07 status=OK gpus=4/4 new_failures=0 run_exit=1 seconds=31
# and exits 0 healthy, 1 unhealthy (a GPU `cuconform health` says needs attention, a failure the
# known list does not explain, a GPU without results, a GPU that became unhealthy), 3 no GPU
# could be opened, 2 bad input.
#   usage: ci/slurm/healthcheck.sh [--drain]
#     --drain   when unhealthy, drain this node with the line as the reason
#               (scontrol update ... state=drain): what HealthCheckProgram needs, since Slurm
#               does not act on its exit status. Without it nothing is changed, only said.
#   env: CUCONFORM_EXE (default: build/cuconform of the repository), CUCONFORM_HEALTH_FILTERS
#        (more filters, e.g. --area ldgsts), CUCONFORM_HEALTH_GPUS (the GPUs the node should
#        have; default: as many as it shows).
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
drain=no
case ${1:-} in
  --drain) drain=yes ;;
  "") ;;
  *) echo "cuconform-health: unknown option '$1' (usage: healthcheck.sh [--drain])" >&2; exit 2 ;;
esac
exe=${CUCONFORM_EXE:-$repo/build/cuconform}
node=${SLURMD_NODENAME:-$(hostname -s)}
dir=$(mktemp -d "${TMPDIR:-/tmp}/cuconform-health.XXXXXX") || exit 2
trap 'rm -rf "$dir"' EXIT
start=$(date +%s)
# Each GPU's state now (cuconform health, where this cuconform has it): exit 4 when one needs
# attention before a run (a pending or failed row remap...).
health_rc=0
usage=$("$exe" help 2>&1)
if grep -q '^  health ' <<<"$usage"; then
  "$exe" health --devices all >"$dir/health.txt" 2>&1
  health_rc=$?
fi
CUCONFORM_EXE=$exe CUCONFORM_FILTERS="--profile smoke ${CUCONFORM_HEALTH_FILTERS:-}" \
  bash "$repo/ci/slurm/run-node.sh" "$dir" "$node" >"$dir/run-node.out" 2>&1
marker=$dir/nodes/$node/complete.json
seconds=$(($(date +%s) - start))

field() { grep -o "\"$1\": [0-9]*" "$marker" 2>/dev/null | grep -o '[0-9]*$'; }
rc=$(field exit)
held=$(field gpus)
want=${CUCONFORM_HEALTH_GPUS:-${held:-0}}
shopt -s nullglob
files=("$dir/nodes/$node"/results.gpu*.json "$dir/nodes/$node"/results.[j]son)  # [j]: a pattern, so nullglob drops it when absent
got=${#files[@]}
[ "$want" = 0 ] && [ "$got" = 1 ] && want=1  # no GPU held: the one run that says so
# Failures the known list does not explain: the "N new" of each run's summary line.
new=0
log=$dir/nodes/$node/run.log
for n in $(grep -o '[0-9]* new (' "$log" 2>/dev/null | grep -o '^[0-9]*'); do new=$((new + n)); done

status=OK code=0 why=""
if [ "$health_rc" = 4 ]; then
  status=FAIL code=1 why="a GPU needs attention (cuconform health): $(grep -v '^ *$' "$dir/health.txt" | tail -1 | tr -s '\t\n"' ' ' | head -c 120)"
elif [ -z "$rc" ]; then
  status=FAIL code=1 why="no results: $(tail -1 "$dir/run-node.out" | tr -s '\t\n' ' ' | head -c 120)"
elif [ "$rc" = 2 ]; then
  status=FAIL code=2 why="bad input (see cuconform run)"
elif [ "$rc" = 3 ]; then
  status=FAIL code=3 why="no GPU could be opened"
elif [ "$rc" = 4 ]; then
  status=FAIL code=1 why="a GPU became unhealthy during the run"
elif [ "$got" -lt "$want" ]; then
  status=FAIL code=1 why="results of $got of $want GPU(s)"
elif [ "$new" -gt 0 ]; then
  status=FAIL code=1 why="$new failure(s) not in the known list"
elif [ "$rc" = 1 ] && ! grep -q ' new (' "$log"; then
  status=FAIL code=1 why="failures, and no known list to tell them apart"
elif [ "$rc" != 0 ] && [ "$rc" != 1 ]; then
  status=FAIL code=1 why="cuconform run exited $rc"
fi
line="cuconform-health node=$node status=$status gpus=$got/$want new_failures=$new run_exit=${rc:--} seconds=$seconds${why:+ why=\"$why\"}"
echo "$line"
if [ "$code" != 0 ] && [ "$drain" = yes ]; then
  scontrol update nodename="$node" state=drain reason="cuconform health: ${why//\"/\'}" ||
    echo "cuconform-health: scontrol could not drain $node" >&2
fi
exit "$code"
