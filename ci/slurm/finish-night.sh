#!/usr/bin/env bash
# The end of a night, whatever ran it (ci/slurm/nightly.sh, ci/k8s/merge-night.sh): every GPU's
# results of NIGHT/nodes/*/ into the history database, `compare` of each against its baseline
# (NIGHT/compare/NODE.gpuN.{txt,md}, exit codes in NIGHT/compare/exit.tsv), and the fleet view
# (`cuconform fleet`: NIGHT/fleet.{txt,md,json,html}), printed.
#   usage: ci/slurm/finish-night.sh NIGHT DB BASELINES      env: CUCONFORM_EXE (default cuconform)
# Exit: the night's status, the worst in the order 2 > 4 > 1 > 3 > 0 of the fleet view's,
# compare's (1 a regression, 2 a baseline that does not read) and the history's (2 when the
# results could not be added); the last line says it.
set -uo pipefail
out=${1:?usage: finish-night.sh NIGHT DB BASELINES}
db=${2:?usage: finish-night.sh NIGHT DB BASELINES}
baselines=${3:?usage: finish-night.sh NIGHT DB BASELINES}
exe=${CUCONFORM_EXE:-cuconform}
night=$(basename "$out")
mkdir -p "$out/compare"
: >"$out/compare/exit.tsv"
worsen() {  # RC: status becomes the worse of itself and RC, in the order 2 > 4 > 1 > 3 > 0
  local r
  for r in 2 4 1 3; do
    if [ "$status" = "$r" ] || [ "$1" = "$r" ]; then status=$r; return; fi
  done
  status=0
}
shopt -s nullglob
files=("$out"/nodes/*/results.gpu*.json "$out"/nodes/*/results.gpu*.json.gz "$out"/nodes/*/results.json "$out"/nodes/*/results.json.gz)
# Cut-off results of nodes whose every attempt was killed (nightly.sh keeps them in NIGHT/cutoff/):
# into the history as cut-off runs, not compared (they gate through the fleet view's failed node).
cutoff=("$out"/cutoff/*/results.gpu*.json "$out"/cutoff/*/results.gpu*.json.gz "$out"/cutoff/*/results.json "$out"/cutoff/*/results.json.gz)
status=0
if [ $((${#files[@]} + ${#cutoff[@]})) -gt 0 ]; then
  # Each file in a transaction of its own: an unreadable one is named and the others are stored.
  if ! "$exe" history add --db "$db" "${files[@]}" "${cutoff[@]}" >"$out/history-add.log" 2>&1; then
    echo "night $night: history add: not everything stored: $(grep -m3 'not stored\|history add:' "$out/history-add.log" | tr '\n' ' ')" >&2
    status=2
  fi
fi
if [ ${#files[@]} -gt 0 ]; then
  known_file=
  [ -f "$baselines/known.yaml" ] && known_file=$baselines/known.yaml
  # Each GPU's compare is its own process and reads only its file and the baselines: they run
  # side by side, as many at a time as the machine has cores (CUCONFORM_JOBS), each writing its
  # exit code beside its report; exit.tsv is then written in the files' order, as before.
  jobs=${CUCONFORM_JOBS:-$(nproc 2>/dev/null || echo 1)}
  # NIGHT/nodes/NODE/results.gpuN.json[.gz] -> NODE.gpuN in $REPLY, in bash alone: a process or
  # three a file was 2.2 minutes of a 10,000-GPU night.
  compare_name() {
    local dir=${1%/*} base=${1##*/}
    base=${base#results.}
    REPLY=${dir##*/}.${base%%.json*}
  }
  compare_one() {  # FILE
    local f=$1 name rc=0
    compare_name "$f"
    name=$REPLY
    "$exe" compare "$baselines" "$f" ${known_file:+--known "$known_file"} --md "$out/compare/$name.md" >"$out/compare/$name.txt" 2>&1 || rc=$?
    echo "$rc" >"$out/compare/$name.rc"
  }
  export -f compare_name compare_one
  export exe baselines out known_file
  printf '%s\0' "${files[@]}" | xargs -0 -n 1 -P "$jobs" bash -c 'compare_one "$1"' compare_one
  for f in "${files[@]}"; do
    compare_name "$f"
    name=$REPLY
    rc=2
    [ -f "$out/compare/$name.rc" ] && read -r rc <"$out/compare/$name.rc"
    printf '%s\t%s\n' "$name" "$rc"
    worsen "$rc"
  done >>"$out/compare/exit.tsv"
  find "$out/compare" -maxdepth 1 -name '*.rc' -delete
fi
"$exe" fleet "$out" --history "$db" --html "$out/fleet.html" --md "$out/fleet.md" --json "$out/fleet.json" >"$out/fleet.txt" 2>&1
fleet_rc=$?
cat "$out/fleet.txt"
worsen "$fleet_rc"
echo "night $night: status $status (fleet $fleet_rc, compare $out/compare/exit.tsv, history ${db%%\?*}); report $out/fleet.html"
exit "$status"
