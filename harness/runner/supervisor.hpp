#pragma once
// Runs cases in worker processes (the same executable, `__worker`), deqp-runner style:
// many cases share a worker; a case expecting a device fault gets a worker of its own; a
// worker that dies makes its current case CRASH, one that overruns the case's time limit is
// killed and the case is TIMEOUT; either way a fresh worker carries on with the rest.
//
// Lanes: every case that touches the GPU runs in one lane, one case at a time, because
// timings, litmus rates and faults must not share the GPU with other work. Cases that need
// only the host (ptxas accept/reject, SASS read with cuobjdump, planned entries) run in other
// lanes on the remaining CPU cores at the same time, off the GPU's critical path.
#include <atomic>
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
  int host_lanes = 0;     // lanes for host-only cases; 0: the CPU cores less two, 1 to 8
  // Progress; called for one result at a time (lanes take a lock around it).
  std::function<void(const Case&, const CaseResult&)> on_result;
  // Set (to the signal number) from outside to stop: workers are killed, unfinished cases
  // are left without a result and SuperviseOutcome::stopped says so.
  const std::atomic<int>* stop = nullptr;
};

// Where a run's time went (seconds; `cuconform run --timing`).
struct SuperviseTiming {
  double gpu_lane_s = 0;      // wall time of the GPU lane
  double host_lanes_s = 0;    // wall time of the host lanes (they run beside the GPU lane)
  double worker_start_s = 0;  // GPU lane: from spawning a worker to its first case starting
  double catalog_s = 0;       // GPU lane: workers reading the specs
  double gpu_open_s = 0;      // GPU lane: workers opening the device (context, stream)
  double module_load_s = 0;   // GPU lane: loading kernel modules (compiling them at run time)
  double gpu_cases_s = 0;     // GPU lane: case time, module loads and fault cases excluded
  double isolated_s = 0;      // GPU lane: fault cases, each in a child process of its own (all of it)
  int isolated_cases = 0;
  double host_tool_s = 0;     // host lanes and GPU lane: toolkit programs (ptxas, cuobjdump)
  double host_cases_s = 0;    // host lanes: case time, summed over lanes
  int workers_started = 0, host_lane_count = 0;
};

struct SuperviseOutcome {
  std::vector<CaseResult> results;  // in the order of `cases`
  std::vector<bool> finished;       // false: stopped before the case had a result
  DeviceReport device;
  int workers_started = 0;
  SuperviseTiming timing;
  int stopped_by = 0;  // the signal that stopped the run, 0 when it ran to the end
};

SuperviseOutcome supervise(const std::vector<const Case*>& cases, const SuperviseOptions& opt);

}  // namespace cuconform
