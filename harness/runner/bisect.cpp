#include "harness/runner/bisect.hpp"

namespace cuconform {

BisectResult bisect_order(const std::string& target, const std::vector<std::string>& predecessors, const ReplayFn& replay) {
  BisectResult b;
  auto with = [&](const std::vector<std::string>& before) {
    std::vector<std::string> list = before;
    list.push_back(target);
    ++b.replays;
    return replay(list);
  };
  b.alone = with({});
  b.with_all = with(predecessors);
  if (predecessors.empty()) {
    b.summary = target + " ran first in its worker: no earlier case can have changed it (alone: " + b.alone + ")";
    return b;
  }
  if (b.with_all == b.alone) {
    b.summary = "not reproduced: after its " + std::to_string(predecessors.size()) + " predecessor(s) in one worker " + target +
                " gives '" + b.with_all + "', as it does alone";
    return b;
  }
  b.reproduced = true;
  // Halve the candidates while one half alone still changes the outcome the same way.
  std::vector<std::string> cand = predecessors;
  while (cand.size() > 1) {
    const std::vector<std::string> lo(cand.begin(), cand.begin() + static_cast<std::ptrdiff_t>(cand.size() / 2));
    const std::vector<std::string> hi(cand.begin() + static_cast<std::ptrdiff_t>(cand.size() / 2), cand.end());
    if (with(lo) == b.with_all) cand = lo;
    else if (with(hi) == b.with_all) cand = hi;
    else break;  // it takes cases from both halves
  }
  b.culprits = cand;
  std::string names;
  for (auto& c : cand) names += (names.empty() ? "" : ", ") + c;
  b.summary = target + " gives '" + b.alone + "' alone and '" + b.with_all + "' after " +
              (cand.size() == 1 ? "the earlier case " + names : std::to_string(cand.size()) + " earlier cases together (" + names + ")") +
              " (" + std::to_string(b.replays) + " replays)";
  return b;
}

}  // namespace cuconform
