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
  const std::string rerun_text = o.get("--rerun", "0");
  char* rerun_end = nullptr;
  const long reruns = std::strtol(rerun_text.c_str(), &rerun_end, 10);
  if (rerun_text.empty() || *rerun_end || reruns < 0 || reruns > 10) {
    std::cerr << "cuconform run: --rerun takes a whole number from 0 to 10, not '" << rerun_text << "'\n";
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
  // Re-run policy: a failing case runs again (each time in a fresh worker) up to --rerun N
  // times; one that then passes is a flake, reported as such, never as a pass.
  for (std::size_t i = 0; i < cases.size() && reruns > 0; ++i) {
    CaseResult& first = out.results[i];
    if (!is_failure(first.obs.verdict)) continue;
    for (int attempt = 1; attempt <= reruns; ++attempt) {
      SuperviseOutcome again = supervise({cases[i]}, so);
      ++out.workers_started;
      if (again.results.front().obs.verdict == Verdict::pass) {
        CaseResult flake = again.results.front();
        flake.obs.verdict = Verdict::flake;
        flake.obs.reason = "failed, then passed on re-run " + std::to_string(attempt) + " of " + std::to_string(reruns) +
                           "; first attempt: " + std::string(to_string(first.obs.verdict)) + ": " + first.obs.reason;
        flake.obs.fact("first_attempt_observed", first.obs.observed);
        first = flake;
        break;
      }
    }
  }
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
