#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <iostream>

#include "harness/cli/verbs.hpp"
#include "harness/runner/supervisor.hpp"
#include "harness/spec/catalog.hpp"
#include "reporters/console.hpp"
#include "reporters/junit_xml.hpp"
#include "reporters/results_json.hpp"

namespace cuconform {

int cmd_run(const Options& o) {
  Catalog cat;
  if (!load_or_report(o, &cat)) return kExitBadInput;
  std::vector<const Case*> cases;
  std::string error;
  if (!select_cases(cat, o.sel, &cases, &error)) {
    std::cerr << "cuconform run: " << error << "\n";
    return kExitBadInput;
  }
  std::string out_dir = o.get("--out", "results");
  std::string json_path = o.get("--json"), junit_path = o.get("--junit");
  if (json_path.empty() && junit_path.empty()) {
    json_path = out_dir + "/results.json";
    junit_path = out_dir + "/junit.xml";
  }
  RunReport run;
  run.started_utc = utc_now_iso8601();
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  run.host = host;
  run.suite_version = CUCONFORM_VERSION;
  run.suite_commit = CUCONFORM_COMMIT;
  run.toolkit = CUCONFORM_TOOLKIT;
  run.archs = CUCONFORM_SASS_ARCHS;
  run.specs_dir = cat.dir;
  run.selection = o.sel.describe();
  bool verbose = o.has("--verbose");
  SuperviseOptions so;
  so.specs_dir = cat.dir;
  so.on_result = [&](const Case& c, const CaseResult& r) { print_case_line(std::cout, c, r, verbose); std::cout.flush(); };
  auto t0 = std::chrono::steady_clock::now();
  SuperviseOutcome out = supervise(cases, so);
  run.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  run.finished_utc = utc_now_iso8601();
  run.device = out.device;
  run.workers_started = out.workers_started;
  for (std::size_t i = 0; i < cases.size(); ++i) run.entries.push_back({cases[i], out.results[i]});
  try {
    if (!json_path.empty()) write_file_atomically(json_path, results_json(run));
    if (!junit_path.empty()) write_file_atomically(junit_path, junit_xml(run));
  } catch (const std::exception& e) {
    std::cerr << "cuconform run: " << e.what() << "\n";
    return kExitBadInput;
  }
  print_summary(std::cout, run);
  if (!json_path.empty()) std::cout << "results: " << json_path << "\n";
  if (!junit_path.empty()) std::cout << "junit:   " << junit_path << "\n";
  if (run.no_gpu_ran()) {
    std::cout << "NO GPU: no case could run on a GPU (" << run.device.error
              << "). This run proves nothing about a device; exit code 3.\n";
    return kExitNoGpu;
  }
  return run.failures() ? kExitFailed : kExitOk;
}

}  // namespace cuconform
