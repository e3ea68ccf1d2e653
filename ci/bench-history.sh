#!/usr/bin/env bash
# The history database under load: RUNS synthetic nightly runs of CASES cases each (made by
# cuconform-synth-nightly from the H200 baseline, padded with copies; 5 flipping cases, one change
# with a driver change on night 17, one drifting measurement) are added BATCH at a time, then the
# queries are timed (best of 5). Numbers go to stdout as a Markdown table (docs/history-benchmark.md).
# usage: ci/bench-history.sh [BUILD_DIR] (env: RUNS=1000 CASES=4000 BATCH=50 DB=PATH-or-URL WORK=DIR)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
runs=${RUNS:-1000}
cases=${CASES:-4000}
batch=${BATCH:-50}
work=${WORK:-$(mktemp -d "${TMPDIR:-/tmp}/cuconform-bench.XXXXXX")}
db=${DB:-$work/history.sqlite}
exe=$build/cuconform
synth=$build/cuconform-synth-nightly
mkdir -p "$work"
trap 'rm -rf "$work/batch"' EXIT

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }

echo "bench-history: $runs runs x $cases cases into $db ($(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg))" >&2
load=0
gen=0
for ((from = 1; from <= runs; from += batch)); do
  to=$((from + batch - 1))
  ((to > runs)) && to=$runs
  rm -rf "$work/batch"
  t0=$(now)
  "$synth" --baseline "$root/ci/baselines/NVIDIA-H200_driver-580.159.04.json.gz" --out "$work/batch" --runs "$runs" \
    --from "$from" --to "$to" --pad "$cases" --flaky 5 --compact
  t1=$(now)
  "$exe" history add --db "$db" "$work"/batch/*.json >/dev/null
  t2=$(now)
  gen=$(awk -v g="$gen" -v d="$(secs "$t0" "$t1")" 'BEGIN { print g + d }')
  load=$(awk -v l="$load" -v d="$(secs "$t1" "$t2")" 'BEGIN { print l + d }')
  echo "  runs $from-$to added: $(secs "$t1" "$t2") s (total $load s)" >&2
done
size=$(du -m "$db" 2>/dev/null | cut -f1 || echo "?")

# Best of 5 wall-clock seconds of a command (its output discarded).
best() {
  local b=""
  for _ in 1 2 3 4 5; do
    local t0 t1
    t0=$(now)
    "$@" >/dev/null || { echo "bench-history: $* failed" >&2; exit 1; }
    t1=$(now)
    b=$(awk -v b="$b" -v d="$(secs "$t0" "$t1")" 'BEGIN { print (b == "" || d < b) ? d : b }')
  done
  echo "$b"
}
width=$((${#runs} > 2 ? ${#runs} : 2))  # as cuconform-synth-nightly names them
last=$(printf "%s/batch/night-%0*d.json" "$work" "$width" "$runs")
"$synth" --baseline "$root/ci/baselines/NVIDIA-H200_driver-580.159.04.json.gz" --out "$work/batch" --runs "$runs" \
  --from $((runs - 1)) --to "$runs" --pad "$cases" --flaky 5 --compact
prev=$(printf "%s/batch/night-%0*d.json" "$work" "$width" $((runs - 1)))

echo "| what | seconds |"
echo "|---|---|"
echo "| generate $runs runs (cuconform-synth-nightly, not part of the load) | $gen |"
echo "| \`history add\` of $runs runs x $cases cases, $batch files per command | $load |"
echo "| database size | $size MB |"
echo "| \`history changes\` | $(best "$exe" history changes --db "$db") |"
echo "| \`history changes --format json\` | $(best "$exe" history changes --db "$db" --format json) |"
echo "| \`history flaky\` (last 30 runs of each configuration) | $(best "$exe" history flaky --db "$db") |"
echo "| \`history runs --last 30\` | $(best "$exe" history runs --db "$db" --last 30) |"
echo "| \`history trend\` (every measurement of the last 30 runs) | $(best "$exe" history trend --db "$db") |"
echo "| \`compare --history\` (night $((runs - 1)) vs $runs) | $(best sh -c "\"$exe\" compare \"$prev\" \"$last\" --history \"$db\"; [ \$? -le 1 ]") |"
echo "| \`history report --html\` | $(best "$exe" history report --db "$db" --html "$work/report.html") |"
echo "| \`history add\` of a run already stored | $(best "$exe" history add --db "$db" "$last") |"
