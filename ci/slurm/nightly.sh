#!/usr/bin/env bash
# A night of the fleet on Slurm (docs/fleet.md): one job per GPU node holding all its GPUs
# (ci/slurm/run-node.sh inside: `cuconform run --devices all`), a bounded retry of each node
# whose job failed or wrote nothing, every GPU's results into the history database, `compare`
# of each GPU against its baseline, and the fleet view (`cuconform fleet`) with the nodes to
# drain. Run it where sbatch works (a login node's cron, or a CI job); it waits for the night.
#
#   usage: ci/slurm/nightly.sh [options] [-- cuconform run filters]
#     --out DIR        the night's folder, on a filesystem every node sees
#                      (default: results/night-<UTC date-time> under the repository)
#     --partition P    the partition whose GPU nodes to test (default: every partition)
#     --nodes LIST     only these nodes (a Slurm host list: gpu[01-04],gpu07)
#     --db URL         history database: postgresql://... or a SQLite file
#                      (default: $CUCONFORM_HISTORY_DB, else history.sqlite beside the night's folder)
#     --retries N      further attempts for a node whose job failed or wrote nothing (default 1)
#     --baselines DIR  baselines for compare (default: ci/baselines of the repository)
#     --time MIN       each job's time limit, minutes (default 60); each retry gets twice the last
#     --start-within MIN   a job that has not started within this is removed by Slurm
#                      (--deadline) and counts as failed (default 120)
#   env: CUCONFORM_EXE (default: build/cuconform of the repository), CUCONFORM_SBATCH_ARGS
#        (more sbatch options: --account, --qos, --reservation...), CUCONFORM_FILTERS (run's
#        filters, as after --).
# Exit: the night's status, the worst in the order 2 > 4 > 1 > 3 > 0 of `cuconform fleet`
# (0 every planned node and GPU ran, none is odd; 1 a node or GPU missing or failed, or a GPU
# whose verdicts differ from its peers'; 3 GPUs that saw no GPU; 4 a GPU became unhealthy),
# `compare` (1 a regression against the baseline, 2 a baseline that does not read) and the
# history database (2 when the results could not be added): ci/slurm/finish-night.sh. The last
# line says it.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
out="" partition="" nodes="" db=${CUCONFORM_HISTORY_DB:-} retries=1 baselines=$repo/ci/baselines time_min=60 start_min=120
filters=${CUCONFORM_FILTERS:-}
die() { echo "nightly: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case $1 in
    --out) out=${2:?--out needs a folder}; shift 2 ;;
    --partition) partition=${2:?--partition needs a name}; shift 2 ;;
    --nodes) nodes=${2:?--nodes needs a host list}; shift 2 ;;
    --db) db=${2:?--db needs a URL or a path}; shift 2 ;;
    --retries) retries=${2:-x}; shift 2 ;;
    --baselines) baselines=${2:?--baselines needs a folder}; shift 2 ;;
    --time) time_min=${2:-x}; shift 2 ;;
    --start-within) start_min=${2:-x}; shift 2 ;;
    --) shift; filters="$*"; break ;;
    *) die "unknown option '$1' (see the head of $0)" ;;
  esac
done
for n in "$retries" "$time_min" "$start_min"; do
  [[ $n =~ ^[0-9]+$ ]] || die "--retries, --time and --start-within take whole numbers, got '$n'"
done
exe=${CUCONFORM_EXE:-$repo/build/cuconform}
[ -x "$exe" ] || die "$exe: not found (build it: cmake --preset default && cmake --build --preset default; or set CUCONFORM_EXE)"
command -v sbatch >/dev/null 2>&1 || die "sbatch not found: run this where Slurm's commands work"
out=${out:-$repo/results/night-$(date -u +%Y%m%d-%H%M%S)}
mkdir -p "$out/logs" "$out/.jobs" "$out/compare" || die "cannot create $out"
out=$(cd "$out" && pwd)
night=$(basename "$out")
db=${db:-$(dirname "$out")/history.sqlite}
read -r -a sbatch_extra <<<"${CUCONFORM_SBATCH_ARGS:-}"

