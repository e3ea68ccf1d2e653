#pragma once
// A finished run: where and with what it ran, and each case's result.
#include <map>
#include <string>
#include <vector>

#include "harness/runner/case_result.hpp"
#include "harness/runner/supervisor.hpp"
#include "harness/spec/spec.hpp"

namespace cuconform {

struct RunReport {
  std::string started_utc, finished_utc, host;
  double wall_s = 0;
  std::string suite_version, suite_commit, toolkit, archs, specs_dir;
  std::vector<std::string> selection;  // the filters of the run, as given
  DeviceReport device;
  int workers_started = 0;
  // The code path under test and its tools (`run --codegen`): what made the machine code.
  struct Toolchain {
    std::string codegen = "sass";  // sass, jit, ptxas
    std::string compiler;          // "nvcc 13.0 (SASS embedded at build time)", "driver JIT", "ptxas 12.8.93"
    std::string ptxas, max_ptx, disassembler;  // paths and the newest PTX ISA taken, where they apply
    std::string ptxas_version;  // sass: the release of the toolkit's ptxas ("13.0.88"), which assembles the host cases
  } toolchain;
  SuperviseTiming timing;
  double report_s = 0;  // writing the results files
  std::string job_json;     // the scheduler's ids (harness/runner/gpu_identity.hpp); "" when none
  std::string health_json;  // the GPU's health during the run (harness/runner/health_watch.hpp); "" when not watched
  std::string action_json;  // what to do with the GPU (reporters/action_table.hpp); "" before it is decided
  // run --shuffle: the seed that ordered the cases ("" for the ordered run).
  std::string shuffle_seed;
  // Stopped from outside (a signal): the cases that never finished are named here and are
  // absent from `entries`; "running" while a snapshot of a run still going is written.
  std::string cut_off;  // "", "SIGTERM", "running", ...
  std::vector<std::string> not_run;
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
