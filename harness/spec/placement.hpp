#pragma once
// Where a case runs, decided once per case when the catalog is loaded (place_case) and read by
// everything that schedules: the supervisor's lanes, the node run, the plan (harness/runner/plan.hpp),
// the CTest path's GPU lock and case server, the health watch, the re-runs. Four kinds of worker:
//   host     host-tool and planned cases, in host lanes beside the GPU work (no driver);
//   shared   many cases a worker (the parallel lanes, and the GPU-alone phase's one worker);
//   records  undefined-behaviour records that may share a worker, one at a time, until one of them
//            faults, hangs or kills it;
//   own      a process of its own: a case expecting a fault, a finding tagged `faults`, a record
//            tagged `fresh-process`.
// Four ways to use the GPU: none; shared (beside other work); alone (the GPU to itself: rates,
// latencies, frequencies of weak outcomes); isolated (alone, one process at a time, last: it may
// fault on purpose, and a fault beside running work once left an H100 needing a reset).
#include <string>

namespace cuconform {

struct Case;

enum class WorkerKind { host, shared, records, own };
enum class GpuUse { none, shared, alone, isolated };

struct Placement {
  WorkerKind worker = WorkerKind::shared;
  GpuUse gpu = GpuUse::shared;
  int gpus = 1;            // 0: host only; 2: the case needs a peer GPU
  bool may_fault = false;  // it expects a fault, records undefined behaviour, or its rule is tagged `faults`
  double cost = 1;         // in ptxas runs (about 0.02 s on the GPU machine): a kernel case 1, a SASS fact 16, nvcc 250
  std::string why;         // a short reason for the worker and the GPU use

  bool exclusive() const { return gpu == GpuUse::alone || gpu == GpuUse::isolated; }
  bool isolated() const { return gpu == GpuUse::isolated; }
};

const char* to_string(WorkerKind w);
const char* to_string(GpuUse g);

// The placement of `c`. `driver_compiles`: the run's code path is the driver's JIT (--codegen
// jit), which makes the assembler and SASS rules need the driver, so a GPU. Pure: reads the case,
// its rule and its fixture's gpu_alone, nothing else.
Placement place_case(const Case& c, bool driver_compiles);

// Whether $CUCONFORM_CODEGEN names the driver's JIT (what the catalog places cases with).
bool codegen_env_is_jit();

}  // namespace cuconform
