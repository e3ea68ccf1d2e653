#!/usr/bin/env bash
# Writes a CTest resource specification file with one `gpus` resource per GPU of this host,
# so that `ctest --resource-spec-file FILE -j N` runs spec tests on all GPUs at once and never
# two on the same GPU (reporters/README.md, "Several GPUs on one host").
#
#   usage: ci/resources/make-resource-spec.sh [OUT.json]      (default: stdout)
#   env:   SLOTS=k   tests that may share one GPU (default 8, the runner's lane cap: tests that
#                    need the GPU alone, tagged [gpu-alone], take its lock file exclusively)
#          GPUS=n    pretend there are n GPUs (no nvidia-smi needed; for trying it out)
#
# Resource ids are CUDA device ordinals 0..n-1, the numbers CUCONFORM_DEVICE takes: when
# CUDA_VISIBLE_DEVICES restricts the host (Slurm, containers), ordinals count the visible GPUs
# only, so we count those rather than reading nvidia-smi's physical indices.
set -euo pipefail
out=${1:-}
slots=${SLOTS:-8}

count_gpus() {
  if [ -n "${GPUS:-}" ]; then
    echo "$GPUS"
  elif [ -n "${CUDA_VISIBLE_DEVICES+x}" ]; then
    # "0,2" or "GPU-uuid,..." or "" (none); CUDA stops at the first invalid entry, we do not.
    local v=${CUDA_VISIBLE_DEVICES// /}
    if [ -z "$v" ] || [ "$v" = "-1" ] || [ "$v" = "NoDevFiles" ]; then echo 0; else echo "$v" | tr ',' '\n' | grep -c .; fi
  elif command -v nvidia-smi >/dev/null 2>&1; then
    nvidia-smi --query-gpu=index --format=csv,noheader | grep -c . || true
  else
    echo 0
  fi
}

n=$(count_gpus)
case "$n" in '' | *[!0-9]*) echo "make-resource-spec: cannot count GPUs (got '$n')" >&2; exit 2 ;; esac
case "$slots" in '' | *[!0-9]* | 0) echo "make-resource-spec: SLOTS must be a positive integer" >&2; exit 2 ;; esac
if [ "$n" -eq 0 ]; then
  echo "make-resource-spec: no GPU found (nvidia-smi, CUDA_VISIBLE_DEVICES); set GPUS=n to override" >&2
  exit 1
fi

# "gpus": every GPU, for tests registered once (a build for one GPU); "gpu0".."gpuN-1": one
# type per GPU, for the tests registered once per GPU ("gpu2:<case>", suites/CMakeLists.txt).
spec() {
  printf '{\n  "version": {"major": 1, "minor": 0},\n  "local": [\n    {\n      "gpus": [\n'
  for ((i = 0; i < n; i++)); do
    sep=","
    [ "$i" -eq $((n - 1)) ] && sep=""
    printf '        {"id": "%d", "slots": %d}%s\n' "$i" "$slots" "$sep"
  done
  printf '      ]'
  for ((i = 0; i < n; i++)); do
    printf ',\n      "gpu%d": [{"id": "%d", "slots": %d}]' "$i" "$i" "$slots"
  done
  printf '\n    }\n  ]\n}\n'
}

# (Not `> /dev/stdout`: when stdout is a file that would truncate it.)
if [ -z "$out" ]; then
  spec
else
  spec >"$out.tmp.$$" && mv "$out.tmp.$$" "$out"
  echo "make-resource-spec: $n GPU(s), $slots slot(s) each -> $out" >&2
fi
