#include "harness/runner/rerun.hpp"

namespace cuconform {

int rerun_failures(const std::vector<const Case*>& cases, std::vector<CaseResult>& results,
                   const std::vector<bool>& finished, int times, const SuperviseOptions& opt) {
  SuperviseOptions again_opt = opt;
  again_opt.on_result = nullptr;
  int workers = 0;
  auto stopped = [&] { return opt.stop && opt.stop->load() != 0; };
  for (std::size_t k = 0; k < cases.size() && times > 0 && !stopped(); ++k) {
    CaseResult& first = results[k];
    if (!finished[k] || !is_failure(first.obs.verdict) || cases[k]->placement.gpus == 2) continue;
    for (int attempt = 1; attempt <= times; ++attempt) {
      SuperviseOutcome again = supervise({cases[k]}, again_opt);
      ++workers;
      if (!again.finished.front()) break;
      if (again.results.front().obs.verdict == Verdict::pass) {
        CaseResult flake = again.results.front();
        flake.obs.verdict = Verdict::flake;
        flake.obs.reason = "failed, then passed on re-run " + std::to_string(attempt) + " of " + std::to_string(times) +
                           "; first attempt: " + std::string(to_string(first.obs.verdict)) + ": " + first.obs.reason;
        flake.obs.fact("first_attempt_observed", first.obs.observed);
        first = flake;
        break;
      }
    }
  }
  return workers;
}

}  // namespace cuconform
