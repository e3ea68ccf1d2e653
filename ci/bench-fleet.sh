#!/usr/bin/env bash
# The fleet at scale (issue 46): for each size, a synthetic night of that many GPUs (8 a node,
# ci/synth-fleet-night.py from the H200 baseline), then `cuconform fleet NIGHT --html` and the
# night's finish step (ci/slurm/finish-night.sh: history add, compare per GPU, the fleet view),
# each under /usr/bin/time: peak memory (the largest process's, %M) and wall. Prints a Markdown
# table (docs/fleet.md, "The fleet at scale").
# usage: ci/bench-fleet.sh [BUILD_DIR] (env: SIZES="64 512 4096 10000" WORK=DIR FINISH=0 to skip the finish step)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
sizes=${SIZES:-64 512 4096 10000}
work=${WORK:-$(mktemp -d "${TMPDIR:-/tmp}/cuconform-bench-fleet.XXXXXX")}
finish=${FINISH:-1}
exe=$build/cuconform
base=$root/ci/baselines/NVIDIA-H200_driver-580.159.04.json.gz
mkdir -p "$work"
echo "bench-fleet: sizes $sizes in $work ($(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg))" >&2
echo "| GPUs | fleet peak memory | fleet wall | fleet HTML | finish step peak memory | finish step wall |"
echo "|---:|---:|---:|---:|---:|---:|"
for n in $sizes; do
  night=$work/night-$n
  rm -rf "$night" "$work/history-$n.sqlite"
  python3 "$root/ci/synth-fleet-night.py" "$base" "$night" "$n"
  # The exit codes are the night's status (every GPU the same: 0), shown in the table.
  frc=0
  /usr/bin/time -o "$work/fleet-$n.time" -f "%M %e" "$exe" fleet "$night" --html "$night/bench-fleet.html" >"$work/fleet-$n.txt" 2>&1 || frc=$?
  read -r fkb fwall < <(tail -1 "$work/fleet-$n.time")
  html=$(stat -c %s "$night/bench-fleet.html")
  fin_mem="not run"; fin_wall="not run"
  if [ "$finish" = 1 ]; then
    rc=0
    CUCONFORM_EXE=$exe /usr/bin/time -o "$work/finish-$n.time" -f "%M %e" \
      "$root/ci/slurm/finish-night.sh" "$night" "$work/history-$n.sqlite" "$root/ci/baselines" >"$work/finish-$n.txt" 2>&1 || rc=$?
    read -r kb wall < <(tail -1 "$work/finish-$n.time")
    fin_mem="$((kb / 1024)) MB"; fin_wall="$wall s (exit $rc)"
  fi
  echo "| $n | $((fkb / 1024)) MB | $fwall s (exit $frc) | $((html / 1024)) KB | $fin_mem | $fin_wall |"
done
