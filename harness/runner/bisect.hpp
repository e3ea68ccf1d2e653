#pragma once
// Which earlier case makes a case behave otherwise (an order-dependent verdict or recorded
// category found by `compare` of a shuffled run against an ordered one): the cases that ran
// before it in its worker process are replayed in front of it, halving them until one is left.
#include <functional>
#include <string>
#include <vector>

namespace cuconform {

// Runs `cases` in one worker process, in that order; returns the last case's outcome (its verdict
// and recorded category, e.g. "fail" or "recorded: weak outcome observed").
using ReplayFn = std::function<std::string(const std::vector<std::string>& cases)>;

struct BisectResult {
  bool reproduced = false;     // the predecessors change the case's outcome
  std::string alone, with_all;  // its outcome alone, and after all its predecessors
  std::vector<std::string> culprits;  // the smallest set found (one case when a single one does it)
  int replays = 0;
  std::string summary;  // one paragraph for the console
};

BisectResult bisect_order(const std::string& target, const std::vector<std::string>& predecessors, const ReplayFn& replay);

}  // namespace cuconform
