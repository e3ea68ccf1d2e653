#!/usr/bin/env bash
# Every figure of the runner's time budget (docs/performance.md, issue 42's table) measured in one
# call on a GPU host: the plan, the whole suite twice back to back (walls, identical verdicts, no
# case lost, `compare` of the two), smoke, CTest with one GPU, and on a host of several GPUs
# `run --devices all` against GPU 0 alone in the same call (the ratio, per-GPU verdicts). Then
# each lever of BENCH_AB once, against the first run (its wall and `compare`).
#
# usage: ci/bench-suite.sh [OUTDIR]              (default $OUT, else results-bench/)
#   BENCH_AB="CUCONFORM_FAULTS_SHARE=1 CUCONFORM_PRESTART_DEPTH=6"   levers to A/B (one run each;
#            several variables for one run joined with '+': "A=1+B=2")
#   BENCH_SKIP_CTEST=1, BENCH_SKIP_NODE=1
# Builds with the gpu preset when build-gpu/cuconform is missing (as ci/gpu-run.sh does).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/results-bench}
[ $# -gt 0 ] && out=$1
mkdir -p "$out"
cd "$root"
exec > >(tee "$out/bench.log") 2>&1
exe=./build-gpu/cuconform
if [ ! -x "$exe" ]; then
  bash ci/setup.sh || exit 2
  cmake --preset gpu || exit 2
fi
cmake --build --preset gpu -j "$(nproc)" >"$out/build.log" 2>&1 || { tail -20 "$out/build.log"; exit 2; }

now() { date +%s.%N; }
secs() { awk "BEGIN{printf \"%.1f\", $2 - $1}"; }
declare -A fig

$exe run --plan >"$out/plan.txt" 2>&1
$exe run --plan --json "$out/plan.json" >/dev/null 2>&1
head -n 14 "$out/plan.txt"

run_suite() {  # NAME [env assignments...]: the whole suite on GPU 0 alone
  local name=$1; shift
  local s; s=$(now)
  env "$@" $exe run --timing --json "$out/results-$name.json" --junit "$out/junit-$name.xml" >"$out/run-$name.log" 2>&1
  local r=$?
  fig[$name]=$(secs "$s" "$(now)")
  echo "== run $name ${*:-}: exit $r, wall ${fig[$name]} s"
  grep -E "^(verdicts|GPU |isolated|parallel|alone)" "$out/run-$name.log" | head -n 8
}
run_suite whole1
run_suite whole2
s=$(now)
$exe run --profile smoke --timing --json "$out/results-smoke.json" --junit "$out/junit-smoke.xml" >"$out/run-smoke.log" 2>&1
fig[smoke]=$(secs "$s" "$(now)")
$exe compare "$out/results-whole1.json" "$out/results-whole2.json" --known ci/baselines/known.yaml >"$out/compare-whole.txt" 2>&1
fig[compare_rc]=$?

ngpus=$(nvidia-smi --query-gpu=index --format=csv,noheader 2>/dev/null | grep -c . || true)
if [ "${BENCH_SKIP_CTEST:-0}" != 1 ]; then
  bash ci/resources/make-resource-spec.sh build-gpu/gpus.json
  s=$(now)
  # One GPU: the host tests and GPU 0's registrations (a node registers each GPU test per GPU).
  (cd build-gpu && ctest -j "$(nproc)" -E '^gpu[1-9][0-9]*:' --resource-spec-file gpus.json) >"$out/ctest.log" 2>&1
  fig[ctest]=$(secs "$s" "$(now)")
  grep -E "tests passed|tests failed" "$out/ctest.log"
fi
if [ "${ngpus:-0}" -gt 1 ] && [ "${BENCH_SKIP_NODE:-0}" != 1 ]; then
  s=$(now)
  $exe run --devices all --timing --out "$out/node" >"$out/run-node.log" 2>&1
  fig[node]=$(secs "$s" "$(now)")
  s=$(now)
  $exe run --timing --json "$out/results-alone.json" --junit "$out/junit-alone.xml" >"$out/run-alone.log" 2>&1
  fig[alone]=$(secs "$s" "$(now)")
fi
for lever in ${BENCH_AB:-}; do
  IFS=+ read -r -a assign <<<"$lever"
  run_suite "ab-${lever//[^A-Za-z0-9_]/_}" "${assign[@]}"
  $exe compare "$out/results-whole1.json" "$out/results-ab-${lever//[^A-Za-z0-9_]/_}.json" --known ci/baselines/known.yaml \
    >"$out/compare-ab-${lever//[^A-Za-z0-9_]/_}.txt" 2>&1
  echo "   compare with whole1: exit $?"
done

python3 - "$out" "${fig[whole1]}" "${fig[whole2]}" "${fig[smoke]}" "${fig[ctest]:-}" "${fig[node]:-}" "${fig[alone]:-}" "${fig[compare_rc]}" <<'PY'
import glob, json, os, sys
out, w1, w2, smoke, ctest, node, alone, cmp_rc = sys.argv[1:9]
def load(name):
    return json.load(open(os.path.join(out, name)))
r1, r2 = load("results-whole1.json"), load("results-whole2.json")
def key(c):
    return c["verdict"] + ("/" + c["facts"].get("outcome", "") if c["verdict"] == "recorded" else "")
v1 = {c["name"]: key(c) for c in r1["cases"]}
v2 = {c["name"]: key(c) for c in r2["cases"]}
differ = sorted(n for n in set(v1) | set(v2) if v1.get(n) != v2.get(n))
t = r1["run"]["timing"]
rows = [
    ("whole suite, one GPU (two runs)", "%s / %s s, %d / %d cases" % (w1, w2, len(v1), len(v2)), "<= 20 s"),
    ("  verdicts identical, compare exit", "%s, %s" % ("yes" if not differ else "NO: %d differ (%s)" % (len(differ), ", ".join(differ[:8])), cmp_rc), "yes, 0"),
    ("  parallel / alone / isolated phases", "%.1f / %.1f / %.1f s" % (t["parallel_phase_s"], t["alone_phase_s"], t["isolated_phase_s"]), ""),
    ("  isolated lane", "%d cases in %d processes: contexts %.1f s, cases %.1f s, exits %.1f s" % (
        t["isolated_cases"], t["isolated_workers"], t.get("isolated_not_ready_s", t["isolated_start_s"]), t["isolated_run_s"], t["isolated_exit_s"]), ""),
    ("smoke", smoke + " s", "<= 5 s"),
]
if ctest:
    rows.append(("CTest, one GPU", ctest + " s", "<= 90 s"))
if node and alone:
    rows.append(("run --devices all / one GPU", "%s s / %s s = %.2f" % (node, alone, float(node) / float(alone)), "<= 1.3"))
    files = sorted(glob.glob(os.path.join(out, "node", "results.gpu*.json")))
    vs = [{c["name"]: key(c) for c in json.load(open(f))["cases"]} for f in files]
    names = set().union(*vs) if vs else set()
    nd = sorted(n for n in names if len({x.get(n) for x in vs}) > 1)
    rows.append(("  per-GPU verdicts identical", "yes" if not nd else "NO: %d differ (%s)" % (len(nd), ", ".join(nd[:8])), "yes"))
print("\n| figure | measured | goal |\n| --- | --- | --- |")
for a, b, c in rows:
    print("| %s | %s | %s |" % (a, b, c))
for f in sorted(glob.glob(os.path.join(out, "results-ab-*.json"))):
    r = json.load(open(f))
    va = {c["name"]: key(c) for c in r["cases"]}
    d = sorted(n for n in set(v1) | set(va) if v1.get(n) != va.get(n))
    ta = r["run"]["timing"]
    print("| lever %s | %.1f s (isolated %.1f s, %d processes); verdicts vs whole1: %s | |" % (
        os.path.basename(f)[11:-5], r["run"]["wall_s"], ta["isolated_phase_s"], ta["isolated_workers"],
        "identical" if not d else "%d differ (%s)" % (len(d), ", ".join(d[:6]))))
PY
