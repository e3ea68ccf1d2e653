#include "history/query.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <set>
#include <unordered_map>

#include "history/schema.hpp"

namespace cuconform {

namespace {

std::string verdict_name(std::int64_t code) { return to_string(verdict_from_code(static_cast<int>(code))); }

// "a IN (...)" over ids: the statements stay plain text on both backends.
std::string id_list(const std::vector<const StoredRun*>& runs) {
  std::string s;
  for (auto* r : runs) s += (s.empty() ? "" : ", ") + std::to_string(r->id);
  return s.empty() ? "NULL" : s;
}

}  // namespace

std::vector<const StoredRun*> last_runs(const std::vector<const StoredRun*>& all, int last) {
  if (last <= 0 || static_cast<int>(all.size()) <= last) return all;
  return {all.end() - last, all.end()};
}

std::string StoredRun::file_name() const { return std::filesystem::path(source).filename().string(); }

std::string StoredRun::tag() const {
  char b[32];
  std::snprintf(b, sizeof b, "#%lld", static_cast<long long>(id));
  return b;
}

bool glob_match(const std::string& glob, const std::string& text) {
  return glob.empty() || fnmatch(glob.c_str(), text.c_str(), 0) == 0;
}

std::string glob_quote(const std::string& text) {
  std::string g;
  for (char c : text) {
    if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\') g += '\\';
    g += c;
  }
  return g;
}

std::vector<std::int64_t> HistoryIndex::configs_in_order() const {
  std::vector<std::int64_t> ids;
  for (auto& [id, runs] : by_config) ids.push_back(id);
  std::sort(ids.begin(), ids.end(), [&](auto a, auto b) {
    const StoredRun *x = by_config.at(a).front(), *y = by_config.at(b).front();
    return std::make_tuple(x->series_label(), x->seq) < std::make_tuple(y->series_label(), y->seq);
  });
  return ids;
}

HistoryIndex load_index(Db& db) {
  HistoryIndex idx;
  idx.db_name = db.name();
  idx.backend = db.backend();
  idx.schema_version = history_schema_version(db);
  db_each(db,
          "SELECT r.id, r.seq, r.config_id, c.series_id, s.gpu, c.driver, s.code_path, r.started, r.finished, r.host, r.gpu_uuid, r.cc, "
          "r.suite_version, r.suite_commit, r.toolkit, r.compiler, r.cut_off, r.source, r.wall_s, r.n_cases, r.n_pass, r.n_fail, "
          "r.n_not_supported, r.n_timeout, r.n_crash, r.n_planned, r.n_flake, r.n_recorded, s.gpu_uuid, s.selection "
          "FROM runs r JOIN configs c ON r.config_id = c.id JOIN series s ON c.series_id = s.id "
          "ORDER BY s.gpu, s.gpu_uuid, s.code_path, s.selection, r.seq",
          {}, [&](const DbQuery& q) {
            StoredRun r;
            r.id = q.i64(0), r.seq = q.i64(1), r.config_id = q.i64(2), r.series_id = q.i64(3);
            std::string* texts[] = {&r.gpu, &r.driver, &r.code_path, &r.started, &r.finished, &r.host, &r.uuid, &r.cc,
                                    &r.suite_version, &r.commit, &r.toolkit, &r.compiler, &r.cut_off, &r.source};
            for (int i = 0; i < 14; ++i) *texts[i] = q.text(4 + i);
            r.wall_s = q.f64(18);
            r.n_cases = static_cast<int>(q.i64(19));
            const char* names[] = {"pass", "fail", "not-supported", "timeout", "crash", "planned", "flake", "recorded"};
            for (int i = 0; i < 8; ++i) r.counts[names[i]] = static_cast<int>(q.i64(20 + i));
            r.series_uuid = q.text(28), r.selection = q.text(29);
            idx.runs.push_back(r);
          });
  for (std::size_t i = 0; i < idx.runs.size(); ++i) {
    const StoredRun& r = idx.runs[i];
    idx.by_id[r.id] = i;
    idx.by_config[r.config_id].push_back(&r);
    idx.by_series[r.series_id].push_back(&r);
  }
  return idx;
}

std::vector<std::pair<std::string, std::pair<std::string, std::string>>> run_differences(const StoredRun& a, const StoredRun& b) {
  std::vector<std::pair<std::string, std::pair<std::string, std::string>>> d;
  auto cmp = [&](const char* what, const std::string& x, const std::string& y) {
    if (x != y) d.emplace_back(what, std::make_pair(x, y));
  };
  cmp("driver", a.driver, b.driver);
  cmp("toolkit", a.toolkit, b.toolkit);
  cmp("compiler", a.compiler, b.compiler);
  cmp("commit", a.commit, b.commit);
  cmp("host", a.host, b.host);
  cmp("gpu", a.uuid, b.uuid);
  cmp("suite version", a.suite_version, b.suite_version);
  return d;
}

// ---------------------------------------------------------------------------------------------
// changes

namespace {

struct RawTransition {
  std::int64_t series, case_id, run, prev;
  std::string name, from, from_outcome, to, to_outcome, reason;
  std::int64_t seq = 0;
  bool is_return = false, flapping = false;
  std::string from_state() const { return from + "\x1f" + from_outcome; }
  std::string to_state() const { return to + "\x1f" + to_outcome; }
};

// Marks, within one case's transitions (oldest first), the returns (back to a state the case had
// within `window` runs) and the flapping ones (K or more returns within `window` runs of them).
void mark_flapping(std::vector<RawTransition*>& ts, int window, int min_flips) {
  for (std::size_t j = 0; j < ts.size(); ++j)
    for (std::size_t k = 0; k < j; ++k)
      if (ts[j]->seq - ts[k]->seq < window && ts[k]->from_state() == ts[j]->to_state()) ts[j]->is_return = true;
  for (auto* t : ts) {
    int near = 0;
    for (auto* u : ts) near += u->is_return && std::llabs(u->seq - t->seq) < window;
    t->flapping = near >= min_flips;
  }
}

}  // namespace

std::vector<SeriesChanges> query_changes(Db& db, const HistoryIndex& idx, const QueryOptions& o) {
  std::vector<RawTransition> all;
  db_each(db,
          "SELECT t.series_id, t.case_id, c.name, t.run_id, t.prev_run_id, t.from_verdict, fo.body, t.to_verdict, tv.body, tr.body "
          "FROM transitions t JOIN cases c ON c.id = t.case_id LEFT JOIN texts fo ON fo.id = t.from_outcome "
          "LEFT JOIN texts tv ON tv.id = t.to_outcome "
          "LEFT JOIN results res ON res.run_id = t.run_id AND res.case_id = t.case_id LEFT JOIN texts tr ON tr.id = res.reason_id",
          {}, [&](const DbQuery& q) {
            all.push_back({q.i64(0), q.i64(1), q.i64(3), q.i64(4), q.text(2), verdict_name(q.i64(5)), q.text(6), verdict_name(q.i64(7)),
                           q.text(8), q.text(9)});
          });
  std::map<std::pair<std::int64_t, std::int64_t>, std::vector<RawTransition*>> per_case;
  for (auto& t : all) {
    t.seq = idx.run(t.run).seq;
    per_case[{t.series, t.case_id}].push_back(&t);
  }
  for (auto& [key, ts] : per_case) {
    std::sort(ts.begin(), ts.end(), [](auto* a, auto* b) { return a->seq < b->seq; });
    mark_flapping(ts, o.window, o.min_flips);
  }

  std::vector<SeriesChanges> out;
  for (auto& [series, runs] : idx.by_series) {
    SeriesChanges sc;
    sc.series_id = series;
    sc.label = runs.front()->series_label();
    sc.runs = static_cast<int>(runs.size());
    bool any_config = false;
    for (auto* r : runs) any_config |= glob_match(o.config_glob, r->config_label());
    if (!any_config) continue;
    std::map<std::tuple<std::int64_t, std::int64_t, std::int64_t>, ChangeEvent> events;  // (seq, run, prev)
    std::set<std::string> flapping;
    for (auto& t : all) {
      if (t.series != series) continue;
      if (t.flapping) {
        ++sc.flapping_transitions;
        flapping.insert(t.name);
        continue;
      }
      ChangeEvent& e = events[{t.seq, t.run, t.prev}];
      e.run = &idx.run(t.run);
      e.prev = &idx.run(t.prev);
      e.cases.push_back({t.name, t.from, t.to, t.from_outcome, t.to_outcome, t.reason});
    }
    for (auto& [key, e] : events) {
      std::sort(e.cases.begin(), e.cases.end(), [](auto& a, auto& b) { return a.name < b.name; });
      e.differs = run_differences(*e.prev, *e.run);
      sc.events.push_back(std::move(e));
    }
    sc.flapping_cases.assign(flapping.begin(), flapping.end());
    out.push_back(std::move(sc));
  }
  std::sort(out.begin(), out.end(), [](auto& a, auto& b) { return a.label < b.label; });
  return out;
}

// ---------------------------------------------------------------------------------------------
// flaky

std::vector<ConfigFlaky> query_flaky(Db& db, const HistoryIndex& idx, const QueryOptions& o) {
  std::vector<ConfigFlaky> out;
  for (auto config : idx.configs_in_order()) {
    const auto& runs = idx.by_config.at(config);
    if (!glob_match(o.config_glob, runs.front()->config_label())) continue;
    ConfigFlaky cf;
    cf.config_id = config;
    cf.label = runs.front()->config_label();
    cf.window = last_runs(runs, o.last);
    std::set<std::int64_t> in_window;
    for (auto* r : cf.window) in_window.insert(r->id);
    std::string ids = id_list(cf.window);

    // Transitions between two runs of the window, per case, oldest first.
    std::map<std::int64_t, std::vector<std::pair<std::int64_t, std::pair<std::string, std::string>>>> per_case;  // case -> (seq, (from, to))
    std::map<std::int64_t, std::string> names;
    db_each(db,
            "SELECT t.case_id, c.name, t.run_id, t.prev_run_id, t.from_verdict, t.from_outcome, t.to_verdict, t.to_outcome "
            "FROM transitions t JOIN cases c ON c.id = t.case_id WHERE t.run_id IN (" + ids + ")",
            {}, [&](const DbQuery& q) {
              if (!in_window.count(q.i64(3))) return;
              names[q.i64(0)] = q.text(1);
              per_case[q.i64(0)].push_back({idx.run(q.i64(2)).seq, {std::to_string(q.i64(4)) + "/" + std::to_string(q.i64(5)),
                                                                   std::to_string(q.i64(6)) + "/" + std::to_string(q.i64(7))}});
            });
    std::set<std::int64_t> flake_verdicts;
    db_each(db, "SELECT r.case_id, c.name FROM results r JOIN cases c ON c.id = r.case_id WHERE r.verdict = $1 AND r.run_id IN (" + ids + ")",
            {std::int64_t{verdict_code(Verdict::flake)}}, [&](const DbQuery& q) {
              flake_verdicts.insert(q.i64(0));
              names[q.i64(0)] = q.text(1);
            });
    for (auto& [case_id, name] : names) {
      FlakyCase fc;
      fc.name = name;
      fc.flake_verdict = flake_verdicts.count(case_id) > 0;
      auto& ts = per_case[case_id];
      std::sort(ts.begin(), ts.end());
      std::set<std::string> seen;
      if (!ts.empty()) seen.insert(ts.front().second.first);
      for (auto& [seq, ft] : ts) {
        ++fc.transitions;
        fc.returns += seen.count(ft.second) > 0;
        seen.insert(ft.second);
      }
      if (fc.returns < o.min_flips && !fc.flake_verdict) continue;
      std::map<std::int64_t, std::string> seen_in;
      db_each(db,
              "SELECT r.run_id, r.verdict, t.body FROM results r LEFT JOIN texts t ON t.id = r.outcome_id WHERE r.case_id = $1 "
              "AND r.run_id IN (" + ids + ")",
              {case_id}, [&](const DbQuery& q) {
                std::string v = verdict_name(q.i64(1));
                seen_in[q.i64(0)] = v;
                ++fc.states[q.null(2) ? v : v + " (" + q.text(2) + ")"];
              });
      for (auto* r : cf.window) fc.timeline.emplace_back(r->id, seen_in.count(r->id) ? seen_in[r->id] : "");
      cf.cases.push_back(std::move(fc));
    }
    std::sort(cf.cases.begin(), cf.cases.end(), [](auto& a, auto& b) { return a.name < b.name; });
    out.push_back(std::move(cf));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// trends

namespace {

struct RawValue {
  std::int64_t run;
  double value;
  int verdict;
};

// Every (case, measurement) of `runs`, with the run order kept.
void scan_measurements(Db& db, const std::vector<const StoredRun*>& runs, const std::string& case_glob, const std::string& measurement_glob,
                       const std::function<void(const std::string&, const std::string&, std::vector<RawValue>&)>& each) {
  std::unordered_map<std::int64_t, std::string> case_names, measure_names;
  db_each(db, "SELECT id, name FROM measure_names", {}, [&](const DbQuery& q) {
    if (glob_match(measurement_glob, q.text(1))) measure_names[q.i64(0)] = q.text(1);
  });
  db_each(db, "SELECT id, name FROM cases", {}, [&](const DbQuery& q) {
    if (glob_match(case_glob, q.text(1))) case_names[q.i64(0)] = q.text(1);
  });
  std::map<std::pair<std::int64_t, std::int64_t>, std::vector<RawValue>> values;
  std::string sql = "SELECT m.case_id, m.name_id, m.run_id, m.value, r.verdict FROM measurements m JOIN results r "
                    "ON r.run_id = m.run_id AND r.case_id = m.case_id WHERE m.run_id = $1";
  // A case named exactly (no wildcard) is read by its key, not by scanning every case.
  if (case_names.size() == 1 && case_glob.find_first_of("*?[") == std::string::npos) sql += " AND m.case_id = $2";
  auto q = db.prepare(sql);
  for (auto* r : runs) {
    q->bind(1, r->id);
    if (sql.find("$2") != std::string::npos) q->bind(2, case_names.begin()->first);
    while (q->next()) {
      if (q->null(3)) continue;
      auto c = case_names.find(q->i64(0));
      auto m = measure_names.find(q->i64(1));
      if (c == case_names.end() || m == measure_names.end()) continue;
      values[{q->i64(0), q->i64(1)}].push_back({r->id, q->f64(3), static_cast<int>(q->i64(4))});
    }
    q->reset();
  }
  for (auto& [key, v] : values) each(case_names[key.first], measure_names[key.second], v);
}

}  // namespace

std::vector<Trend> query_trends(Db& db, const HistoryIndex& idx, const QueryOptions& o, const std::string& case_glob,
                                const std::string& measurement_glob, bool flagged_only) {
  std::vector<Trend> out;
  const bool outcomes = measurement_glob.rfind("outcome_", 0) == 0;
  for (auto config : idx.configs_in_order()) {
    const auto& runs = idx.by_config.at(config);
    if (!glob_match(o.config_glob, runs.front()->config_label())) continue;
    auto window = last_runs(runs, o.last);
    scan_measurements(db, window, case_glob, measurement_glob, [&](const std::string& c, const std::string& m, std::vector<RawValue>& vs) {
      if (m.rfind("outcome_", 0) == 0 && !outcomes) return;  // a random histogram, not a trend
      Trend t;
      t.config = runs.front()->config_label();
      t.config_id = config;
      t.case_name = c;
      t.measurement = m;
      std::vector<double> passed;
      for (auto& v : vs) {
        t.points.push_back({&idx.run(v.run), v.value, verdict_name(v.verdict)});
        if (v.verdict == verdict_code(Verdict::pass)) passed.push_back(v.value);
      }
      t.stats = series_stats(passed, o.drift);
      if (passed.size() > static_cast<std::size_t>(o.drift.min_runs)) {
        std::vector<double> before(passed.begin(), passed.end() - 1);
        ValueJudgement j = judge_value(before, passed.back(), o.drift);
        t.last_off = j.off;
        t.last_z = (passed.back() - j.history.median) / j.history.sigma;
      }
      if (flagged_only && !t.flagged()) return;
      out.push_back(std::move(t));
    });
  }
  return out;
}

std::int64_t find_config(Db& db, const RunIdentity& id) {
  return db_i64(db,
                "SELECT c.id FROM configs c JOIN series s ON c.series_id = s.id WHERE s.gpu = $1 AND s.gpu_uuid = $2 AND s.code_path = $3 "
                "AND s.selection = $4 AND c.driver = $5",
                {id.gpu, id.uuid, id.code_path, id.selection, id.driver}, 0);
}

std::map<std::string, std::map<std::string, std::vector<double>>> measurement_history(Db& db, const HistoryIndex& idx, std::int64_t config_id,
                                                                                      const std::string& before, const std::string& skip_key,
                                                                                      int last, std::vector<const StoredRun*>* used) {
  std::map<std::string, std::map<std::string, std::vector<double>>> out;
  auto it = idx.by_config.find(config_id);
  if (it == idx.by_config.end()) return out;
  std::set<std::int64_t> skip;
  db_each(db, "SELECT id FROM runs WHERE run_key = $1", {skip_key}, [&](const DbQuery& q) { skip.insert(q.i64(0)); });
  std::vector<const StoredRun*> earlier;
  for (auto* r : it->second)
    if (!skip.count(r->id) && (before.empty() || r->started < before)) earlier.push_back(r);
  *used = last_runs(earlier, last);
  scan_measurements(db, *used, "", "", [&](const std::string& c, const std::string& m, std::vector<RawValue>& vs) {
    for (auto& v : vs)
      if (v.verdict == verdict_code(Verdict::pass)) out[c][m].push_back(v.value);
  });
  return out;
}

}  // namespace cuconform
