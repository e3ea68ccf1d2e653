#include "history/candidates.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

namespace cuconform {

namespace {

// The verdict codes of the `verdicts` table (schema.cpp).
enum Code { kPass = 0, kFail = 1, kTimeout = 3, kCrash = 4, kFlake = 6 };
bool failed(std::int64_t v) { return v == kFail || v == kTimeout || v == kCrash || v == kFlake; }

}  // namespace

std::vector<PromotionCandidate> query_candidates(Db& db, const HistoryIndex& idx, const QueryOptions& q, const std::vector<ShadowRule>& rules,
                                                 int nights, int configs) {
  std::vector<PromotionCandidate> out;
  for (const ShadowRule& rule : rules) {
    // Per run: did any case of the rule fail (or pass only on a re-run), and did one pass?
    std::map<std::int64_t, std::pair<bool, bool>> by_run;  // run id -> (failed, passed)
    db_each(db, "SELECT results.run_id, results.verdict FROM results JOIN cases ON cases.id = results.case_id WHERE cases.rule = $1",
            {rule.id}, [&](const DbQuery& r) {
              auto& s = by_run[r.i64(0)];
              s.first = s.first || failed(r.i64(1));
              s.second = s.second || r.i64(1) == kPass;
            });
    PromotionCandidate c{rule.id, rule.tier};
    for (std::int64_t config : idx.configs_in_order()) {
      const std::vector<const StoredRun*>& runs = idx.by_config.at(config);
      if (runs.empty() || !glob_match(q.config_glob.empty() ? "*" : q.config_glob, runs.back()->config_label())) continue;
      int streak = 0;
      bool newest = true;
      for (auto it = runs.rbegin(); it != runs.rend(); ++it) {
        auto s = by_run.find((*it)->id);
        if (s == by_run.end() || (!s->second.first && !s->second.second)) continue;  // the rule did not run there
        if (s->second.first) {
          if (newest) c.failing.push_back(runs.back()->config_label());
          break;
        }
        newest = false;
        ++streak;
      }
      if (streak == 0 && std::find(c.failing.begin(), c.failing.end(), runs.back()->config_label()) == c.failing.end()) continue;
      c.streaks.emplace_back(runs.back()->config_label(), streak);
      c.configs_passing += streak >= nights;
    }
    c.candidate = c.configs_passing >= configs && c.failing.empty();
    out.push_back(std::move(c));
  }
  return out;
}

std::string render_candidates(const std::vector<PromotionCandidate>& all, int nights, int configs) {
  std::ostringstream o;
  int n = 0;
  for (auto& c : all) n += c.candidate;
  o << "rules in shadow: " << all.size() << "; ready for promotion (passed " << nights << " runs in a row on at least " << configs
    << " configuration(s), failing on none): " << n << "\n";
  for (auto& c : all) {
    o << "\n" << (c.candidate ? "PROMOTE " : "wait    ") << c.rule << " (tier " << c.tier << "): " << c.configs_passing << " of "
      << configs << " configuration(s) with " << nights << "+ passing runs in a row"
      << (c.failing.empty() ? "" : "; failing on " + std::to_string(c.failing.size())) << "\n";
    for (auto& [label, streak] : c.streaks) o << "    " << streak << " passing run(s) in a row  " << label << "\n";
    for (auto& label : c.failing) o << "    failed in its newest run  " << label << "\n";
    if (c.candidate) o << "    promote: delete `shadow: true` from the rule in specs/ (one reviewed edit)\n";
  }
  return o.str();
}

}  // namespace cuconform
