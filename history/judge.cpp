#include "history/judge.hpp"

#include "history/stats.hpp"
#include "history/store.hpp"

namespace cuconform {

HistoryJudge::HistoryJudge(Db& db, const Fleet& now, const QueryOptions& o) : o_(o), db_name_(db.name()) {
  const RunInfo& r = now.runs.at(0);
  RunIdentity id = run_identity(r);
  config_ = id.config_label();
  HistoryIndex idx = load_index(db);
  std::vector<const StoredRun*> used;
  std::int64_t config = find_config(db, id);
  if (config) values_ = measurement_history(db, idx, config, r.get(r.run, "started"), id.key, o.last, &used);
  runs_ = static_cast<int>(used.size());
}

std::optional<MeasurementJudgement> HistoryJudge::judge(const std::string& case_name, const std::string& measurement, double value) const {
  static const std::vector<double> none;
  auto c = values_.find(case_name);
  const std::vector<double>* h = &none;
  if (c != values_.end()) {
    auto m = c->second.find(measurement);
    if (m != c->second.end()) h = &m->second;
  }
  ValueJudgement j = judge_value(*h, value, o_.drift);
  if (!j.judged) {
    ++too_short_;
    return std::nullopt;
  }
  ++by_history_;
  MeasurementJudgement out;
  out.moved = j.off || j.drift;
  out.tolerance = j.tolerance_rel;
  out.how = std::string(j.off ? "OFF the spread" : j.drift ? "DRIFT" : "within") + ": " + j.history.describe() + "; tolerance ±" +
            sig(j.tolerance_rel * 100, 3) + "%; with this value: trend " +
            sig(j.with_value.slope_rel * 100, 2) + "%/run, Mann-Kendall p=" + sig(j.with_value.mk.p, 2) +
            (j.drift ? ", drift " + sig(j.with_value.drift_rel * 100, 3) + "% over " + std::to_string(j.with_value.n) + " runs" : "");
  return out;
}

std::string HistoryJudge::describe() const {
  return "from history " + db_name_ + ": the last " + std::to_string(runs_) + " run(s) of " + config_ + " (up to " + std::to_string(o_.last) +
         "): a value is off beyond " + o_.drift.tolerance_rule() + ", drifting when " + o_.drift.drift_rule() + "; " + std::to_string(by_history_) +
         " measurement(s) judged so, " + std::to_string(too_short_) + " with the fixed tolerance (fewer than " +
         std::to_string(o_.drift.min_runs) + " passing runs of history)";
}

}  // namespace cuconform
