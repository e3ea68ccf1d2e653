#pragma once
// Runs cases in worker processes (the same executable, `__worker`), deqp-runner style:
// many cases share a worker; a case expecting a device fault or recording undefined
// behaviour gets a worker of its own; a worker that dies makes its current case CRASH, one
// that overruns the case's time limit is killed and the case is TIMEOUT; either way a fresh
// worker carries on with the rest. A worker reads only the spec files of its own cases.
//
// Lanes (each case's placement says which: harness/spec/placement.hpp; harness/runner/plan.hpp
// prints them as steps):
//   1. GPU lanes, several at once on the same GPU, each running one worker at a time: chunks
//      of shared cases (none is expected to fault);
//   2. then the cases that need the GPU to themselves (rates, latencies, frequencies of weak
//      outcomes), in one worker with nothing else on the GPU;
//   3. then the isolated lane: the cases expecting a fault (a process each) and the records of
//      undefined behaviour (sharing a worker until one faults, hangs or kills it), one process at
//      a time with nothing else running on the GPU (supervisor.cpp says why: faults beside other
//      work twice left an H100 needing a reset);
//   host lanes beside all of this: ptxas accept/reject, SASS read with cuobjdump, nvcc, planned.
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "harness/runner/case_result.hpp"
#include "harness/runner/stop.hpp"
#include "harness/spec/catalog.hpp"

