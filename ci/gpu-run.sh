#!/usr/bin/env bash
# On a GPU runner: build with all cores, run the whole suite on each code path asked for,
# then the same cases through CTest, write the reports, and compare with the baseline of the
# same GPU model, driver and code path from ci/baselines/ (results files kept as .json.gz; a new
# one: gzip -9 -n < OUTDIR/results.json > ci/baselines/NAME.json.gz).
#
# usage: ci/gpu-run.sh [OUTDIR] [cuconform run filters...]     (OUTDIR default $OUT, else results-gpu/)
#   CUCONFORM_CODEGENS   code paths, e.g. "sass jit ptxas=/opt/x/ptxas"; "all" = sass, jit and every
#                        other ptxas ci/find-ptxas.sh finds (default: sass)
#   CUCONFORM_REPEAT=N   run the first code path N times back to back (identical verdicts required)
#   CUCONFORM_SMOKE=1    also time the smoke profile (--profile smoke)
#   CUCONFORM_SKIP_CTEST=1, CUCONFORM_CTEST_LABELS=REGEX (e.g. "ldgsts|host"), CUCONFORM_SKIP_MUTATION=1
#   CUCONFORM_CTEST_REPEAT=N  run the CTest path N times back to back (each must fail nothing new)
#   CUCONFORM_COMMIT=abc1234  the commit to record (suite.commit) where the tree's .git is not its own
#   CUCONFORM_NODE=0     on a host of several GPUs, skip the node run (run --devices all after the
#                        first code path's run on GPU 0 alone; both walls and their ratio reported)
# A runner without a package registry needs the Debian dependencies in .deps/debs: run
# ci/fetch-debs.sh on a machine with apt and copy .deps/debs with the tree (or copy the folder
# ci/snapshot-for-gpu.sh makes); ci/setup.sh unpacks them.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
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
exe=./build-gpu/cuconform
$exe device | tee "$out/device.txt"

codegens=${CUCONFORM_CODEGENS:-sass}
if [ "$codegens" = all ]; then
  codegens="sass jit"
  while read -r p; do codegens="$codegens ptxas=$p"; done < <(bash ci/find-ptxas.sh)
fi
tag() { case "$1" in sass|jit) echo "$1" ;; ptxas=*) echo "ptxas-$("$(echo "$1" | cut -d= -f2-)" --version | grep -o 'V[0-9][0-9.]*' | head -1)" ;; esac; }

rc=0
first=""
for cg in $codegens; do
  t=$(tag "$cg")
  reps=1
  [ -z "$first" ] && reps=${CUCONFORM_REPEAT:-1}
  for i in $(seq 1 "$reps"); do
    name="$t"; [ "$reps" -gt 1 ] && name="$t-run$i"
    s=$(date +%s.%N)
    $exe run --codegen "$cg" --timing --json "$out/results-$name.json" --junit "$out/junit-$name.xml" "$@" > "$out/run-$name.log" 2>&1
    r=$?
    e=$(date +%s.%N)
    [ $r -gt $rc ] && [ $r -ne 3 ] && rc=$r
    echo "== cuconform run --codegen $cg ($name): exit $r, wall $(awk "BEGIN{printf \"%.1f\", $e - $s}") s (process start to reports written)"
    sed -n '/^device:/,$p' "$out/run-$name.log"
    # The first run of the first code path is the one reported and compared with the baseline.
    [ -z "$first" ] && first=$name
  done
done
cp "$out/results-$first.json" "$out/results.json"

# Every GPU of the node at once, against GPU 0 alone (the first run above): the wall times, their
# ratio, each GPU's verdicts against the others' and each GPU against its baseline.
ngpus=$(nvidia-smi --query-gpu=index --format=csv,noheader 2>/dev/null | grep -c . || true)
if [ "${ngpus:-0}" -gt 1 ] && [ "${CUCONFORM_NODE:-1}" != 0 ]; then
  s=$(date +%s.%N)
  $exe run --devices all --codegen "${codegens%% *}" --timing --out "$out/node" "$@" > "$out/run-node.log" 2>&1
  r=$?
  e=$(date +%s.%N)
  [ $r -gt $rc ] && [ $r -ne 3 ] && rc=$r
  echo "== cuconform run --devices all ($ngpus GPUs): exit $r, wall $(awk "BEGIN{printf \"%.1f\", $e - $s}") s"
  grep -E "^(== gpu|device:|verdicts:|GPU UNHEALTHY|health watch)" "$out/run-node.log"
  python3 - "$out" "$first" <<'PY'
import glob, json, sys
out, first = sys.argv[1], sys.argv[2]
alone = json.load(open(f"{out}/results-{first}.json"))
files = sorted(glob.glob(f"{out}/node/results.gpu*.json"))
runs = [json.load(open(f)) for f in files]
def key(c):
    return c["verdict"] + ("/" + c["facts"].get("outcome", "") if c["verdict"] == "recorded" else "")
