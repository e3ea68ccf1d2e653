#!/usr/bin/env bash
# The Kubernetes side, without a cluster (CTest: fleet:k8s, label fleet):
#  1. ci/k8s/*.yaml against the Kubernetes API schema (ci/k8s/validate.mjs, npm's
#     kubernetes-models from ci/setup.sh), and three planted mistakes it must catch: an unknown
#     field in a container, a number where the schema wants an integer, a required field left out;
#  2. a night as the pods and the merge would run it, on this machine: two nodes' pods
#     (ci/k8s/pod-night.sh; no GPU here: they report so and succeed), a third killed mid-write
#     (a .partial folder, never read), a fourth never scheduled; ci/k8s/merge-night.sh waits its
#     bounded time and names the two missing nodes.
# Part 1 skips (exit 77, with the reason) without node or the npm packages; part 2 always runs.
#   usage: ci/k8s/k8s-test.sh BUILD/cuconform
set -uo pipefail
source "$(cd "$(dirname "$0")/.." && pwd)/skip-where-gpu.sh"
exe=$(cd "$(dirname "${1:?usage: k8s-test.sh PATH/cuconform}")" && pwd)/$(basename "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/cuconform-k8s.XXXXXX")
trap 'rm -rf "$work"' EXIT
failed=0
fail() { echo "FAIL: $*"; failed=1; }
skipped=""

# 1. The manifests.
modules=${CUCONFORM_NODE_MODULES:-$repo/.deps/npm/node_modules}
if ! command -v node >/dev/null 2>&1; then
  skipped="node is not installed"
elif [ ! -d "$modules/kubernetes-models" ] || [ ! -d "$modules/yaml" ]; then
  skipped="kubernetes-models and yaml are not in $modules (ci/setup.sh installs them with npm)"
else
  node "$repo/ci/k8s/validate.mjs" "$modules" "$repo"/ci/k8s/*.yaml || fail "the manifests do not validate"
  m=$repo/ci/k8s/cuconform-nightly.yaml
  sed 's/^\( *\)workingDir: \/opt\/cuconform/&\n\1resourcez: {}/' "$m" >"$work/unknown.yaml"
  sed 's/completions: 4  # NODES/completions: 4.5/' "$m" >"$work/type.yaml"
  sed '/schedule: "17 2/d' "$m" >"$work/required.yaml"
  for planted in unknown:"unknown field 'resourcez'" type:"completions must be integer" required:"must have required property schedule"; do
    f=${planted%%:*} want=${planted#*:}
    out=$(node "$repo/ci/k8s/validate.mjs" "$modules" "$work/$f.yaml" 2>&1)
    [ $? = 1 ] && grep -q "$want" <<<"$out" || fail "planted mistake '$f' not caught: $out"
  done
fi

# 2. A night on this machine: pods of node-1 and node-2, node-3 killed mid-write, node-4 never.
# node-2's cuconform takes `run --devices all` as the multi-GPU interface will (per-GPU files and
# node.json in --out), played by one real run per GPU and a merge.
cat >"$work/cuconform-devices" <<STAND
#!/usr/bin/env bash
if [ "\$1" = help ]; then "$exe" help; echo "  run --devices all|0,2|GPU-UUID,..."; exit 0; fi
if [ "\$1 \$2 \$3 \$4" = "run --devices all --out" ]; then
  out=\$5; shift 5; rc=0; i=0
  IFS=, read -r -a gpus <<<"\${CUDA_VISIBLE_DEVICES:-0}"
  for g in "\${gpus[@]}"; do
    CUDA_VISIBLE_DEVICES=\$g "$exe" run --json "\$out/results.gpu\$i.json" --junit "\$out/junit.gpu\$i.xml" "\$@"; r=\$?
    [ \$r -gt \$rc ] && rc=\$r; i=\$((i + 1)); sleep 1
  done
  "$exe" merge "\$out"/results.gpu*.json -o "\$out/node.json" >/dev/null
  exit \$rc
fi
exec "$exe" "\$@"
STAND
chmod +x "$work/cuconform-devices"
results=$work/results
night=cuconform-nightly-29412345
for n in 1 2; do
  pod_exe=$exe
  [ "$n" = 2 ] && pod_exe=$work/cuconform-devices
  NIGHT=$night NODE_NAME=node-$n POD_NAME=$night-$n CUCONFORM_RESULTS=$results CUCONFORM_EXE=$pod_exe \
    CUCONFORM_FILTERS="--profile smoke --area ldgsts" CUDA_VISIBLE_DEVICES=0,1 bash "$repo/ci/k8s/pod-night.sh" >"$work/pod-$n.log" 2>&1
  rc=$?
  [ "$rc" = 0 ] || fail "the pod of node-$n (no GPU here) exited $rc; it should report and succeed: $(tail -2 "$work/pod-$n.log")"
done
mkdir -p "$results/$night/.partial/node-3.$night-3"
echo '{"schema": "cuconform-res' >"$results/$night/.partial/node-3.$night-3/results.gpu0.json"
out=$(CUCONFORM_NODES=4 CUCONFORM_GPUS_PER_NODE=2 CUCONFORM_MERGE_WAIT_S=1 CUCONFORM_EXE=$exe bash "$repo/ci/k8s/merge-night.sh" "$results" 2>&1)
rc=$?
[ "$rc" = 1 ] || fail "merge-night.sh exited $rc, expected 1 (two nodes missing)"
for want in "2 of 4 node(s) finished within 1 s" "node node-3: missing" "node unscheduled-4: missing" \
            "node-1: ran (run exit 3" "node-2: ran (run exit 3" "node-3.$night-3: an attempt that did not finish (never read)"; do
  grep -qF "$want" <<<"$out" || fail "merge-night.sh output lacks '$want'"
done
[ -f "$results/$night/fleet.html" ] || fail "no fleet.html"
[ -f "$results/$night/nodes/node-2/node.json" ] || fail "node-2's run --devices wrote no node.json"
grep -qF "node-2: ran (run exit 3, job $night-2), 0 of 2 GPU(s) ran" <<<"$out" ||
  fail "node-2 (run --devices: per-GPU files and node.json) is not counted as exactly 2 GPUs"
[ "$(grep -c "results.gpu[01].json" "$results/$night/history-add.log")" -ge 1 ] || fail "the results were not added to the history"
[ "$failed" = 0 ] || { echo "$out"; exit 1; }
echo "ok: a night of 4 expected nodes: 2 ran (no GPU, reported), 1 killed mid-write and 1 never scheduled named as missing"
if [ -n "$skipped" ]; then
  echo "SKIPPED: the manifest schema check: $skipped"
  exit 77
fi
echo "ok: the manifests validate, and the planted mistakes are caught"
