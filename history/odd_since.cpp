#include "history/odd_since.hpp"

#include "reporters/compare.hpp"  // outcome_category

namespace cuconform {

std::vector<CaseStreak> odd_since(Db& db, const std::string& gpu_uuid, const std::vector<std::pair<std::string, std::string>>& cases) {
  std::vector<CaseStreak> out;
  DbTransaction tx(db, false);
  for (auto& [name, category] : cases) {
    CaseStreak s{name, category, "", 0};
    bool streak = true;
    db_each(db,
            "SELECT r.started, v.name, t.body FROM runs r JOIN results x ON x.run_id = r.id JOIN cases c ON c.id = x.case_id "
            "JOIN verdicts v ON v.code = x.verdict LEFT JOIN texts t ON t.id = x.outcome_id "
            "WHERE r.gpu_uuid = $1 AND c.name = $2 ORDER BY r.started DESC, r.id DESC",
            {gpu_uuid, name}, [&](const DbQuery& q) {
              if (!streak) return;
              std::string cat = q.text(1);
              if (cat == "recorded") cat += ": " + outcome_category(q.text(2));
              if (cat != category) {
                streak = false;
                return;
              }
              s.since = q.text(0);
              ++s.runs;
            });
    out.push_back(s);
  }
  tx.commit();
  return out;
}

}  // namespace cuconform
