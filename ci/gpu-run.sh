#!/usr/bin/env bash
# On a GPU machine: unpack the carried dependencies, build with all cores, run the whole
# suite (the main job, then the same cases through CTest), and write the reports into the
# output folder given (default $OUT, else results-gpu/).
#   device tool: run `bash ci/gpu-run.sh` with carry [".deps"] after ci/fetch-debs.sh.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# usage: ci/gpu-run.sh [OUTDIR] [cuconform run filters...]
out=${OUT:-$root/results-gpu}
if [ $# -gt 0 ] && [ "${1#--}" = "$1" ]; then out=$1; shift; fi
mkdir -p "$out"
cd "$root"
log="$out/gpu-run.log"
exec > >(tee "$log") 2>&1
start=$(date +%s)
bash ci/setup.sh || exit 2
cmake --preset gpu || exit 2
cmake --build --preset gpu -j "$(nproc)" || exit 2
./build-gpu/cuconform device | tee "$out/device.txt"
suite_start=$(date +%s)
./build-gpu/cuconform run --out "$out" "$@"
rc=$?
suite_end=$(date +%s)
echo "cuconform run: exit $rc, whole-suite wall time $((suite_end - suite_start)) s"
# The same cases through CTest (one process per case): all of them, or the labels in
# CUCONFORM_CTEST_LABELS (a CTest label regex, e.g. "ldgsts|host"); CUCONFORM_SKIP_CTEST=1 skips.
if [ "${CUCONFORM_SKIP_CTEST:-0}" != 1 ]; then
  labels=()
  [ -n "${CUCONFORM_CTEST_LABELS:-}" ] && labels=(-L "$CUCONFORM_CTEST_LABELS")
  ctest_start=$(date +%s)
  ctest_log="${TMPDIR:-/tmp}/cuconform-ctest.log"
  (cd build-gpu && ctest -j 8 "${labels[@]}" --output-junit "$out/ctest-junit.xml") > "$ctest_log" 2>&1
  grep -E "tests passed|tests failed|\((Failed|Timeout|SEGFAULT|Exception)\)" "$ctest_log"
  echo "ctest: $(grep -c '(Skipped)' "$ctest_log") skipped (planned, not-supported, known failures)"
  echo "ctest: $(( $(date +%s) - ctest_start )) s"
fi
# Human reports, and what changed against the newest committed baseline.
./build-gpu/cuconform report "$out/results.json" --html "$out/report.html" --md "$out/summary.md" --known ci/baselines/known.yaml
base=$(ls -t ci/baselines/*.json 2>/dev/null | head -n 1)
if [ -n "$base" ]; then
  ./build-gpu/cuconform compare "$base" "$out/results.json" --known ci/baselines/known.yaml | tail -n 30
fi
# Proof that checks can fail: flipped expectations must turn their cases into failures.
python3 ci/mutation-check.py build-gpu/cuconform specs "${TMPDIR:-/tmp}/cuconform-mutations" || echo "mutation-check: some mutation was not caught"
echo "gpu-run: total $(( $(date +%s) - start )) s; reports in $out"
exit $rc
