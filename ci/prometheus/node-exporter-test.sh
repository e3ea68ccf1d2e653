#!/usr/bin/env bash
# The Prometheus metrics end to end (CTest fleet:metrics, label fleet): results files made from
# the committed H200 baseline (two GPUs of node "node-m", every failure of the baseline turned
# into a pass, then one new failure planted on GPU 1), `cuconform export --metrics DIR`, and a
# real node_exporter (Debian's prometheus-node-exporter) started here on 127.0.0.1 on a free port
# with its textfile collector on DIR: /metrics must carry every GPU's series with the right labels
# and values (counts by verdict, new failures, the action), and no textfile error. Then
# `promtool check metrics` on the files and `promtool check rules` / `test rules` on
# ci/prometheus/cuconform.rules.yml (Debian's prometheus). node_exporter is stopped by its pid.
# Skips (exit 77) with the reason where the packages or python3 are missing.
#   usage: ci/prometheus/node-exporter-test.sh BUILD/cuconform
set -uo pipefail
exe=$(cd "$(dirname "${1:?usage: node-exporter-test.sh PATH/cuconform}")" && pwd)/$(basename "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)
skip() { echo "SKIPPED: $*"; exit 77; }
failed=0
fail() { echo "FAIL: $*"; failed=1; }
ne=$(command -v prometheus-node-exporter || command -v node_exporter) ||
  skip "prometheus-node-exporter not found: apt-get install prometheus-node-exporter (ci/setup.sh installs it where it can)"
command -v promtool >/dev/null 2>&1 || skip "promtool not found: apt-get install prometheus (ci/setup.sh installs it where it can)"
command -v python3 >/dev/null 2>&1 || skip "python3 not found"

work=$(mktemp -d "${TMPDIR:-/tmp}/cuconform-metrics.XXXXXX")
pid=""
stop() {
  if [ -n "$pid" ]; then
    kill "$pid" 2>/dev/null
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null
  fi
  [ "$failed" != 0 ] && [ -f "$work/ne.log" ] && { echo "--- node_exporter log"; tail -20 "$work/ne.log"; }
  rm -rf "$work"
}
trap stop EXIT

# Two GPUs from the baseline; GPU 1 fails the first passing positive case (a documented rule).
python3 "$repo/ci/synth-gpu-results.py" "$repo/ci/baselines/NVIDIA-H200_driver-580.159.04.json.gz" "$work" node-m 2 1 >/dev/null ||
  { fail "could not make the results"; exit 1; }

"$exe" export "$work/results.gpu0.json" "$work/results.gpu1.json" --known '' --metrics "$work/metrics" >"$work/export.out" 2>&1 ||
  fail "cuconform export exited $?: $(cat "$work/export.out")"
grep -q '^action node=node-m gpu=1 action=drain row=new-failure ' "$work/export.out" || fail "export does not drain GPU 1: $(cat "$work/export.out")"
grep -q '^action node=node-m gpu=0 action=none ' "$work/export.out" || fail "export gives GPU 0 an action: $(cat "$work/export.out")"
ls "$work/metrics"/*.prom >/dev/null 2>&1 || fail "no .prom file in the metrics folder"
for f in "$work/metrics"/*.prom; do
  out=$(promtool check metrics <"$f" 2>&1) || fail "promtool check metrics $(basename "$f"): $out"
done
ls -a "$work/metrics" | grep -q '\.tmp\.' && fail "a temporary file was left in the metrics folder"

# node_exporter on a free loopback port, its textfile collector alone on the folder.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$ne" --web.listen-address="127.0.0.1:$port" --collector.disable-defaults --collector.textfile \
  --collector.textfile.directory="$work/metrics" >"$work/ne.log" 2>&1 &
pid=$!
scrape() { python3 -c 'import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1], timeout=5).read().decode())' "http://127.0.0.1:$port/metrics" 2>/dev/null; }
for _ in $(seq 100); do scrape >"$work/scrape.txt" && break; sleep 0.1; done
[ -s "$work/scrape.txt" ] || { fail "node_exporter did not answer on 127.0.0.1:$port"; exit 1; }
echo "metrics-test: node_exporter $("$ne" --version 2>&1 | head -1 | awk '{print $3}') on 127.0.0.1:$port, $(grep -c '^cuconform_' "$work/scrape.txt") cuconform sample(s)"

# Every expected sample, by name, labels and value, read the way Prometheus parses the text.
python3 - "$work" <<'PY' || fail "the scraped series are not what the results say"
import json, re, sys
work = sys.argv[1]
text = open(work + "/scrape.txt").read()
samples = {}
for line in text.splitlines():
    m = re.match(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$', line)
    if not m or line.startswith("#"):
        continue
    labels = frozenset((k, v) for k, v in re.findall(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"', m.group(2) or ""))
    samples[(m.group(1), labels)] = float(m.group(3))
bad = []
def want(name, labels, value):
    got = samples.get((name, frozenset(labels.items())))
    if got != value:
        bad.append("%s%s: %s, expected %s" % (name, labels, got, value))
if samples.get(("node_textfile_scrape_error", frozenset())) != 0:
    bad.append("node_textfile_scrape_error is %s" % samples.get(("node_textfile_scrape_error", frozenset())))
for i in (0, 1):
    e = json.load(open("%s/expect.gpu%d.json" % (work, i)))
    base = dict(node="node-m", gpu_uuid=e["uuid"], gpu_index=str(i), model="NVIDIA H200", driver=e["driver"],
                suite_version=e["version"])
    for verdict in ("pass", "fail", "not-supported", "recorded", "planned", "timeout", "crash", "flake"):
        want("cuconform_cases", dict(base, verdict=verdict), float(e["counts"].get(verdict, 0)))
    want("cuconform_new_failures", base, float(i))
    want("cuconform_healthy", base, 1.0)
    action = "drain" if i == 1 else "none"
    for a in ("none", "watch", "rerun", "drain", "reset", "replace"):
        want("cuconform_action", dict(base, action=a), 1.0 if a == action else 0.0)
    want("cuconform_action_severity", base, 3.0 if i == 1 else 0.0)
    want("cuconform_run_start_timestamp_seconds", base, 1795713219.0)  # 2026-11-26T17:13:39Z
    if not any(n == "cuconform_run_info" and ("first_new_failure", e["planted"]) in l for (n, l) in samples):
        bad.append("cuconform_run_info of GPU %d does not name %r" % (i, e["planted"]))
want("cuconform_node_action", dict(node="node-m", action="drain"), 1.0)
for b in bad:
    print("  " + b)
sys.exit(1 if bad else 0)
PY

out=$(promtool check rules "$repo/ci/prometheus/cuconform.rules.yml" 2>&1) || fail "promtool check rules: $out"
out=$(cd "$repo/ci/prometheus" && promtool test rules cuconform.rules.test.yml 2>&1) || fail "promtool test rules: $out"
if [ "$failed" != 0 ]; then exit 1; fi
echo "metrics-test: passed"
