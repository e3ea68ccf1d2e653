#!/usr/bin/env bash
# Writes a stand-in cuconform for the health-check tests (healthcheck-test.sh, fleet-test.sh):
# `run` copies the results of the GPU it is given (CUDA_VISIBLE_DEVICES=I: RESULTS/results.gpuI.json,
# made by ci/synth-gpu-results.py) to its --json file, prints the summary line of a new failure
# and exits 1 on PLANT_GPU, else exits 0; --devices is hidden from its help, so that
# run-node.sh runs each GPU apart; every other verb is the real cuconform.
#   usage: ci/slurm/make-standin.sh OUT REAL_CUCONFORM RESULTS_DIR [PLANT_GPU]
set -euo pipefail
out=${1:?usage: make-standin.sh OUT REAL_CUCONFORM RESULTS_DIR [PLANT_GPU]}
real=${2:?} results=${3:?} plant=${4:--1}
cat >"$out" <<STAND
#!/usr/bin/env bash
if [ "\$1" = help ] || [ "\$1" = --help ] || [ "\${2:-}" = --help ]; then "$real" "\$@" 2>&1 | grep -v -- --devices; exit 0; fi
[ "\$1" = run ] || exec "$real" "\$@"
json="" prev=""
for a in "\$@"; do [ "\$prev" = --json ] && json=\$a; prev=\$a; done
gpu=\${CUDA_VISIBLE_DEVICES:-0}
cp "$results/results.gpu\$gpu.json" "\$json"
if [ "\$gpu" = "$plant" ]; then
  echo "of 1 failure(s): 0 known finding(s), 0 known flake(s), 1 new (known.yaml)"
  exit 1
fi
exit 0
STAND
chmod +x "$out"
