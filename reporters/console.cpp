#include "reporters/console.hpp"

#include <cmath>
#include <iomanip>
#include <ostream>

#include "harness/util/number_text.hpp"

namespace cuconform {

void print_case_line(std::ostream& os, const Case& c, const CaseResult& r, bool verbose) {
  const Observation& o = r.obs;
  os << std::left << std::setw(14) << (std::string("[") + to_string(o.verdict) + "]") << c.name;
  if (o.verdict != Verdict::pass || verbose) {
    if (!o.reason.empty()) os << "  -- " << o.reason;
  }
  os << "\n";
  if (is_failure(o.verdict) || verbose) {
    if (!o.expected.empty()) os << "      expected: " << o.expected << "\n";
    if (!o.observed.empty()) os << "      observed: " << o.observed << "\n";
  }
  if (verbose)
    for (auto& [k, v] : o.measurements) os << "      " << k << " = " << number_text(v) << "\n";
}

void print_summary(std::ostream& os, const RunReport& run) {
  auto n = run.counts();
  os << "\ndevice: "
     << (run.device.available ? run.device.name + " (cc " + run.device.cc + ", driver " + run.device.driver + ")"
                              : "none -- " + (run.device.error.empty() ? std::string("no case needed one") : run.device.error))
     << "\n";
  os << "cases: " << run.entries.size() << " in " << number_text(run.wall_s) << " s, " << run.workers_started
     << " worker process(es)\n";
  os << "verdicts: pass " << n["pass"] << ", fail " << n["fail"] << ", timeout " << n["timeout"] << ", crash "
     << n["crash"] << ", not-supported " << n["not-supported"] << ", planned " << n["planned"] << ", flake "
     << n["flake"] << ", recorded " << n["recorded"] << "\n";
  // Skipped = not-supported + planned: never counted as passed; nor is a flake (passed only on a re-run).
  os << n["pass"] << " passed, " << run.failures() << " failed, " << n["not-supported"] + n["planned"] << " skipped";
  if (n["flake"]) os << ", " << n["flake"] << " flaky";
  if (n["recorded"]) os << ", " << n["recorded"] << " recorded (undefined behaviour, not judged)";
  os << "\n";
  if (!run.cut_off.empty())
    os << "CUT OFF (" << run.cut_off << "): " << run.entries.size() << " of " << run.entries.size() + run.not_run.size()
       << " cases finished; the others have no result (results.json lists them under run.cut_off)\n";
}

void print_timing(std::ostream& os, const RunReport& run) {
  const SuperviseTiming& t = run.timing;
  auto s = [](double v) { return number_text(std::round(v * 100) / 100); };
  os << "\ntiming (s): wall " << s(run.wall_s) << " = GPU lane " << s(t.gpu_lane_s) << " (host lanes beside it: "
     << t.host_lane_count << ", " << s(t.host_lanes_s) << ") + reports " << s(run.report_s) << "\n";
  os << "  GPU lane: worker start " << s(t.worker_start_s) << " (specs " << s(t.catalog_s) << ", context "
     << s(t.gpu_open_s) << "), module loads " << s(t.module_load_s) << ", cases " << s(t.gpu_cases_s)
     << ", fault cases in child processes " << s(t.isolated_s) << " (" << t.isolated_cases << ")\n";
  os << "  host tools (ptxas, cuobjdump) " << s(t.host_tool_s) << " of host-lane case time " << s(t.host_cases_s)
     << "; " << t.workers_started << " worker processes\n";
}

}  // namespace cuconform
