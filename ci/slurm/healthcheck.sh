#!/usr/bin/env bash
# Health check of a GPU node for the scheduler: the GPUs' own state (`cuconform health`), then the
# smoke profile (one case per rule and variant) on every GPU of the node (ci/slurm/run-node.sh:
# `cuconform run --devices all`, which runs the pre-flight first), then the action per GPU and
# node (`cuconform export`, docs/fleet.md "Actions"). Before a job (a prolog), as Slurm's
# HealthCheckProgram, or as a node-problem-detector custom plugin (docs/fleet.md, "Health check").
# Prints one line a scheduler or a person reads:
#   cuconform-health node=gpu07 status=OK gpus=4/4 new_failures=0 run_exit=1 seconds=31 action=none
#   cuconform-health node=gpu07 status=FAIL gpus=4/4 new_failures=1 run_exit=1 seconds=30 action=drain why="gpu1: new failure X"
# Exit (Slurm, a prolog): 0 healthy, 1 a problem (the action is drain, reset, replace or rerun: a
# GPU that needs attention, a failure the known list does not explain, a GPU without results, a
# GPU that became unhealthy, a node that should have GPUs and opens none), 3 no GPU here and none
# expected, 2 bad input.
# Exit with --npd (node-problem-detector's custom plugin protocol): 0 OK, 1 a problem (as above),
# 2 unknown (bad input, or the check could not run); a node without GPUs, none expected, is OK.
# The line then starts with the status and the reason, which NPD shows as the condition's message.
#   usage: ci/slurm/healthcheck.sh [--drain] [--npd]
#     --drain   on a problem, drain this node with the action and reason
#               (scontrol update ... state=drain reason="cuconform action=drain gpu1: ..."): what
#               HealthCheckProgram needs, since Slurm does not act on its exit status.
#     --npd     node-problem-detector's exit codes and message (ci/k8s/npd-cuconform.json)
#   env: CUCONFORM_EXE (default: build/cuconform of the repository), CUCONFORM_HEALTH_FILTERS
#        (more filters, e.g. --area ldgsts), CUCONFORM_HEALTH_GPUS (the GPUs the node should
#        have; default: as many as it shows), CUCONFORM_METRICS_DIR (also write the Prometheus
#        files there, for node_exporter's textfile collector), CUCONFORM_KNOWN (the known list).
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
drain=no npd=no
for arg in "$@"; do
  case $arg in
    --drain) drain=yes ;;
    --npd) npd=yes ;;
    *) echo "cuconform-health: unknown option '$arg' (usage: healthcheck.sh [--drain] [--npd])"; exit 2 ;;
  esac
done
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
CUCONFORM_METRICS_DIR="" CUCONFORM_EXE=$exe CUCONFORM_FILTERS="--profile smoke ${CUCONFORM_HEALTH_FILTERS:-}" \
  bash "$repo/ci/slurm/run-node.sh" "$dir" "$node" >"$dir/run-node.out" 2>&1
marker=$dir/nodes/$node/complete.json
seconds=$(($(date +%s) - start))

field() { grep -o "\"$1\": [0-9]*" "$marker" 2>/dev/null | grep -o '[0-9]*$'; }
# The action per GPU and for the node (cuconform export: the table of docs/fleet.md, "Actions"),
# and the Prometheus files where asked for.
action="" action_why=""
if grep -q '^  export ' <<<"$usage" && [ -f "$marker" ]; then
  metrics=()
  [ -n "${CUCONFORM_METRICS_DIR:-}" ] && metrics=(--metrics "$CUCONFORM_METRICS_DIR")
  "$exe" export "$dir" "${metrics[@]}" >"$dir/actions.txt" 2>"$dir/export.err"
  node_line=$(grep "^action node=$node action=" "$dir/actions.txt" | head -1)
  action=$(sed -n 's/^action node=[^ ]* action=\([a-z]*\) .*/\1/p' <<<"$node_line")
  action_why=$(sed -n 's/^.* why="\(.*\)"$/\1/p' <<<"$node_line")
fi
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

# Should this node have GPUs? Asked of the scheduler and the machine, not of the run that failed
# to open them: a node that should and opens none is a problem, not an unknown.
gpus_expected() {
  [ "${CUCONFORM_HEALTH_GPUS:-0}" -gt 0 ] 2>/dev/null && return 0
  [ "${held:-0}" -gt 0 ] 2>/dev/null && return 0
  compgen -G '/dev/nvidia[0-9]*' >/dev/null && return 0
  compgen -G '/proc/driver/nvidia/gpus/*' >/dev/null && return 0
  return 1
}

status=OK code=0 why=""
if [ "$health_rc" = 4 ]; then
  status=FAIL code=1 why="a GPU needs attention (cuconform health): $(grep -v '^ *$' "$dir/health.txt" | tail -1 | tr -s '\t\n"' ' ' | head -c 120)"
elif [ -z "$rc" ]; then
  status=FAIL code=1 why="no results: $(tail -1 "$dir/run-node.out" | tr -s '\t\n' ' ' | head -c 120)"
elif [ "$rc" = 2 ]; then
  status=FAIL code=2 why="bad input (see cuconform run)"
elif [ "$rc" = 3 ] && gpus_expected; then
  status=FAIL code=1 why="no GPU could be opened (the node should have ${CUCONFORM_HEALTH_GPUS:-$held})"
  action=drain action_why=$why
elif [ "$rc" = 3 ]; then
  status=NONE code=3 why="no GPU could be opened, and none is expected here"
  action=none action_why=$why
elif [ "$rc" = 4 ]; then
  status=FAIL code=1 why="a GPU was unhealthy before or during the run${action_why:+: $action_why}"
elif [ "$got" -lt "$want" ]; then
  status=FAIL code=1 why="results of $got of $want GPU(s)"
elif [ "$new" -gt 0 ]; then
  status=FAIL code=1 why="$new failure(s) not in the known list"
  [ "$action" = drain ] && why=$action_why  # the table's reason names the first of them
elif [ "$rc" = 1 ] && ! grep -q ' new (' "$log"; then
  status=FAIL code=1 why="failures, and no known list to tell them apart"
elif [ "$rc" != 0 ] && [ "$rc" != 1 ]; then
  status=FAIL code=1 why="cuconform run exited $rc"
elif [ -n "$action" ] && [ "$action" != none ] && [ "$action" != watch ]; then
  status=FAIL code=1 why=$action_why
fi
# The action the reason names: the table's, else what the status says.
if [ -z "$action" ]; then
  if [ "$code" = 1 ]; then action=drain; else action=none; fi
fi
[ "$code" = 1 ] && [ "$action" = none ] && action=drain
[ "$code" = 2 ] && action=none
why=${why//\"/\'}
line="cuconform-health node=$node status=$status gpus=$got/$want new_failures=$new run_exit=${rc:--} seconds=$seconds action=$action${why:+ why=\"$why\"}"
if [ "$npd" = yes ]; then
  # node-problem-detector shows the first characters of stdout as the condition's message: the
  # status and the reason first. 0 OK, 1 problem, 2 unknown; no GPU here and none expected: OK.
  echo "$status action=$action${why:+: $why} ($line)"
  case $code in 0 | 3) exit 0 ;; 1) exit 1 ;; *) exit 2 ;; esac
fi
echo "$line"
if [ "$code" = 1 ] && [ "$drain" = yes ]; then
  scontrol update nodename="$node" state=drain reason="cuconform action=$action ${why:0:200}" ||
    echo "cuconform-health: scontrol could not drain $node" >&2
fi
exit "$code"
