#pragma once
// A finished run: where and with what it ran, and each case's result.
#include <map>
#include <string>
#include <vector>

#include "harness/runner/case_result.hpp"
#include "harness/spec/spec.hpp"

namespace cuconform {

struct RunReport {
  std::string started_utc, finished_utc, host;
  double wall_s = 0;
  std::string suite_version, suite_commit, toolkit, archs, specs_dir;
  std::vector<std::string> selection;  // the filters of the run, as given
  DeviceReport device;
  int workers_started = 0;
  struct Entry {
    const Case* c;
    CaseResult r;
  };
  std::vector<Entry> entries;

  std::map<std::string, int> counts() const;  // verdict name -> count (every verdict present)
  int failures() const;                       // fail + timeout + crash (a flake is not one)
  // True when cases needed a GPU and none got to run on one (no driver or no device).
  bool no_gpu_ran() const;
};

std::string utc_now_iso8601();

}  // namespace cuconform
