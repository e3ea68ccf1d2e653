#!/usr/bin/env bash
# Submits the fleet run: builds cuconform once on the shared filesystem (unless CUCONFORM_EXE
# names a build), submits ci/slurm/cuconform-array.sbatch as an array of N tasks, and a
# dependent job (ci/slurm/merge.sh) that merges whatever results exist into fleet.json and
# renders fleet.html / fleet.md; it runs after every task ends, failed or not.
#   usage: ci/slurm/submit.sh [N] [extra sbatch options...]     (default N=4)
#   env:   CUCONFORM_FILTERS="--area ldgsts"   passed to every `cuconform run`
#          CUCONFORM_OUT=DIR                    results folder (default results/slurm-<jobid>)
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
n=${1:-4}
shift || true
exe=${CUCONFORM_EXE:-$repo/build/cuconform}
if [ -z "${CUCONFORM_EXE:-}" ]; then
  (cd "$repo" && bash ci/setup.sh && cmake --preset default >/dev/null && cmake --build --preset default)
fi

jid=$(sbatch --parsable --array="0-$((n - 1))" --chdir="$repo" \
  --export="ALL,CUCONFORM_REPO=$repo,CUCONFORM_EXE=$exe" "$@" "$repo/ci/slurm/cuconform-array.sbatch")
jid=${jid%%;*}
out=${CUCONFORM_OUT:-$repo/results/slurm-$jid}
mkdir -p "$out"  # before the merge job opens its log there
mid=$(sbatch --parsable --dependency="afterany:$jid" --job-name=cuconform-merge --ntasks=1 --time=00:15:00 \
  --chdir="$repo" --output="$out/merge-%j.log" --wrap "bash '$repo/ci/slurm/merge.sh' '$out' '$exe'")

echo "array job $jid ($n tasks), merge job $mid; results in $out (fleet.json, fleet.html)"
