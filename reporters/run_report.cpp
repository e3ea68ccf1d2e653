#include "reporters/run_report.hpp"

#include <ctime>

#include "harness/util/utc_time.hpp"

namespace cuconform {

std::map<std::string, int> RunReport::counts() const {
  std::map<std::string, int> m;
  for (Verdict v : {Verdict::pass, Verdict::fail, Verdict::not_supported, Verdict::timeout,
                    Verdict::crash, Verdict::planned, Verdict::flake, Verdict::recorded})
    m[to_string(v)] = 0;
  for (auto& e : entries) ++m[to_string(e.r.obs.verdict)];
  return m;
}

int RunReport::failures() const {
  int n = 0;
  for (auto& e : entries) n += is_failure(e.r.obs.verdict);
  return n;
}

bool RunReport::no_gpu_ran() const {
  bool wanted = false;
  for (auto& e : entries) {
    if (!e.c->rule->needs_gpu() || e.c->rule->planned) continue;
    wanted = true;
    if (e.r.obs.verdict != Verdict::not_supported) return false;
  }
  return wanted && !device.available;
}

std::string utc_now_iso8601() { return utc_iso8601(std::time(nullptr)); }

}  // namespace cuconform
