#pragma once
// `compare --history DB`: each of NEW's measurements judged against the spread of the last N
// runs of NEW's configuration (median and MAD, and a Mann-Kendall trend test) instead of a
// fixed percentage of BASE; the fixed tolerance stays where history is too short.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "history/db.hpp"
#include "history/query.hpp"
#include "reporters/compare.hpp"

namespace cuconform {

class HistoryJudge : public MeasurementJudge {
 public:
  // `now`: NEW (one run). Throws DbError.
  HistoryJudge(Db& db, const Fleet& now, const QueryOptions& o);
  std::optional<MeasurementJudgement> judge(const std::string& case_name, const std::string& measurement, double value) const override;
  std::string describe() const override;

 private:
  QueryOptions o_;
  std::string db_name_, config_;
  int runs_ = 0;
  std::map<std::string, std::map<std::string, std::vector<double>>> values_;
  mutable int by_history_ = 0, too_short_ = 0;
};

}  // namespace cuconform
