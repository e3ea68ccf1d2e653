#!/usr/bin/env bash
# Runs every reproducer under findings/ with one toolchain and collects the outputs.
# Usage: findings/run-all.sh [TOOLCHAIN] [OUTDIR]
#   TOOLCHAIN: sass (default) | jit | ptxas=PATH (passed to each run.sh) | all (sass, then
#              jit, each into OUTDIR/<toolchain>/)
#   OUTDIR:    where <rule id>.txt and summary.txt go (default: findings-out)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
toolchain=${1:-sass}
outdir=${2:-findings-out}
if [ "$toolchain" = all ]; then
  "$0" sass "$outdir/sass" && "$0" jit "$outdir/jit"
  exit
fi
mkdir -p "$outdir"
{
  echo "findings run: toolchain $toolchain, $(date -u +%Y-%m-%dT%H:%M:%SZ), host $(hostname)"
  command -v nvidia-smi > /dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | sed 's/^/device: /'
  printf '%-45s %-8s %s\n' "finding" "exit" "outcome"
} > "$outdir/summary.txt"
for dir in "$here"/*/; do
  id=$(basename "$dir")
  [ -x "$dir/run.sh" ] || continue
  echo "== $id ($toolchain)"
  rc=0
  "$dir/run.sh" "$toolchain" > "$outdir/$id.txt" 2>&1 || rc=$?
  outcome=$(grep -E '^(RESULT )?(REPRODUCED|NOT REPRODUCED)' "$outdir/$id.txt" | tail -n 1)
  [ $rc = 2 ] && outcome="BUILD ERROR"
  [ -z "$outcome" ] && outcome="no outcome line (exit $rc)"
  printf '%-45s %-8s %s\n' "$id" "$rc" "$outcome" | tee -a "$outdir/summary.txt"
done
echo "outputs in $outdir (summary.txt)"
