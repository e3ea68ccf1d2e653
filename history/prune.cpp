#include "history/prune.hpp"

#include <cmath>
#include <ctime>
#include <limits>
#include <map>
#include <set>
#include <unordered_map>
#include <vector>

#include "harness/util/utc_time.hpp"
#include "history/schema.hpp"
#include "reporters/run_report.hpp"  // utc_now_iso8601

namespace cuconform {

namespace {

// Count, mean and sum of squared deviations (Welford), min and max: two summaries merge into the
// summary of both sets of values (Chan et al.), so pruning again adds to what an earlier prune kept.
struct Summary {
  std::int64_t n = 0;
  double mean = 0, m2 = 0, lo = INFINITY, hi = -INFINITY;
  void add(double v) {
    ++n;
    double d = v - mean;
    mean += d / static_cast<double>(n);
    m2 += d * (v - mean);
    lo = std::min(lo, v), hi = std::max(hi, v);
  }
  void merge(const Summary& b) {
    if (b.n == 0) return;
    if (n == 0) {
      *this = b;
      return;
    }
    const double na = static_cast<double>(n), nb = static_cast<double>(b.n), d = b.mean - mean;
    mean += d * nb / (na + nb);
    m2 += b.m2 + d * d * na * nb / (na + nb);
    n += b.n;
    lo = std::min(lo, b.lo), hi = std::max(hi, b.hi);
  }
};

struct ConfigRuns {
  std::int64_t series = 0;
  std::vector<std::pair<std::int64_t, double>> runs;  // (run id, started), oldest first
};

// The measurements of `config`'s pruned runs folded into its summaries, then dropped.
void summarize_measurements(Db& db, std::int64_t config, const std::vector<std::int64_t>& pruned, PruneSummary& sum) {
  std::map<std::pair<std::int64_t, std::int64_t>, Summary> by_key;  // (case, measurement)
  db_each(db, "SELECT case_id, name_id, n, mean, m2, lo, hi FROM measure_summary WHERE config_id = $1", {config}, [&](const DbQuery& q) {
    Summary& s = by_key[{q.i64(0), q.i64(1)}];
    s.n = q.i64(2), s.mean = q.f64(3), s.m2 = q.f64(4), s.lo = q.f64(5), s.hi = q.f64(6);
  });
  // Only the runs where the case passed: the values trend and compare --history judge by.
  auto values = db.prepare("SELECT m.case_id, m.name_id, m.value FROM measurements m JOIN results r ON r.run_id = m.run_id AND "
                           "r.case_id = m.case_id WHERE m.run_id = $1 AND r.verdict = $2 AND m.value IS NOT NULL");
  auto count = db.prepare("SELECT COUNT(*) FROM measurements WHERE run_id = $1");
  auto drop = db.prepare("DELETE FROM measurements WHERE run_id = $1");
  for (auto run : pruned) {
    std::map<std::pair<std::int64_t, std::int64_t>, Summary> this_run;
    values->bind(1, run);
    values->bind(2, std::int64_t{verdict_code(Verdict::pass)});
    while (values->next()) this_run[{values->i64(0), values->i64(1)}].add(values->f64(2));
    values->reset();
    for (auto& [k, s] : this_run) by_key[k].merge(s);
    count->bind(1, run);
    if (count->next()) sum.measurements_dropped += count->i64(0);
    count->reset();
    drop->bind(1, run);
    drop->next();
    drop->reset();
  }
  db_each(db, "DELETE FROM measure_summary WHERE config_id = $1", {config}, [](const DbQuery&) {});
  std::vector<std::vector<DbValue>> rows;
  for (auto& [k, s] : by_key) rows.push_back({config, k.first, k.second, s.n, s.mean, s.m2, s.lo, s.hi});
  db.insert_rows("measure_summary", {"config_id", "case_id", "name_id", "n", "mean", "m2", "lo", "hi"}, rows);
  sum.summaries += static_cast<std::int64_t>(rows.size());
}

// The results of `series`' pruned runs that only repeat the verdict before them: every result a
// change point names (its run and the run before it) and each case's latest one stay, so
// rebuild_change_points over what is left gives the same change points.
void drop_repeated_results(Db& db, std::int64_t series, const std::set<std::int64_t>& pruned, PruneSummary& sum) {
  std::unordered_map<std::int64_t, std::set<std::int64_t>> keep;  // run -> cases
  db_each(db, "SELECT case_id, run_id, prev_run_id FROM transitions WHERE series_id = $1", {series}, [&](const DbQuery& q) {
    for (int col : {1, 2})
      if (pruned.count(q.i64(col))) keep[q.i64(col)].insert(q.i64(0));
  });
  db_each(db, "SELECT case_id, run_id FROM case_state WHERE series_id = $1", {series}, [&](const DbQuery& q) {
    if (pruned.count(q.i64(1))) keep[q.i64(1)].insert(q.i64(0));
  });
  for (auto run : pruned) {
    std::string kept;
    for (auto c : keep[run]) kept += (kept.empty() ? "" : ", ") + std::to_string(c);
    const std::string where = "run_id = $1" + (kept.empty() ? std::string() : " AND case_id NOT IN (" + kept + ")");
    sum.results_dropped += db_i64(db, "SELECT COUNT(*) FROM results WHERE " + where, {run}, 0);
    db_each(db, "DELETE FROM results WHERE " + where, {run}, [](const DbQuery&) {});
  }
}

}  // namespace

std::int64_t history_bytes(Db& db) {
  if (std::string(db.backend()) == "sqlite")
    return db_i64(db, "SELECT p.page_count * s.page_size FROM pragma_page_count() p, pragma_page_size() s", {}, 0);
  return db_i64(db, "SELECT pg_database_size(current_database())", {}, 0);
}

PruneSummary history_prune(Db& db, const PruneOptions& o) {
  PruneSummary sum;
  sum.bytes_before = history_bytes(db);
  {
    DbTransaction tx(db, true);
    std::map<std::int64_t, ConfigRuns> configs;
    double newest = -INFINITY;
    db_each(db, "SELECT r.id, r.config_id, c.series_id, r.started FROM runs r JOIN configs c ON c.id = r.config_id ORDER BY r.config_id, r.seq",
            {}, [&](const DbQuery& q) {
              ConfigRuns& c = configs[q.i64(1)];
              c.series = q.i64(2);
              double t = utc_seconds_of(q.text(3));  // NaN (not in that form): never pruned
              c.runs.emplace_back(q.i64(0), t);
              if (t > newest) newest = t, sum.newest = q.text(3);
            });
    sum.results_before = db_i64(db, "SELECT COUNT(*) FROM results", {}, 0);
    if (!std::isfinite(newest)) {
      tx.commit();
      sum.bytes_after = sum.bytes_before;
      return sum;
    }
    const double cutoff = newest - 86400.0 * o.keep_days;
    sum.cutoff = utc_iso8601(static_cast<std::time_t>(cutoff));
    std::map<std::int64_t, std::set<std::int64_t>> by_series;
    for (auto& [config, c] : configs) {
      std::vector<std::int64_t> pruned;
      const std::size_t older = c.runs.size() > static_cast<std::size_t>(o.keep_runs) ? c.runs.size() - o.keep_runs : 0;
      for (std::size_t i = 0; i < older; ++i)
        if (c.runs[i].second < cutoff) pruned.push_back(c.runs[i].first);  // NaN (no start) never compares less
      if (pruned.empty()) continue;
      sum.runs += static_cast<int>(pruned.size());
      summarize_measurements(db, config, pruned, sum);
      by_series[c.series].insert(pruned.begin(), pruned.end());
    }
    for (auto& [series, pruned] : by_series) drop_repeated_results(db, series, pruned, sum);
    // The messages and outcomes no kept row names.
    const std::int64_t texts = db_i64(db, "SELECT COUNT(*) FROM texts", {}, 0);
    db.exec("DELETE FROM texts WHERE id NOT IN (SELECT outcome_id FROM results WHERE outcome_id IS NOT NULL) "
            "AND id NOT IN (SELECT reason_id FROM results WHERE reason_id IS NOT NULL) "
            "AND id NOT IN (SELECT from_outcome FROM transitions WHERE from_outcome IS NOT NULL) "
            "AND id NOT IN (SELECT to_outcome FROM transitions WHERE to_outcome IS NOT NULL) "
            "AND id NOT IN (SELECT outcome_id FROM case_state WHERE outcome_id IS NOT NULL)");
    sum.texts_dropped = texts - db_i64(db, "SELECT COUNT(*) FROM texts", {}, 0);
    db_each(db, "INSERT INTO meta (key, value) VALUES ('pruned', $1) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            {utc_now_iso8601() + ": " + std::to_string(sum.runs) + " run(s) that started before " + sum.cutoff + " (" +
             std::to_string(o.keep_days) + " days before the newest run), the newest " + std::to_string(o.keep_runs) +
             " of each configuration kept whole"},
            [](const DbQuery&) {});
    tx.commit();
  }
  // Outside the transaction, as both databases require; both rewrite the tables, and other
  // writers and readers wait for it.
  if (std::string(db.backend()) == "sqlite") {
    db.exec("VACUUM");
    db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  } else {
    // FULL, like SQLite's VACUUM: a plain VACUUM left the space for reuse, and the next nights
    // reused too little of it (20 GPUs x 10 nights: 883 KB a pruned GPU-night, against 1,540 KB never pruned).
    db.exec("VACUUM (FULL, ANALYZE) results, measurements, texts, measure_summary");
  }
  sum.bytes_after = history_bytes(db);
  return sum;
}

}  // namespace cuconform
