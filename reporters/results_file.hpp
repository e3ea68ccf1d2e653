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
  std::vector<std::pair<std::string, std::string>> suite, run, device;  // scalar fields, in file order
  std::string get(const std::vector<std::pair<std::string, std::string>>& kv, const std::string& k) const;
  std::string dev(const std::string& k) const { return get(device, k); }
  bool available() const { return dev("available") == "true"; }
  std::string device_line() const;  // "NVIDIA H200, cc 9.0, 132 SMs, driver 580.1" or "no GPU: why"
  // The code path the run judged: "sass (nvcc 13.0 ...)", "jit (driver 580.159.04)", "ptxas 12.8.93".
  std::string toolchain_line() const;
};

// One case's result in one run.
struct Outcome {
  Verdict verdict = Verdict::pass;
  std::string reason, expected, observed;
  std::vector<std::pair<std::string, double>> measurements;  // NaN where the file has null
  std::vector<std::pair<std::string, std::string>> facts;
  double duration_s = 0;
  std::string fact(const std::string& key) const { return fact_of(facts, key); }
};

// One case across the runs of a fleet: by_run[i] is run i's result, empty when run i did
// not have the case (other specs, other filters).
struct CaseRow {
  std::string name, rule, area, kind, min_cc, arch, source;
  std::vector<std::pair<std::string, std::string>> params;
  std::vector<std::string> tags;
  std::string basis_json;  // the rule's optional `basis` as compact JSON (what the documents base it on); empty: none
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

// Reads a results or fleet file; throws ResultsError on bad input.
Fleet load_results(const std::string& path);
// One fleet of every run of `parts`, in order; cases are united by name. Labels are made unique.
Fleet merge_fleets(const std::vector<Fleet>& parts);
// The fleet file (schema cuconform-fleet/1, reporters/README.md).
std::string fleet_json(const Fleet& f);

bool is_failure_name(const std::string& verdict);
const std::vector<Verdict>& all_verdicts();

}  // namespace cuconform
