#pragma once
// `cuconform history add`: results files into the history database, and the change points
// (per series and case: the runs where the verdict or the recorded outcome changed) kept
// up to date as runs arrive, so that `history changes` reads only those.
#include <cstdint>
#include <string>
#include <vector>

#include "history/db.hpp"
#include "reporters/results_file.hpp"

namespace cuconform {

// How every history output names a series or configuration: "NVIDIA H200 5f0c2a9e @ node7 ·
// driver 580.159.04 · sass · --profile smoke" (the model, the first 8 hex digits of the UUID, the
// node; the driver for a configuration; the selection where not the whole suite).
std::string history_label(const std::string& gpu, const std::string& uuid, const std::string& node, const std::string& driver,
                          const std::string& code_path, const std::string& selection);

// How the database files a run: its series (one GPU, by UUID, of its model, on one code path,
// with one selection of cases), its configuration (the series on one driver) and the key that
// makes adding the same run twice store it once.
struct RunIdentity {
  std::string gpu;        // the model (device.name), "no GPU"
  std::string uuid;       // device.uuid; "" where the file has none (a series per model, as before)
  std::string node;       // run.host (device.node where there is no host): shown, not keyed
  std::string driver, code_path;
  std::string selection;  // the filters that chose the cases (series_selection); "" for the whole suite
  std::string key;
  std::string series_label() const { return history_label(gpu, uuid, node, "", code_path, selection); }
  std::string config_label() const { return history_label(gpu, uuid, node, driver, code_path, selection); }
};
RunIdentity run_identity(const RunInfo& r);

// The part of run.selection that chooses cases (case_selection: a smoke or filtered run is a series
// of its own, so a case it did not select never reads as fixed), then "--devices SPEC" for a GPU of
// a node run. --codegen is the code path.
std::string series_selection(const RunInfo& r);

struct AddSummary {
  int added = 0, already = 0, skipped = 0;
  std::vector<std::string> lines;       // one per run: what happened to it
  std::vector<std::string> unreadable;  // one per file not stored: "FILE:LINE: why"
};

// Adds every run of every file (results or fleet files, plain or .json.gz), each file in a
// transaction of its own: a file that does not read (ResultsError, "FILE:LINE: ...") or holds a
// run with no "device" section (which GPU ran it is unknown) stores nothing of itself and is
// named in `unreadable`; the other files are stored. Any other error (the database) stops the
// command with the files before it committed. Runs already stored (same key) are skipped; a snapshot of a run still going
// (run.cut_off.by "running") is skipped with a note. The lines say what happened to each run and
// are returned after the commit: nothing is said to be added that was not.
AddSummary history_add(Db& db, const std::vector<std::string>& files);

// The configuration of `id` (its series made where new): the rows a run is filed under.
std::int64_t config_of(Db& db, const RunIdentity& id);

// Recomputes a series' run order (seq) and change points from its stored results: after a run
// older than the series' newest arrives, and by the migration that introduced change points.
void rebuild_change_points(Db& db, std::int64_t series_id);

}  // namespace cuconform
