#pragma once
// `history candidates`: which rules in shadow (report-only until promoted, docs/contract.md) have
// earned promotion: on each configuration, the runs in a row, newest first, in which every case
// of the rule that ran passed; a rule is a candidate when that streak reaches N runs on M
// configurations and no configuration's newest runs show it failing.
#include <string>
#include <utility>
#include <vector>

#include "history/query.hpp"

namespace cuconform {

struct ShadowRule {
  std::string id, tier;
};

struct PromotionCandidate {
  std::string rule, tier;
  std::vector<std::pair<std::string, int>> streaks;  // configuration label -> passing runs in a row (newest first)
  std::vector<std::string> failing;                  // configurations whose newest run of it failed
  int configs_passing = 0;                           // configurations with a streak of at least `nights`
  bool candidate = false;
};

std::vector<PromotionCandidate> query_candidates(Db& db, const HistoryIndex& idx, const QueryOptions& q, const std::vector<ShadowRule>& rules,
                                                 int nights, int configs);
std::string render_candidates(const std::vector<PromotionCandidate>& c, int nights, int configs);

}  // namespace cuconform
