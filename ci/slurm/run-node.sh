#!/usr/bin/env bash
# One node's part of a night: the suite on every GPU the job holds, published into
# NIGHT/nodes/NODE/ as a whole (docs/fleet.md, "The night folder"):
#   results.gpuN.json + junit.gpuN.xml per GPU (node.json too with `run --devices`), run.log,
#   complete.json last (the completion marker: exit code, GPUs held, job, times).
# Everything is written under NIGHT/.partial/NODE.JOB first and moved into place with one
# rename, so a reader never sees half a node; a killed attempt leaves only its .partial folder.
#   usage: ci/slurm/run-node.sh NIGHT [NODE]     (Slurm: nightly.sh submits it; Kubernetes: the pod)
#   env:   CUCONFORM_EXE (default: cuconform on PATH), CUCONFORM_FILTERS (run's filters),
#          CUCONFORM_ATTEMPT (default 1); the GPUs: CUDA_VISIBLE_DEVICES (Slurm's gres) or
#          NVIDIA_VISIBLE_DEVICES (the Kubernetes device plugin), else every GPU nvidia-smi lists.
#          CUCONFORM_METRICS_DIR: also the Prometheus files there (run --metrics-dir), for
#          node_exporter's textfile collector on the node (docs/fleet.md, "Metrics").
# Exit: cuconform run's code, except 1 (cases failed, results written) which is 0 here: the
# job did its work. 2 bad input, 3 no GPU, 4 a GPU became unhealthy, 128+N killed.
set -uo pipefail
night=${1:?usage: run-node.sh NIGHT [NODE]}
node=${2:-${SLURMD_NODENAME:-$(hostname -s)}}
exe=${CUCONFORM_EXE:-cuconform}
attempt=${CUCONFORM_ATTEMPT:-1}
job=${SLURM_JOB_ID:-${POD_NAME:-local-$$}}
read -r -a filters <<<"${CUCONFORM_FILTERS:-}"

tmp=$night/.partial/$node.$job
rm -rf "$tmp"
mkdir -p "$tmp" "$night/nodes" || { echo "run-node: cannot create $tmp" >&2; exit 2; }
started=$(date -u +%Y-%m-%dT%H:%M:%SZ)

# The GPUs this job holds, as the indices the CUDA runtime will see them by.
gpu_list() {
  local v=${CUDA_VISIBLE_DEVICES:-}
  if [ -z "$v" ] && [ -n "${NVIDIA_VISIBLE_DEVICES:-}" ] && [ "$NVIDIA_VISIBLE_DEVICES" != all ] &&
     [ "$NVIDIA_VISIBLE_DEVICES" != void ] && [ "$NVIDIA_VISIBLE_DEVICES" != none ]; then
    v=$NVIDIA_VISIBLE_DEVICES
  fi
  if [ -z "$v" ] && command -v nvidia-smi >/dev/null 2>&1; then
    v=$(nvidia-smi -L 2>/dev/null | awk '/^GPU [0-9]+/ {sub(":", "", $2); printf "%s%s", sep, $2; sep=","}')
  fi
  echo "$v"
}
IFS=, read -r -a gpus <<<"$(gpu_list)"

# The worst of two exit codes of run, in the order 2 > 4 > 1 > 3 > 0 (docs/fleet.md).
worst() {
  local r a=$1 b=$2
  for r in 2 4 1 3; do
    if [ "$a" = "$r" ] || [ "$b" = "$r" ]; then echo "$r"; return; fi
  done
  if [ "$a" != 0 ]; then echo "$a"; else echo "$b"; fi
}

held=${#gpus[@]}
# Does this cuconform take --devices? (asked every way its usage has been printed; read whole,
# since grep -q stopping early would fail the pipe under pipefail)
usage=$({ "$exe" help; "$exe" --help; "$exe" run --help; } 2>&1)
metrics=()
if [ -n "${CUCONFORM_METRICS_DIR:-}" ] && grep -q -- '--metrics-dir' <<<"$usage"; then metrics=(--metrics-dir "$CUCONFORM_METRICS_DIR"); fi
if grep -q -- '--devices' <<<"$usage"; then
  "$exe" run --devices all --out "$tmp" "${metrics[@]}" "${filters[@]}" >"$tmp/run.log" 2>&1
  rc=$?
else
  # A cuconform without --devices: one run per GPU, one at a time, each seeing only its GPU.
  # Each starts in a second of its own: the history database tells runs apart by start time,
  # host and GPU, and without a GPU the last is empty.
  rc=0
  [ "$held" -gt 0 ] || gpus=("")  # no GPU held: one run says so
  for i in "${!gpus[@]}"; do
    now=$(date +%s)
    while [ "$i" -gt 0 ] && [ "$(date +%s)" = "$now" ]; do sleep 0.1; done
    CUDA_VISIBLE_DEVICES=${gpus[$i]} "$exe" run --json "$tmp/results.gpu$i.json" --junit "$tmp/junit.gpu$i.xml" \
      "${filters[@]}" >>"$tmp/run.log" 2>&1
    rc=$(worst "$rc" $?)
  done
fi

finished=$(date -u +%Y-%m-%dT%H:%M:%SZ)
printf '{"schema": "cuconform-node-done/1", "node": "%s", "job_id": "%s", "attempt": %d, "exit": %d, "gpus": %d, "visible_devices": "%s", "started": "%s", "finished": "%s"}\n' \
  "$node" "$job" "$attempt" "$rc" "$held" "$(IFS=,; echo "${gpus[*]}")" "$started" "$finished" >"$tmp/complete.json.tmp" &&
  mv "$tmp/complete.json.tmp" "$tmp/complete.json" || { echo "run-node: cannot write $tmp/complete.json" >&2; exit 2; }

# Publish: the previous attempt (if any) moves aside, this one moves in, one rename each.
dest=$night/nodes/$node
if [ -e "$dest" ]; then mv "$dest" "$night/.partial/$node.replaced.$job" || exit 2; fi
mv "$tmp" "$dest" || { echo "run-node: cannot move $tmp to $dest" >&2; exit 2; }
rm -rf "$night/.partial/$node.replaced.$job"
echo "run-node: $node: cuconform run exited $rc, $held GPU(s), results in $dest"
[ "$rc" = 1 ] && exit 0
exit "$rc"
