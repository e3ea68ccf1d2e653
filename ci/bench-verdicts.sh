#!/usr/bin/env bash
# The false-alarm and detection rates of the performance decision rule (harness/util/
# decision_rule.hpp), measured on a GPU; the figures go to docs/performance.md.
#   A/A, one GPU: the judged rate rules AA times on GPU 0; a case flips when its verdicts hold both
#     pass and fail. Inconclusive verdicts are counted apart (never a pass, never a failure).
#   A/A, the node: the same rules once on every GPU of the node (run --devices all); a case flips
#     when one GPU passes it and another fails it.
#   A/B: AB runs on GPU 0 with a planted 10% slow-down of each comparison's first configuration
#     ($CUCONFORM_PLANT_SLOWDOWN=0.10, recorded in each case). Of the cases that passed in every
#     A/A run, those the slow-down takes below their boundary (A/A bound / 1.10 under it) must
#     fail: the share that did is the detection rate; those whose margin exceeds the slow-down
#     must still pass (a fail there is a false alarm); the rest straddle and may go either way.
# usage: ci/bench-verdicts.sh [BUILD_DIR] (env: AA=10 AB=5 RULES='glob ...' OUT=DIR SLOWDOWN=0.10)
# Prints a Markdown summary on stdout; every results file stays under OUT.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
exe=$build/cuconform
aa=${AA:-10}
ab=${AB:-5}
slowdown=${SLOWDOWN:-0.10}
# The rules judged by comparing two rates (compare_rates with a boundary).
rules=${RULES:-"performance.elect.issue_rate performance.smem_bank.swizzle_transpose performance.ldgsts.bytes_in_flight scopes.perf.* async_group.perf.* ldgsts.perf.* pipeline_api.perf.* tma_throughput.bulk.one_copy_not_slower_than_pieces"}
out=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/cuconform-verdicts.XXXXXX")}
mkdir -p "$out"
filters=()
set -f  # the globs are cuconform's, not the shell's
for r in $rules; do filters+=(--rule "$r"); done
set +f
[ -x "$exe" ] || { echo "bench-verdicts: no $exe (build first)" >&2; exit 2; }
"$exe" list "${filters[@]}" >"$out/cases.txt" || { echo "bench-verdicts: the rules select nothing: $rules" >&2; exit 2; }

echo "bench-verdicts: $aa A/A runs, the node once, $ab A/B runs (slow-down $slowdown) into $out" >&2
for ((i = 1; i <= aa; ++i)); do
  "$exe" run "${filters[@]}" --devices 0 --out "$out/aa-$i" >"$out/aa-$i.log" 2>&1 || true
done
"$exe" run "${filters[@]}" --devices all --out "$out/node" >"$out/node.log" 2>&1 || true
for ((i = 1; i <= ab; ++i)); do
  CUCONFORM_PLANT_SLOWDOWN=$slowdown "$exe" run "${filters[@]}" --devices 0 --out "$out/ab-$i" >"$out/ab-$i.log" 2>&1 || true
done

python3 - "$out" "$aa" "$ab" "$slowdown" <<'PY'
import glob, json, os, sys
from collections import defaultdict
out, aa, ab, slowdown = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]

def verdicts(path):
    """{case name: (verdict, ratio, lo, hi, pairs)} of one results file; {} when it is missing."""
    try:
        with open(path) as f:
            d = json.load(f)
    except (OSError, ValueError):
        return {}
    r = {}
    for c in d.get("cases", []):
        m = c.get("measurements", {}) or {}
        if "boundary" not in m:  # recorded comparisons and non-rate cases are not judged by the rule
            continue
        r[c["name"]] = (c["verdict"], m.get("ratio"), m.get("ratio_lo"), m.get("ratio_hi"), m.get("pairs"), m.get("boundary"))
    return r

def one(d):  # a run's results file: results.json, or results.gpu0.json under --devices
    for name in ("results.gpu0.json", "results.json"):
        if os.path.exists(os.path.join(d, name)):
            return verdicts(os.path.join(d, name))
    return {}

