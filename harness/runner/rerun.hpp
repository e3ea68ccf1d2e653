#pragma once
// The plan's re-run step (deqp-runner's flake detection): each failure of a GPU's results runs
// again, a fresh worker each time, on the same GPU, up to `times` times; one that then passes is a
// flake, reported as such with its first attempt, never as a pass. Two-GPU cases are not re-run
// (their peer's other cases would run beside them).
#include <vector>

#include "harness/runner/supervisor.hpp"

namespace cuconform {

// Returns the workers it started. `opt`: the GPU's supervisor options (its worker_env, stop flag).
int rerun_failures(const std::vector<const Case*>& cases, std::vector<CaseResult>& results,
                   const std::vector<bool>& finished, int times, const SuperviseOptions& opt);

}  // namespace cuconform
