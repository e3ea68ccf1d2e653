#include "reporters/console.hpp"

#include <iomanip>
#include <ostream>

#include "harness/util/json.hpp"

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
    for (auto& [k, v] : o.measurements) os << "      " << k << " = " << json_number(v) << "\n";
}

void print_summary(std::ostream& os, const RunReport& run) {
  auto n = run.counts();
  os << "\ndevice: "
     << (run.device.available ? run.device.name + " (cc " + run.device.cc + ", driver " + run.device.driver + ")"
                              : "none -- " + (run.device.error.empty() ? std::string("no case needed one") : run.device.error))
     << "\n";
  os << "cases: " << run.entries.size() << " in " << json_number(run.wall_s) << " s, " << run.workers_started
     << " worker process(es)\n";
  os << "verdicts: pass " << n["pass"] << ", fail " << n["fail"] << ", timeout " << n["timeout"] << ", crash "
     << n["crash"] << ", not-supported " << n["not-supported"] << ", planned " << n["planned"] << ", flake "
     << n["flake"] << "\n";
  // Skipped = not-supported + planned: never counted as passed; nor is a flake (passed only on a re-run).
  os << n["pass"] << " passed, " << run.failures() << " failed, " << n["not-supported"] + n["planned"] << " skipped";
  if (n["flake"]) os << ", " << n["flake"] << " flaky";
  os << "\n";
}

}  // namespace cuconform
