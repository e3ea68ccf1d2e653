#pragma once
// What the history verbs ask the database: the runs, the changes (per series: the first run
// with a new verdict or recorded outcome, the last run before it and what differed between
// them), the flaky cases (per configuration: verdicts that flip within the last N runs) and
// measurement trends (median/MAD, Mann-Kendall, Theil-Sen).
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "history/db.hpp"
#include "history/stats.hpp"
#include "history/store.hpp"  // history_label, RunIdentity

namespace cuconform {

struct StoredRun {
  std::int64_t id = 0, seq = 0, config_id = 0, series_id = 0;
  std::string gpu, driver, code_path, started, finished, host, uuid, cc, suite_version, commit, toolkit, compiler, cut_off, source;
  std::string series_uuid, selection;  // the series' key besides gpu and code_path (its UUID: "" for a series per model)
  double wall_s = 0;
  int n_cases = 0;
  std::map<std::string, int> counts;  // verdict -> cases
  std::string series_label() const { return history_label(gpu, series_uuid, host, "", code_path, selection); }
  std::string config_label() const { return history_label(gpu, series_uuid, host, driver, code_path, selection); }
  std::string file_name() const;  // the source file's base name
  std::string tag() const;        // "#17": how every output names a run
};

struct QueryOptions {
  std::string config_glob;  // a glob on the configuration label ("*H200*", "*jit*"); empty: all
  int last = 30;            // runs per configuration (flaky, trend, report, compare --history)
  int window = 10;          // changes: transitions within this many runs of K returns are flapping
  int min_flips = 2;        // K: returns to an earlier state that make a case flaky
  DriftPolicy drift;
};

// Every stored run, by series and position (seq), plus the schema version.
struct HistoryIndex {
  std::string db_name, backend;
  int schema_version = 0;
  std::vector<StoredRun> runs;
  std::map<std::int64_t, std::size_t> by_id;
  const StoredRun& run(std::int64_t id) const { return runs.at(by_id.at(id)); }
  // Runs of each configuration / series, oldest first.
  std::map<std::int64_t, std::vector<const StoredRun*>> by_config, by_series;
  std::vector<std::int64_t> configs_in_order() const;  // by series label, then driver's first run
};
HistoryIndex load_index(Db& db);
std::vector<const StoredRun*> last_runs(const std::vector<const StoredRun*>& all, int last);  // the newest `last` (all when <= 0)
bool glob_match(const std::string& glob, const std::string& text);
std::string glob_quote(const std::string& text);  // a glob that matches `text` only (a selection may hold '*')

// --- changes ---
struct CaseChange {
  std::string name, from, to, from_outcome, to_outcome, reason;  // verdicts; outcomes where recorded; NEW's reason
};
struct ChangeEvent {
  const StoredRun* run = nullptr;   // the first run that showed the change
  const StoredRun* prev = nullptr;  // the last run before it that had the case
  std::vector<std::pair<std::string, std::pair<std::string, std::string>>> differs;  // field -> (before, after)
  std::vector<CaseChange> cases;
};
struct SeriesChanges {
  std::string label;
  std::int64_t series_id = 0;
  int runs = 0;
  std::vector<ChangeEvent> events;  // oldest first
  int flapping_transitions = 0;
  std::vector<std::string> flapping_cases;
};
std::vector<SeriesChanges> query_changes(Db& db, const HistoryIndex& idx, const QueryOptions& o);
// What differs between two runs: driver, toolkit, compiler, commit, host, GPU (uuid), suite version.
std::vector<std::pair<std::string, std::pair<std::string, std::string>>> run_differences(const StoredRun& a, const StoredRun& b);

// --- flaky ---
struct FlakyCase {
  std::string name;
  int transitions = 0, returns = 0;
  bool flake_verdict = false;                // `flake` (passed on a re-run) in the window
  std::vector<std::pair<std::int64_t, std::string>> timeline;  // (run id, verdict) over the window; "" where absent
  std::map<std::string, int> states;         // verdict (outcome) -> runs
};
struct ConfigFlaky {
  std::string label;
  std::int64_t config_id = 0;
  std::vector<const StoredRun*> window;  // the last N runs, oldest first
  std::vector<FlakyCase> cases;
};
std::vector<ConfigFlaky> query_flaky(Db& db, const HistoryIndex& idx, const QueryOptions& o);

// --- trend ---
struct TrendPoint {
  const StoredRun* run;
  double value;
  std::string verdict;
};
struct Trend {
  std::string config, case_name, measurement;
  std::int64_t config_id = 0;
  std::vector<TrendPoint> points;  // every run of the window that has the value, oldest first
  SeriesStats stats;               // over the values of runs where the case passed
  bool last_off = false;           // the newest value is off the median/MAD of the ones before it
  double last_z = 0;
  bool flagged() const { return stats.drift || last_off; }
};
// case_glob / measurement_glob empty: every case / measurement. `flagged_only`: drifting or off
// only; litmus outcome counts (outcome_*) only when the measurement glob names them.
std::vector<Trend> query_trends(Db& db, const HistoryIndex& idx, const QueryOptions& o, const std::string& case_glob,
                                const std::string& measurement_glob, bool flagged_only);

// --- compare --history ---
// The values of every measurement (case -> name -> values, oldest first) in the last o.last runs
// of `config_id` that started before `before` (all when empty), skipping the run `skip_key`;
// only runs where the case passed count.
std::map<std::string, std::map<std::string, std::vector<double>>> measurement_history(Db& db, const HistoryIndex& idx, std::int64_t config_id,
                                                                                      const std::string& before, const std::string& skip_key,
                                                                                      int last, std::vector<const StoredRun*>* used);
// The configuration `id` is filed under; 0 when none is stored.
std::int64_t find_config(Db& db, const RunIdentity& id);

}  // namespace cuconform