runs = [one(os.path.join(out, f"aa-{i}")) for i in range(1, aa + 1)]
seen = defaultdict(list)
for r in runs:
    for k, v in r.items():
        seen[k].append(v[0])
flips = sorted(k for k, v in seen.items() if "pass" in v and "fail" in v)
inconc = sum(v.count("inconclusive") for v in seen.values())
total = sum(len(v) for v in seen.values())
print(f"## Decision rule: A/A and A/B ({len(seen)} judged cases)\n")
print(f"- A/A, one GPU, {aa} runs: {len(flips)} of {len(seen)} cases flipped between pass and fail"
      f" ({100.0 * len(flips) / max(1, len(seen)):.1f}%); {inconc} of {total} verdicts inconclusive")
for k in flips:
    print(f"  - flipped: `{k}` {seen[k]}")

node = [verdicts(p) for p in sorted(glob.glob(os.path.join(out, "node", "results.gpu*.json")))]
common = set.intersection(*(set(n) for n in node)) if node else set()
nflips = sorted(k for k in common if {"pass", "fail"} <= {n[k][0] for n in node})
ninc = sum(1 for k in common for n in node if n[k][0] == "inconclusive")
print(f"- A/A, the node, {len(node)} GPUs: {len(nflips)} of {len(common)} cases pass on one GPU and fail on another;"
      f" {ninc} verdicts inconclusive")
for k in nflips:
    print(f"  - differs: `{k}` " + ", ".join(f"GPU {i}: {n[k][0]} {n[k][1]} [{n[k][2]}, {n[k][3]}]" for i, n in enumerate(node)))

steady = {k for k, v in seen.items() if v and all(x == "pass" for x in v) and len(v) == aa}
# Where the planted slow-down takes each case: its A/A bound divided by (1 + slow-down) against its
# boundary. Below it entirely, the rule no longer holds and the verdict must be fail; above it
# entirely, the case keeps more margin than the slow-down and pass is right; across it, either.
def median(xs):
    xs = sorted(x for x in xs if x is not None)
    return xs[len(xs) // 2] if xs else None
bound = {}
for k in steady:
    rs = [r[k] for r in runs if k in r]
    lo, hi, b = median(x[2] for x in rs), median(x[3] for x in rs), median(x[5] for x in rs)
    bound[k] = (lo, hi, b)
f = 1.0 + float(slowdown)
must_fail = {k for k, (lo, hi, b) in bound.items() if None not in (lo, hi, b) and hi / f < b}
may_pass = {k for k, (lo, hi, b) in bound.items() if None not in (lo, hi, b) and lo / f >= b}
abruns = [one(os.path.join(out, f"ab-{i}")) for i in range(1, ab + 1)]
def tally(cases):
    count = defaultdict(int)
    for r in abruns:
        for k in cases & set(r):
            count[r[k][0]] += 1
    return count, sum(count.values())
count, n = tally(must_fail)
print(f"- A/B, planted slow-down {slowdown}, {ab} runs; of the {len(steady)} cases that passed every A/A run,"
      f" {len(must_fail)} no longer hold after it (their A/A bound / {f:.2f} is below the boundary):"
      f" failed {count['fail']} of {n} ({100.0 * count['fail'] / max(1, n):.1f}%), inconclusive {count['inconclusive']},"
      f" passed {count['pass']}")
missed = sorted({k for r in abruns for k in must_fail & set(r) if r[k][0] == "pass"})
for k in missed:
    print(f"  - missed: `{k}`")
count, n = tally(may_pass)
print(f"- A/B, the {len(may_pass)} cases whose margin is larger than the slow-down (the rule still holds):"
      f" passed {count['pass']} of {n}, inconclusive {count['inconclusive']}, failed {count['fail']}")
near = steady - must_fail - may_pass
count, n = tally(near)
print(f"- A/B, the {len(near)} cases whose bound straddles the boundary after the slow-down: failed {count['fail']},"
      f" inconclusive {count['inconclusive']}, passed {count['pass']} of {n}")
PY
