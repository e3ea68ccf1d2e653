#include "reporters/console.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <map>
#include <ostream>
#include <vector>

#include "harness/spec/consumers.hpp"
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

// Failures of rules of basis relied-upon are compatibility breaks ("this upgrade breaks CUTLASS"),
// counted and named apart from documentation violations; nothing when no such rule ran.
static void print_compatibility_breaks(std::ostream& os, const RunReport& run) {
  int ran = 0, breaks = 0;
  std::map<std::string, int> by_consumer;
  std::vector<std::string> names;
  for (const auto& e : run.entries) {
    const Rule& r = *e.c->rule;
    if (r.basis != Basis::relied_upon) continue;
    ++ran;
    if (!is_failure(e.r.obs.verdict)) continue;
    ++breaks;
    ++by_consumer[consumers_of(r.relies)];
    names.push_back(e.c->name);
  }
  if (!ran) return;
  os << "compatibility breaks (relied-upon): " << breaks << " of " << ran << " cases of rules named consumers rely on";
  if (breaks) {
    os << ", e.g.";
    for (const auto& [c, n] : by_consumer) os << " " << c << " " << n;
    os << ":";
    for (std::size_t i = 0; i < names.size() && i < 8; ++i) os << " " << names[i];
    if (names.size() > 8) os << " (+" << names.size() - 8 << " more)";
    os << "; documentation violations and other failures: " << run.failures() - breaks;
  }
  os << "\n";
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
     << n["flake"] << ", recorded " << n["recorded"];
  if (n["not-run"]) os << ", not-run " << n["not-run"];
  if (n["inconclusive"]) os << ", inconclusive " << n["inconclusive"];
  os << "\n";
  // Skipped = not-supported + planned: never counted as passed; nor is a flake (passed only on a re-run).
  os << n["pass"] << " passed, " << run.failures() << " failed, " << n["not-supported"] + n["planned"] << " skipped";
  if (n["flake"]) os << ", " << n["flake"] << " flaky";
  if (n["recorded"]) os << ", " << n["recorded"] << " recorded (undefined behaviour, not judged)";
  os << "\n";
  print_compatibility_breaks(os, run);
  if (!run.cut_off.empty())
    os << "CUT OFF (" << run.cut_off << "): " << run.entries.size() << " of " << run.entries.size() + run.not_run.size()
       << " cases finished; the others have no result (results.json lists them under run.cut_off)\n";
}

void print_timing(std::ostream& os, const RunReport& run) {
  const SuperviseTiming& t = run.timing;
  auto s = [](double v) { return number_text(std::round(v * 100) / 100); };
  os << "\ntiming (s): wall " << s(run.wall_s) << " = GPU " << s(t.gpu_lane_s) << " (parallel lanes " << s(t.parallel_phase_s)
     << (t.isolated_alone ? "" : " with the isolated lane beside them (one case at a time: " + s(t.isolated_phase_s) + " for " +
                                     std::to_string(t.isolated_cases) + ")")
     << ", then the GPU to themselves " << s(t.alone_phase_s) << " for " << t.alone_cases << " cases"
     << (t.isolated_alone ? ", then isolated cases one at a time, alone " + s(t.isolated_phase_s) + " for " + std::to_string(t.isolated_cases)
                          : std::string())
     << ") + reports " << s(run.report_s)
     << "; host lanes beside it: " << t.host_lane_count << ", " << s(t.host_lanes_s) << "\n";
  os << "  GPU lanes: " << t.gpu_lane_count << (t.gpu_lanes_why.empty() ? "" : " = " + t.gpu_lanes_why) << "\n";
  // The executor's steps as it ran them (run --plan shows the same steps before a run).
  for (const StepTiming& st : t.steps)
    os << "  step " << st.phase << ": " << st.finished << " of " << st.cases << " cases, " << st.workers << " worker(s) in "
       << st.lanes << " lane(s), from " << s(st.start_s) << " for " << s(st.wall_s)
       << (st.stopped != StopKind::none ? std::string(", stopped: ") + to_string(st.stopped) : std::string()) << "\n";
  os << "  summed over GPU lanes: worker start " << s(t.worker_start_s) << " (specs " << s(t.catalog_s) << ", context "
     << s(t.gpu_open_s) << "), module loads " << s(t.module_load_s) << ", shared-worker cases " << s(t.gpu_cases_s)
     << ", isolated cases " << s(t.isolated_s) << " (" << t.isolated_cases << " in " << t.isolated_workers
     << " processes)\n";
  if (t.isolated_cases)
    os << "  isolated cases: process start " << s(t.isolated_start_s) << " (after the go where started ahead; "
       << "go to its reading " << s(t.isolated_go_s)
       << ", of it still making a context " << s(t.isolated_not_ready_s) << "), cases " << s(t.isolated_run_s) << ", process exits "
       << s(t.isolated_exit_s) << "\n";
  os << "  host tools (ptxas, cuobjdump, nvcc) " << s(t.host_tool_s) << " of host-lane case time " << s(t.host_cases_s)
     << "; " << t.workers_started << " worker processes\n";
  // Case time per area and the slowest rules (a case's time includes its module loads and, for
  // a timed-out case, the wait up to its limit; isolated cases exclude their process start).
  std::map<std::string, double> by_area, by_rule;
  std::map<std::string, int> cases_of_area, cases_of_rule;
  for (const auto& e : run.entries) {
    by_area[e.c->rule->area] += e.r.duration_s;
    ++cases_of_area[e.c->rule->area];
    by_rule[e.c->rule->id] += e.r.duration_s;
    ++cases_of_rule[e.c->rule->id];
  }
  os << "  case time per area:";
  for (const auto& [a, v] : by_area) os << " " << a << " " << s(v) << " (" << cases_of_area[a] << ")";
  os << "\n  the 20 slowest rules (case time, cases):\n";
  std::vector<std::pair<double, std::string>> slow;
  for (const auto& [r, v] : by_rule) slow.emplace_back(v, r);
  std::sort(slow.begin(), slow.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (std::size_t i = 0; i < slow.size() && i < 20; ++i)
    os << "    " << std::setw(8) << std::right << s(slow[i].first) << std::left << "  " << slow[i].second << " ("
       << cases_of_rule[slow[i].second] << ")\n";
}

}  // namespace cuconform
