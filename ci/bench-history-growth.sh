#!/usr/bin/env bash
# The history's growth per GPU-night, before and after `history prune` (docs/fleet.md, "History
# growth"): NIGHTS synthetic nights (cuconform-synth-nightly from the H200 baseline: its 4,923
# cases, one flipping case, one change and a new driver on night 2, one drifting measurement) run by GPUS GPUs
# (8 a node; each its own uuid and host), added a night at a time. Prints the sizes after night
# NIGHTS/2 and after the last, never pruned and after `prune --keep-days 0 --keep-runs 1` (every
# run but each GPU's newest pruned), and the growth per GPU-night between them (on both the newest
# night is whole, so it cancels); then the size of `history report --html`.
# Two databases: DB_WHOLE never pruned, DB pruned after night NIGHTS/2 and the last.
# usage: ci/bench-history-growth.sh [BUILD_DIR] (env: GPUS=20 NIGHTS=10 DB=PATH-or-URL DB_WHOLE=PATH-or-URL WORK=DIR)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
gpus=${GPUS:-20}
nights=${NIGHTS:-10}
half=$((nights / 2))
work=${WORK:-$(mktemp -d "${TMPDIR:-/tmp}/cuconform-growth.XXXXXX")}
db=${DB:-$work/pruned.sqlite}
whole=${DB_WHOLE:-$work/whole.sqlite}
exe=$build/cuconform
mkdir -p "$work/one"
"$build/cuconform-synth-nightly" --baseline "$root/ci/baselines/NVIDIA-H200_driver-580.159.04.json.gz" --out "$work/one" \
  --runs "$nights" --change-run 2 --compact >/dev/null
# Each GPU: the same nights under its own uuid and host.
python3 - "$work" "$gpus" "$nights" <<'PY'
import json, os, sys
work, gpus, nights = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
width = max(2, len(str(nights)))
for night in range(1, nights + 1):
    base = open("%s/one/night-%0*d.json" % (work, width, night)).read()
    j = json.loads(base)
    uuid, host = j["device"]["uuid"], j["run"]["host"]
    os.makedirs("%s/n%d" % (work, night), exist_ok=True)
    for g in range(gpus):
        t = base.replace(uuid, "GPU-%08x-1111-2222-3333-444444444444" % g).replace('"%s"' % host, '"node%05d"' % (g // 8))
        open("%s/n%d/gpu%d.json" % (work, night, g), "w").write(t)
PY
size() {  # a database's bytes: SQLite's pages (after a checkpoint) or pg_database_size
  if [[ $1 == postgres* ]]; then
    psql -Atq "$1" -c "SELECT pg_database_size(current_database())"
  else
    python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('PRAGMA wal_checkpoint(TRUNCATE)'); print(c.execute('PRAGMA page_count').fetchone()[0]*c.execute('PRAGMA page_size').fetchone()[0])" "$1"
  fi
}
for ((night = 1; night <= nights; night++)); do
  "$exe" history add --db "$whole" "$work/n$night"/*.json >/dev/null
  "$exe" history add --db "$db" "$work/n$night"/*.json >/dev/null
  if ((night == half || night == nights)); then
    "$exe" history prune --db "$db" --keep-days 0 --keep-runs 1 >/dev/null
    whole_size[night]=$(size "$whole")
    pruned_size[night]=$(size "$db")
  fi
done
"$exe" history report --db "$whole" --html "$work/report.html" >/dev/null
mb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1e6 }'; }
per() { awk -v a="$1" -v b="$2" -v n="$3" 'BEGIN { printf "%.1f", (b - a) / n / 1e3 }'; }
n=$((gpus * (nights - half)))
echo "| $gpus GPUs x $nights nights, $(if [[ $db == postgres* ]]; then echo PostgreSQL; else echo SQLite; fi) | never pruned | pruned after nights $half and $nights |"
echo "|---|---|---|"
echo "| size after night $half | $(mb "${whole_size[half]}") MB | $(mb "${pruned_size[half]}") MB |"
echo "| size after night $nights | $(mb "${whole_size[nights]}") MB | $(mb "${pruned_size[nights]}") MB |"
echo "| growth per GPU-night (nights $((half + 1))-$nights; pruned: $half-$((nights - 1)) pruned, the newest whole on both) | $(per "${whole_size[half]}" "${whole_size[nights]}" $n) KB | $(per "${pruned_size[half]}" "${pruned_size[nights]}" $n) KB |"
echo "| \`history report --html\` ($gpus series) | $(mb "$(stat -c %s "$work/report.html")") MB | |"
