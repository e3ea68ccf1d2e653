#pragma once
// `cuconform history add`: results files into the history database, and the change points
// (per series and case: the runs where the verdict or the recorded outcome changed) kept
// up to date as runs arrive, so that `history changes` reads only those.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "history/db.hpp"
#include "reporters/results_file.hpp"

namespace cuconform {

// How the database files a run: its series (GPU model and code path), its configuration (the
// series on one driver) and the key that makes adding the same run twice store it once.
struct RunIdentity {
  std::string gpu, driver, code_path, key;
  std::string series_label() const { return gpu + " · " + code_path; }
  std::string config_label() const { return gpu + " · driver " + driver + " · " + code_path; }
};
RunIdentity run_identity(const RunInfo& r);

struct AddSummary {
  int added = 0, already = 0, skipped = 0;
  std::vector<std::string> lines;  // one per run: what happened to it
};

// Adds every run of every file (results or fleet files) in one transaction: a file that does not
// read (ResultsError, "FILE:LINE: ...") or any other error rolls it all back, so nothing of the
// command is stored. Runs already stored (same key) are skipped; a snapshot of a run still
// going (run.cut_off.by "running") is skipped with a note.
// `progress` hears each run's line as it is stored (before the commit).
AddSummary history_add(Db& db, const std::vector<std::string>& files, const std::function<void(const std::string&)>& progress = nullptr);

// Recomputes a series' run order (seq) and change points from its stored results: after a run
// older than the series' newest arrives, and by the migration that introduced change points.
void rebuild_change_points(Db& db, std::int64_t series_id);

}  // namespace cuconform
