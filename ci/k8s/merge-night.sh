#!/usr/bin/env bash
# The end of a Kubernetes night (the cuconform-fleet-view CronJob): waits until the newest night
# under RESULTS has a completion marker from every node expected, at most CUCONFORM_MERGE_WAIT_S
# seconds, never reading a node's folder before its marker is there (run-node.sh publishes whole
# folders). Then it writes the night's plan.tsv (each node seen, and one `unscheduled-K` line per
# expected pod that never published nor started, so the missing are named), and finishes the
# night (ci/slurm/finish-night.sh: history, compare, fleet view).
#   usage: ci/k8s/merge-night.sh RESULTS
#   env: CUCONFORM_NODES (GPU nodes expected: the Job's completions), CUCONFORM_GPUS_PER_NODE,
#        CUCONFORM_MERGE_WAIT_S (default 3600), CUCONFORM_HISTORY_DB (default RESULTS/history.sqlite),
#        CUCONFORM_NIGHT (a night folder's name instead of the newest), CUCONFORM_EXE
set -uo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
results=${1:?usage: merge-night.sh RESULTS}
want=${CUCONFORM_NODES:?CUCONFORM_NODES: how many nodes the night expects}
per_node=${CUCONFORM_GPUS_PER_NODE:-0}
wait_s=${CUCONFORM_MERGE_WAIT_S:-3600}
export CUCONFORM_EXE=${CUCONFORM_EXE:-$here/build/cuconform}
night=${CUCONFORM_NIGHT:-$(find "$results" -mindepth 1 -maxdepth 1 -type d -name 'cuconform-nightly-*' -printf '%f\n' | sort -V | tail -1)}
[ -n "$night" ] && [ -d "$results/$night" ] || { echo "merge-night: no night folder under $results" >&2; exit 2; }
dir=$results/$night
deadline=$(($(date +%s) + wait_s))
shopt -s nullglob
while :; do
  markers=("$dir"/nodes/*/complete.json)
  [ ${#markers[@]} -ge "$want" ] && break
  [ "$(date +%s)" -ge "$deadline" ] && { echo "merge-night: $night: ${#markers[@]} of $want node(s) finished within ${wait_s} s"; break; }
  sleep 15
done
# The plan: the nodes that published, then those that started and did not (their .partial
# attempts), then a stand-in for each expected pod never seen.
declare -A seen=()
plan=()
for m in "$dir"/nodes/*/complete.json; do
  node=$(basename "$(dirname "$m")")
  gpus=$(grep -o '"gpus": [0-9]*' "$m" | grep -o '[0-9]*$')
  seen[$node]=1
  plan+=("$node	${gpus:-$per_node}")
done
for p in "$dir"/.partial/*; do
  node=$(basename "$p")
  node=${node%.*}
  [ -n "${seen[$node]:-}" ] && continue
  seen[$node]=1
  plan+=("$node	$per_node")
done
for ((k = ${#plan[@]} + 1; k <= want; k++)); do plan+=("unscheduled-$k	$per_node"); done
{
  echo "# node	gpus (written by ci/k8s/merge-night.sh: $want node(s) expected)"
  printf '%s\n' "${plan[@]}"
} >"$dir/plan.tsv"
exec bash "$here/ci/slurm/finish-night.sh" "$dir" "${CUCONFORM_HISTORY_DB:-$results/history.sqlite}" "$here/ci/baselines"