namespace cuconform {

struct SuperviseOptions {
  std::string specs_dir;
  double startup_s = 60;  // a worker's allowance to start and open the GPU
  double slack_s = 5;     // added to each case's timeout_s before it is killed
  int host_lanes = 0;     // lanes for host-only cases; 0: default_host_lanes (schedule.hpp)
  int host_lanes_late = 0;  // ... once the GPU's alone step is over; 0: late_host_lanes (schedule.hpp)
  // Host cases only, beside one GPU's executor (the node run on one GPU): the late host lanes
  // start when this turns true (that GPU's alone step is over). Without it an executor gives the
  // go itself after its own alone step, and one without GPU steps never widens.
  const std::atomic<bool>* host_late_go = nullptr;
  int gpu_lanes = 0;      // parallel GPU lanes for shared cases; 0: default_gpu_lanes() (from the GPU and the cores)
  int gpus_on_host = 1;   // GPUs run at once by this process (each gets its share of the CPU cores)
  // Start each isolated case's process (and context) while the one before runs; it runs nothing
  // until that one has exited. false: start it only then (CUCONFORM_PRESTART=0).
  bool prestart_isolated = true;
  int prestart_depth = 3;  // how many isolated workers are started ahead (a spare of the records' among them)
  int lane_chunks = 2;     // worker processes (chunks) a parallel lane runs one after another
  // Undefined-behaviour records share a worker (one at a time, alone on the GPU like every
  // isolated case); one that faults, hangs or kills it ends it and a spare takes over. false:
  // a process a record (CUCONFORM_BATCH_RECORDS=0), as cases expecting a fault always have.
  bool records_share_workers = true;
  // Findings tagged `faults` that expect no fault share the records' worker too
  // (CUCONFORM_FAULTS_SHARE=1; plan.hpp, joins_records_worker).
  bool faults_share_workers = false;
  // Run the isolated lane after everything else, nothing else on the GPU (the default), or beside
  // the parallel lanes (--isolated-beside, CUCONFORM_ISOLATED_ALONE=0: faster, and unsafe: see
  // supervisor.cpp). One isolated case at a time either way.
  bool isolated_alone = true;
  // Progress; called for one result at a time (lanes take a lock around it).
  std::function<void(const Case&, const CaseResult&)> on_result;
  // A case is about to run in a worker (the health watch attributes a GPU's Xid events to the
  // cases running on it); called from the lanes' threads, not under their lock.
  std::function<void(const Case&)> on_start;
  // "KEY=VALUE" entries every worker gets in place of the parent's: which GPU it sees.
  std::vector<std::string> worker_env;
  // Called at the end of each GPU phase ("parallel", "alone", "isolated"), before the next starts:
  // the GPUs of a node keep their phases in step (no GPU faults on purpose while another runs its
  // parallel lanes, no rate is measured while another GPU's lanes load the host).
  std::function<void(const char* phase)> phase_done;
  // Order as a run dimension (run --shuffle): the cases of each lane kind in an order drawn from
  // the seed, so chunks, workers and neighbours differ from the ordered run; the safety rules stay
  // (isolated cases alone, one at a time).
  bool shuffle = false;
  unsigned long long shuffle_seed = 0;
  // Every case in one worker, in the order given (bisect): no lanes, no chunks, no phases.
  bool one_worker = false;
  // Set (to the signal number) from outside to stop: workers are killed, unfinished cases
  // are left without a result and SuperviseOutcome::stopped says so.
  const std::atomic<int>* stop = nullptr;
};

// One executed step of the plan (plan.hpp): what it ran and when, from the executor's own clock
// (seconds since the supervisor started), and how it ended.
struct StepTiming {
  std::string phase;            // host, parallel, alone, isolated
  int cases = 0, finished = 0;  // its cases, and how many got a result
  int workers = 0;              // worker processes that gave its cases their results
  int lanes = 1;
  double start_s = 0, wall_s = 0;
  StopKind stopped = StopKind::none;  // a stop that cut it short
};

// Where a run's time went (seconds; `cuconform run --timing`).
struct SuperviseTiming {
  double gpu_lane_s = 0;      // wall time of all GPU work (the parallel lanes, then the GPU-alone phase)
  double parallel_phase_s = 0;  // wall time of the parallel GPU lanes
  double alone_phase_s = 0;     // wall time of the cases that had the GPU to themselves
  double isolated_phase_s = 0;  // wall time of the isolated lane (one case at a time), beside the parallel lanes
  bool isolated_alone = true;   // ... after everything else (false: --isolated-beside)
  int alone_cases = 0;
  int gpu_lane_count = 0;
  std::string gpu_lanes_why;    // how the lane count was chosen
  double host_lanes_s = 0;    // wall time of the host lanes (they run beside the GPU lane)
  // Summed over the GPU lanes (they overlap in time):
  double worker_start_s = 0;  // from spawning a worker to its first case starting
  double catalog_s = 0;       // workers reading the specs
  double gpu_open_s = 0;      // workers opening the device (context, stream)
  double module_load_s = 0;   // loading kernel modules (compiling them at run time)
  double gpu_cases_s = 0;     // case time in shared workers, module loads excluded
  double isolated_s = 0;      // isolated cases, one process at a time (all of it)
  double isolated_start_s = 0;  // of that: from spawn (prestarted: from its go) to the case starting
  double isolated_not_ready_s = 0;  // of the start: a worker started ahead still making its context after its go
  double isolated_go_s = 0;         // of the start: from the go to the worker reading it (not ready included)
  double isolated_run_s = 0;    // the cases themselves
  double isolated_exit_s = 0;   // their processes' exits (context teardown)
  int isolated_cases = 0;
  int isolated_workers = 0;     // their processes (the records share one until one of them ends it)
  double host_tool_s = 0;     // host lanes and GPU lane: toolkit programs (ptxas, cuobjdump)
  double host_cases_s = 0;    // host lanes: case time, summed over lanes
  int workers_started = 0, host_lane_count = 0;
  std::vector<StepTiming> steps;  // in the order they started
};

struct SuperviseOutcome {
  std::vector<CaseResult> results;  // in the order of `cases`
  std::vector<bool> finished;       // false: stopped before the case had a result
  DeviceReport device;
  int workers_started = 0;
  SuperviseTiming timing;
  int stopped_by = 0;  // the signal that stopped the run, 0 when it ran to the end
  StopKind stop = StopKind::none;  // why it stopped early: a signal, or its GPU taken out by the health watch
};

SuperviseOutcome supervise(const std::vector<const Case*>& cases, const SuperviseOptions& opt);

}  // namespace cuconform