v = [{c["name"]: key(c) for c in r["cases"]} for r in runs]
names = set().union(*v)
differ = sorted(n for n in names if len({x.get(n) for x in v}) > 1)
node_wall = max(r["run"]["wall_s"] for r in runs)
print("node: %d GPUs, wall %.1f s; GPU 0 alone %.1f s; ratio %.2f" % (len(runs), node_wall, alone["run"]["wall_s"], node_wall / alone["run"]["wall_s"]))
print("node: per-GPU verdicts identical: %s" % ("yes" if not differ else "NO (%d differ: %s)" % (len(differ), ", ".join(differ[:10]))))
for f, r in zip(files, runs):
    t = r["run"]["timing"]
    print("  %s %s: parallel %.1f s, alone %.1f s, isolated %.1f s; %s" % (f.split("/")[-1], r["device"].get("uuid", "?")[:12],
          t["parallel_phase_s"], t["alone_phase_s"], t["isolated_phase_s"], ", ".join("%s %d" % (k, n) for k, n in r["summary"].items() if n)))
PY
  for f in "$out"/node/results.gpu*.json; do
    echo "== compare ${f##*/} with its baseline"
    $exe compare ci/baselines "$f" --known ci/baselines/known.yaml | grep -E "^(baseline|RESULT|[a-z ]+\()" | head -n 12
  done
fi
cp "$out/junit-$first.xml" "$out/junit.xml"

if [ "${CUCONFORM_REPEAT:-1}" -gt 1 ]; then
  # Back-to-back runs must agree on every verdict.
  python3 - "$out" "$(tag "${codegens%% *}")" "${CUCONFORM_REPEAT}" <<'PY'
import json, sys
out, t, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
runs = [json.load(open(f"{out}/results-{t}-run{i}.json")) for i in range(1, n + 1)]
v = [{c["name"]: c["verdict"] for c in r["cases"]} for r in runs]
diff = [k for k in v[0] if any(x.get(k) != v[0][k] for x in v[1:])]
print("repeat: %d runs, wall %s s, verdicts identical: %s" % (n, ", ".join("%.1f" % r["run"]["wall_s"] for r in runs), "yes" if not diff else "NO (%d differ: %s)" % (len(diff), ", ".join(diff[:10]))))
PY
fi

if [ "${CUCONFORM_SMOKE:-0}" = 1 ]; then
  s=$(date +%s.%N)
  $exe run --profile smoke --timing --json "$out/results-smoke.json" --junit "$out/junit-smoke.xml" > "$out/run-smoke.log" 2>&1
  echo "== smoke profile: exit $?, wall $(awk "BEGIN{printf \"%.1f\", $(date +%s.%N) - $s}") s"; sed -n '/^device:/,$p' "$out/run-smoke.log"
fi

# Toolchains side by side, and every verdict that differs from the first code path.
if [ "$(echo $codegens | wc -w)" -gt 1 ]; then
  files=()
  for cg in $codegens; do t=$(tag "$cg"); f="$out/results-$t.json"; [ -e "$f" ] || f="$out/results-$t-run1.json"; files+=("$f"); done
  $exe merge "${files[@]}" -o "$out/toolchains.json"
  $exe report "$out/toolchains.json" --md "$out/toolchains.md" --html "$out/toolchains.html" --known ci/baselines/known.yaml
  for f in "${files[@]:1}"; do
    echo "== toolchain compare: ${files[0]##*/} -> ${f##*/}"
    $exe compare "${files[0]}" "$f" --known ci/baselines/known.yaml | grep -v "^  measurement" | tail -n 60
  done
fi

# The same cases through CTest (one process per case).
if [ "${CUCONFORM_SKIP_CTEST:-0}" != 1 ]; then
  labels=()
  [ -n "${CUCONFORM_CTEST_LABELS:-}" ] && labels=(-L "$CUCONFORM_CTEST_LABELS")
  # Up to 8 tests share the GPU (one slot each); [gpu-alone] tests take its lock exclusively.
  bash ci/resources/make-resource-spec.sh build-gpu/gpus.json
  for i in $(seq 1 "${CUCONFORM_CTEST_REPEAT:-1}"); do
    ctest_start=$(date +%s)
    ctest_log="$out/ctest-$i.log"
    (cd build-gpu && ctest -j "$(nproc)" "${labels[@]}" --resource-spec-file gpus.json --output-junit "$out/ctest-junit-$i.xml") > "$ctest_log" 2>&1
    echo "== ctest run $i"
    grep -E "tests passed|tests failed|\((Failed|Timeout|SEGFAULT|Exception)\)" "$ctest_log"
    echo "ctest: $(grep -c '(Skipped)' "$ctest_log") skipped (planned, not-supported, known failures)"
    echo "ctest: $(( $(date +%s) - ctest_start )) s"
  done
fi

# Human reports, and what changed against the matching committed baseline.
$exe report "$out/results.json" --html "$out/report.html" --md "$out/summary.md" --known ci/baselines/known.yaml
$exe compare ci/baselines "$out/results.json" --known ci/baselines/known.yaml | grep -v "^  measurement differs" | tail -n 40
if [ "${CUCONFORM_SKIP_MUTATION:-0}" != 1 ]; then
  # Proof that checks can fail: flipped expectations must turn their cases into failures.
  python3 ci/mutation-check.py $exe specs "${TMPDIR:-/tmp}/cuconform-mutations" || echo "mutation-check: some mutation was not caught"
fi
echo "gpu-run: total $(( $(date +%s) - start )) s; reports in $out"
exit $rc
