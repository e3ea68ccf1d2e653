#pragma once
// Runs cases in worker processes (the same executable, `__worker`), deqp-runner style:
// many cases share a worker; a case expecting a device fault gets a worker of its own; a
// worker that dies makes its current case CRASH, one that overruns the case's time limit is
// killed and the case is TIMEOUT; either way a fresh worker carries on with the rest.
#include <functional>
#include <string>
#include <vector>

#include "harness/runner/case_result.hpp"
#include "harness/spec/catalog.hpp"

namespace cuconform {

struct SuperviseOptions {
  std::string specs_dir;
  double startup_s = 60;  // a worker's allowance to start and open the GPU
  double slack_s = 5;     // added to each case's timeout_s before it is killed
  std::function<void(const Case&, const CaseResult&)> on_result;  // progress
};

struct SuperviseOutcome {
  std::vector<CaseResult> results;  // in the order of `cases`
  DeviceReport device;
  int workers_started = 0;
};

SuperviseOutcome supervise(const std::vector<const Case*>& cases, const SuperviseOptions& opt);

}  // namespace cuconform
