#pragma once
#include <string>

#include "harness/fixture/observation.hpp"

namespace cuconform {

struct CaseResult {
  std::string name;
  Observation obs;
  double duration_s = 0;
  double module_load_s = 0;  // of duration_s: loading kernel modules (and compiling them at run time)
  double tool_s = 0;         // of duration_s: toolkit programs (ptxas, cuobjdump)
  // Which worker process of the run ran it (numbered from 1 as they start) and how many cases
  // that worker had run before it: what `bisect` replays when a case depends on order.
  int worker = 0, order = 0;
};

// The device a run used, as the worker saw it; `available` false with `error` when none.
struct DeviceReport {
  bool available = false;
  std::string error;
  std::string json;  // the worker's DEVICE object, verbatim: the results file's "device"
  std::string name, cc, driver;
};

}  // namespace cuconform