# The plan: each node and its GPU count (gres gpu, any type: "gpu:4", "gpu:h100:8(S:0-1)"), its
# state and the reason an operator gave. A node drained, down, failing, in maintenance or powered
# down is skipped here with its state and reason (NIGHT/skipped.tsv), never submitted: a job for
# it would only hold the night for --start-within, and its drain reason stays the operator's.
args=(-h -N -o '%N|%G|%T|%E')
[ -n "$partition" ] && args+=(-p "$partition")
[ -n "$nodes" ] && args+=(-n "$nodes")
sinfo "${args[@]}" >"$out/.jobs/sinfo.txt" 2>&1 || die "sinfo failed: $(cat "$out/.jobs/sinfo.txt")"
declare -A gpus_of=() skipped_of=()
order=()
skipped=()
while IFS='|' read -r node gres state reason; do
  [ -n "$node" ] && [ -z "${gpus_of[$node]+x}" ] && [ -z "${skipped_of[$node]+x}" ] || continue
  n=0
  IFS=, read -r -a parts <<<"$gres"
  for p in "${parts[@]}"; do
    [[ $p == gpu:* ]] || continue
    p=${p%%(*}
    n=$((n + ${p##*:}))
  done
  # Without --nodes, only nodes with GPUs; a node named in --nodes runs even without (says so).
  [ "$n" -gt 0 ] || [ -n "$nodes" ] || continue
  # sinfo's long states: drained, draining, down*, fail, maint, idle~ (powered down), ...
  if [[ ${state,,} =~ (drain|down|fail|maint|power|~|\*) ]]; then
    skipped_of[$node]=$n
    skipped+=("$node	$n	$state	${reason:-none}")
    continue
  fi
  gpus_of[$node]=$n
  order+=("$node")
done <"$out/.jobs/sinfo.txt"
{
  echo "# node	gpus	state	reason"
  for line in "${skipped[@]}"; do printf '%s\n' "$line"; done
} >"$out/skipped.tsv"
for line in "${skipped[@]}"; do echo "nightly: skipped ${line//	/ }"; done
[ ${#order[@]} -gt 0 ] || [ ${#skipped[@]} -gt 0 ] || die "no GPU node found (sinfo ${args[*]}): name them with --nodes or --partition"
{
  echo "# node	gpus"
  for node in "${order[@]}"; do printf '%s\t%s\n' "$node" "${gpus_of[$node]}"; done
} >"$out/plan.tsv"
[ -f "$out/attempts.tsv" ] || echo "# node	attempt	job	state	exit" >"$out/attempts.tsv"
echo "nightly: $night: ${#order[@]} node(s) planned (plan.tsv), ${#skipped[@]} skipped (skipped.tsv), results in $out"

# One attempt of one node, waited for (sbatch --wait), in the background.
submit() {
  # A retry gets twice the time of the attempt before it: a node killed at its time limit would
  # only be killed again with the same --time.
  local node=$1 attempt=$2 gres=() minutes=$((time_min << ($2 - 1)))
  [ "${gpus_of[$node]}" -gt 0 ] && gres=(--gres="gpu:${gpus_of[$node]}")
  CUCONFORM_EXE=$exe CUCONFORM_ATTEMPT=$attempt CUCONFORM_FILTERS=$filters \
    sbatch --parsable --wait --export=ALL --nodelist="$node" --exclusive --ntasks=1 "${gres[@]}" \
    --time="$minutes" --deadline="now+$((minutes + start_min))minutes" \
    --job-name="cuconform-$night-$node" --output="$out/logs/$node.attempt$attempt.log" --chdir="$out" \
    "${sbatch_extra[@]}" \
    --wrap "bash '$repo/ci/slurm/run-node.sh' '$out' '$node'" \
    >"$out/.jobs/$node.$attempt.id" 2>"$out/.jobs/$node.$attempt.err"
  echo $? >"$out/.jobs/$node.$attempt.rc"
}

# What the scheduler says of a finished attempt: "JOB STATE EXIT" (EXIT 128+N when killed by N).
job_outcome() {
  local id=$1 rc=$2 line state exit sig
  line=$(scontrol -o show job "$id" 2>/dev/null)
  state=$(grep -o 'JobState=[A-Z_]*' <<<"$line" | cut -d= -f2)
  exit=$(grep -o ' ExitCode=[0-9]*:[0-9]*' <<<"$line" | cut -d= -f2)
  if [ -n "$exit" ]; then
    sig=${exit#*:}
    exit=${exit%%:*}
    [ "$sig" != 0 ] && exit=$((128 + sig))
  fi
  echo "${id:--} ${state:-UNKNOWN} ${exit:-$rc}"
}

needs_attempt() {  # no finished results, or a run killed by a signal
  local marker=$out/nodes/$1/complete.json e
  [ -f "$marker" ] || return 0
  e=$(grep -o '"exit": [0-9]*' "$marker" | grep -o '[0-9]*$')
  [ "${e:-0}" -ge 128 ]
}

todo=("${order[@]}")
for ((attempt = 1; attempt <= retries + 1 && ${#todo[@]} > 0; attempt++)); do
  [ "$attempt" -gt 1 ] && echo "nightly: attempt $attempt for ${todo[*]}"
  for node in "${todo[@]}"; do submit "$node" "$attempt" & done
  wait
  next=()
  for node in "${todo[@]}"; do
    id=$(head -c 64 "$out/.jobs/$node.$attempt.id" | tr -cd '0-9_')
    read -r job state exit <<<"$(job_outcome "$id" "$(cat "$out/.jobs/$node.$attempt.rc")")"
    [ -n "$id" ] || state="NOT_SUBMITTED($(head -c 120 "$out/.jobs/$node.$attempt.err" | tr -s '\t\n ' ' '))"
    printf '%s\t%s\t%s\t%s\t%s\n' "$node" "$attempt" "$job" "$state" "$exit" >>"$out/attempts.tsv"
    if needs_attempt "$node"; then next+=("$node"); fi
  done
  todo=("${next[@]}")
done

# Attempts that never finished leave NIGHT/.partial/NODE.JOB/: a node with no finished results
# keeps its last cut-off results (the cases finished before the kill, marked cut off) under
# NIGHT/cutoff/NODE/ for the history and the fleet view; the rest of .partial/ goes.
if [ -d "$out/.partial" ]; then
  for d in "$out"/.partial/*/; do
    d=${d%/}
    node=${d##*/}
    node=${node%.*}
    [[ $node == *.replaced ]] && continue
    compgen -G "$d/results*.json*" >/dev/null || continue
    [ -f "$out/nodes/$node/complete.json" ] && continue
    mkdir -p "$out/cutoff" && rm -rf "$out/cutoff/$node" && mv "$d" "$out/cutoff/$node"
  done
  rm -rf "$out/.partial"
fi

# Every GPU's results into the history and against its baseline, then the fleet view.
CUCONFORM_EXE=$exe exec bash "$repo/ci/slurm/finish-night.sh" "$out" "$db" "$baselines"
