#pragma once
// Reading results files back. A results file ("cuconform-results/1") and a fleet file
// ("cuconform-fleet/1", written by `cuconform merge`) load into the same model, a Fleet:
// a single run is a fleet of one, so report, compare and merge share one reader.
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "harness/fixture/observation.hpp"

namespace cuconform {

constexpr const char* kFleetSchema = "cuconform-fleet/1";

// Bad input: the message starts with "FILE:LINE:" where the line is known, then names the
// field: "a.json:57: cases[12].verdict: expected a string, got a number".
struct ResultsError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// One run: where it came from and the environment it recorded.
struct RunInfo {
  std::string file;   // the path it was read from
  std::string label;  // unique short name for a matrix column, e.g. "NVIDIA H200 #0 @ node7"
  // The "suite", "run" and "device" objects as read, re-encoded as compact JSON (merge
  // writes them back unchanged).
  std::string suite_json = "{}", run_json = "{}", device_json = "{}";
  // The GPU's health during the run ("health", harness/runner/health_watch.hpp) and the action
  // the run came to ("action", reporters/action_table.hpp), compact JSON; "{}" when absent.
  std::string health_json = "{}", action_json = "{}";
  std::vector<std::pair<std::string, std::string>> suite, run, device;  // scalar fields, in file order
  // False when the file has no "device" object (or an empty one): which GPU ran it, or that none
  // did, is unknown; `history add` refuses such a run and the reports say so.
  bool has_device = true;
  // What the "health" object says: health_verdict "" where not watched, "healthy" or
  // "unhealthy: WHY"; xids the Xid and other events the watch did not expect ("Xid 79 at case X").
  std::string health_verdict;
  std::vector<std::string> xids;
  bool unhealthy() const { return health_verdict.rfind("unhealthy", 0) == 0; }
  // "" for a run that finished; else what cut it off and how far it got: "cut off by SIGTERM, 926
  // of 4923 cases finished", "a snapshot of a run still going, ...".
  std::string cut_off() const;
  std::string get(const std::vector<std::pair<std::string, std::string>>& kv, const std::string& k) const;
  std::string dev(const std::string& k) const { return get(device, k); }
  bool available() const { return dev("available") == "true"; }
  // "NVIDIA H200, cc 9.0, 132 SMs, driver 580.1", "no GPU: why" or "unknown device: ..." (no device section).
  std::string device_line() const;
  // The code path the run judged: "sass (nvcc 13.0 ...)", "jit (driver 580.159.04)", "ptxas 12.8.93".
  std::string toolchain_line() const;
  // The tool that made the machine code, with its version: "ptxas 13.0.88" (sass: the build's
  // toolkit, its ptxas_version, else the CUDA release it was built with, "ptxas 13.0"; ptxas=PATH:
  // that one), "driver JIT 580.159.04" (jit). A known finding of a tool is scoped by this.
  std::string tool_line() const;
};

// One case's result in one run.
struct Outcome {
  Verdict verdict = Verdict::pass;
  std::string reason, expected, observed;
  std::vector<std::pair<std::string, double>> measurements;  // NaN where the file has null
  std::vector<std::pair<std::string, std::string>> facts;
  double duration_s = 0;
  int worker = 0, order = 0;  // which worker process ran it, after how many of its cases (0: not recorded)
  std::string fact(const std::string& key) const { return fact_of(facts, key); }
};

// One case across the runs of a fleet: by_run[i] is run i's result, empty when run i did
// not have the case (other specs, other filters).
struct CaseRow {
  std::string name, rule, area, kind, min_cc, arch, source;
  std::string basis;  // the rule's `basis:` ("documented", "toolchain", ...); "" in files before 2026-11-26
  std::string tier, definition;  // the rule's tier and definition hash; "" in files before 2026-11-28 (suite 1.0.0)
  bool shadow = false;           // the rule was in shadow (report-only) in the run that wrote it
  std::vector<std::string> relies;  // the rule's `relies:` (consumers/ behaviour ids); empty in files before 2026-11-28
  // A failure of this case is a compatibility break: its rule is of basis relied-upon.
  bool relied_upon() const { return basis == "relied-upon"; }
  std::vector<std::pair<std::string, std::string>> params;
  std::vector<std::string> tags;
  std::vector<std::optional<Outcome>> by_run;
};

struct Fleet {
  std::string schema;  // of the file it was read from
  std::vector<RunInfo> runs;
  std::vector<CaseRow> cases;  // first-seen order
  std::map<std::string, std::size_t> index;  // case name -> position in cases

  const CaseRow* find(const std::string& name) const;
  std::map<std::string, int> counts(std::size_t run) const;  // verdict -> count, all verdicts present
};

// The flags of run.selection that choose cases (--area, --rule, --tag, --kind, --profile), sorted
// and joined: "" for the whole suite.
std::string case_selection(const RunInfo& r);
// What `run --devices` (or $CUCONFORM_DEVICES) chose for a node run, "all" or "0,2"; "" for a lone
// run (and for files written before 2026-11-28, which did not record it).
std::string run_devices(const RunInfo& r);

// Reads a results or fleet file, plain or gzip-compressed (.json.gz); throws ResultsError on bad input.
Fleet load_results(const std::string& path);
// As load_results, less what a FleetDigest never reads (reporters/fleet_digest.hpp), left out as
// the text is parsed: each case's source, params, tags and relies, each result's reason, expected,
// observed and its facts but "outcome" read empty. A night of thousands of files reads this way
// (about half the CPU time); the text must still parse whole, and the fields kept are checked alike.
Fleet load_results_for_digest(const std::string& path);
// The runs (run, suite, device) and the schema of a results or fleet file, every case left out as
// the text is parsed (it must still parse whole): pick_baseline chooses among baselines this way.
Fleet load_results_runs(const std::string& path);
// The run of stored "suite", "run" and "device" objects (compact JSON, as RunInfo keeps them):
// the history reads its runs back this way. Throws ResultsError.
RunInfo run_info_from_json(const std::string& file, const std::string& suite_json, const std::string& run_json,
                           const std::string& device_json);
// A results or fleet file by its name: NAME.json or NAME.json.gz.
bool is_results_file_name(const std::string& path);
// One fleet of every run of `parts`, in order; cases are united by name. Labels are made unique.
Fleet merge_fleets(const std::vector<Fleet>& parts);
// The fleet file (schema cuconform-fleet/1, reporters/README.md).
std::string fleet_json(const Fleet& f);

bool is_failure_name(const std::string& verdict);
const std::vector<Verdict>& all_verdicts();

}  // namespace cuconform
