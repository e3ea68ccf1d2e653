#!/usr/bin/env bash
# Merges the per-task results of a fleet run into one fleet matrix and renders it:
#   ci/slurm/merge.sh DIR [CUCONFORM]  ->  DIR/fleet.json, DIR/fleet.html, DIR/fleet.md
# Used by ci/slurm/submit.sh (a job that runs after every array task) and ci/k8s.
set -euo pipefail
dir=$1
exe=${2:-cuconform}
shopt -s nullglob
files=()
for f in "$dir"/*.json "$dir"/*.json.gz; do  # results may be compressed
  case $(basename "$f") in fleet.json | fleet.json.gz) ;; *) files+=("$f") ;; esac
done
if [ ${#files[@]} -eq 0 ]; then
  echo "merge: no results in $dir" >&2
  exit 2
fi
"$exe" merge "${files[@]}" -o "$dir/fleet.json"
"$exe" report "$dir/fleet.json" --html "$dir/fleet.html" --md "$dir/fleet.md"
