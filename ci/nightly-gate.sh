#!/usr/bin/env bash
# The nightly's verdict from the exit codes of `cuconform run` and `cuconform compare`: the one
# rule that .github/workflows/gpu-nightly.yml, ci/gitlab-ci.yml and the README's recipe apply.
#
#   ci/nightly-gate.sh RUN_RC CMP_RC [COMPARE_OUTPUT]
#
# CMP_RC "none" (or COMPARE_OUTPUT saying "nothing to compare with"): no baseline of this GPU
# model yet, so the run's own failures decide. Exit 0 green, 1 red with the reason on stderr.
# Red whenever the GPU could not be judged: run 2 (bad input), 3 (no GPU), 4 (a GPU became
# unhealthy), 128+N (stopped by signal N: cut off), any other code or none at all (the step never
# ran); and on compare 1 (regression, or a run not judged: not-run, missing or cut-off cases) or 2
# (bad input, an unreadable baseline).
set -u
run_rc=${1-}
cmp_rc=${2-}
if [ -n "${3-}" ] && [ -f "$3" ] && grep -q "nothing to compare with" "$3"; then cmp_rc=none; fi
red() { echo "nightly gate: $*" >&2; exit 1; }
case "$run_rc" in
  0|1) ;;
  2) red "cuconform run exited 2: bad input" ;;
  3) red "cuconform run exited 3: no case could run on a GPU (no driver, no device)" ;;
  4) red "cuconform run exited 4: a GPU became unhealthy during the run; drain and check the node" ;;
  '') red "cuconform run left no exit code (the step did not run, or was killed before it ended)" ;;
  *)
    if [[ "$run_rc" =~ ^[0-9]+$ ]] && [ "$run_rc" -gt 128 ] && [ "$run_rc" -le 192 ]; then
      red "cuconform run exited $run_rc: stopped by signal $((run_rc - 128)); the run was cut off"
    fi
    red "cuconform run exited $run_rc, which no documented outcome has" ;;
esac
case "$cmp_rc" in
  0) echo "nightly gate: green (run $run_rc, compare 0)" ;;
  none)
    [ "$run_rc" = 0 ] || red "cases failed and there is no baseline of this GPU model to compare with"
    echo "nightly gate: green (run 0, no baseline yet)" ;;
  1) red "cuconform compare exited 1: a regression, or cases the baseline judged that this run did not (not-run, missing, cut off)" ;;
  2) red "cuconform compare exited 2: bad input (an unreadable results file or baseline, a run with no case)" ;;
  '') red "cuconform compare left no exit code (it did not run: no results file?)" ;;
  *) red "cuconform compare exited $cmp_rc, which no documented outcome has" ;;
esac
