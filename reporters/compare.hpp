#pragma once
// `cuconform compare BASE NEW`: what changed between two runs, classified so CI can gate on
// regressions while known failures and known flakes stay visible but green.
#include <optional>
#include <string>
#include <vector>

#include "reporters/known_list.hpp"
#include "reporters/results_file.hpp"

namespace cuconform {

enum class Change {
  new_failure,        // regression: fails now, did not fail (or did not exist) in the baseline
  consumer_break,     // regression, listed apart: a new failure of a rule of basis relied-upon (a
                      // behaviour a named consumer's code depends on): a compatibility break
  coverage_lost,      // regression: ran in the baseline (pass or fail), not-supported now
  not_judged,         // regression: judged in the baseline, and in NEW not-run (its GPU stopped as
                      // unhealthy), missing, or left out by a cut-off: the gate fails closed
  measurement_moved,  // regression: passes in both, a measurement moved beyond its tolerance
  measurement_other_device,  // the same move between two GPU models: shown, never gating
  known_failure,      // fails, listed in known_failures
  known_flake,        // listed in known_flakes and failed in either run (or stopped running)
  flaky,              // verdict flake (failed, passed on a re-run: run --rerun) and not listed
  unexpected_pass,    // listed in known_failures but passed: the entry may be stale
  still_failing,      // failed in the baseline too and is not listed as known
  fixed,              // failed in the baseline, passes now
  behaviour_changed,  // undefined behaviour recorded in both runs, with another outcome: shown, never gating
  toolchain_changed,  // a toolchain observation (basis: toolchain) turned pass <-> fail: a change, never gating
  verdict_changed,    // any other verdict change (not-supported -> pass, planned -> ...)
  added,              // only in NEW
  removed,            // only in BASE
  // The contract (contract_compare.hpp, docs/contract.md):
  redefined,          // in both, but its rule's definition changed: not judged, listed apart
  shadow,             // would gate, but its rule is in shadow (report-only until promoted)
  outside_gate,       // would gate, but its tier is not gated (compare --gate-tier)
  waiver_expired,     // regression: fails, and the known entry that waived it has expired
};
const char* to_string(Change c);
bool is_regression(Change c);

struct CompareItem {
  Change kind;
  std::string name, base_verdict, new_verdict;  // verdicts empty where absent
  std::string reason, expected, observed;       // NEW's (BASE's for removed)
  std::string base_reason, base_observed;        // BASE's, where both runs have the case
  std::string note;                             // the known entry's reason and where it is
  std::string measurement;
  double base_value = 0, new_value = 0, tolerance = 0;
  std::string tolerance_class;  // the known file's class of that tolerance ("" when none)
  FindingClass finding = FindingClass::none;  // known failures and unexpected passes: the entry's class
  std::string judged_by;  // how a MeasurementJudge decided (empty: the fixed tolerance)
  std::string was;        // contract reclassifications: the class it had before ("new failure")
};

// An item of kind `k` for case `name` of BASE `b` and NEW `n` (either may be absent): the
// verdicts, NEW's reason and values (BASE's for a removed case), BASE's where both have it.
// compare and the contract compare both build their items with it.
CompareItem compare_item(Change k, const std::string& name, const Outcome* b, const Outcome* n);

// Judges NEW's measurements from elsewhere than BASE (compare --history: the spread of earlier
// runs of the same configuration). nullopt: too little to go on, the fixed tolerance applies.
struct MeasurementJudgement {
  bool moved = false;
  double tolerance = 0;  // relative, for display
  std::string how;       // what decided it, in words
};
struct MeasurementJudge {
  virtual ~MeasurementJudge() = default;
  virtual std::optional<MeasurementJudgement> judge(const std::string& case_name, const std::string& measurement, double value) const = 0;
  virtual std::string describe() const = 0;  // where the tolerances came from, and how many it judged
};

// The comparable category of a recorded (undefined-behaviour) outcome: facts.outcome, with the
// two ways a hang is recorded ("timeout" by the worker's own bounded wait, "timeout (worker
// killed)" by the supervisor) made one.
std::string outcome_category(const std::string& outcome);

struct CompareResult {
  std::string base_file, new_file, base_device, new_device, base_toolchain, new_toolchain;
  std::string tolerances;  // how measurements were judged
  bool other_device = false, other_toolchain = false;
  std::vector<std::string> warnings;
  // Why NEW as a whole cannot be judged (cut off, its GPU unhealthy, no GPU where BASE had one):
  // each one gates, whatever its cases say.
  std::vector<std::string> run_not_judged;
  std::string contract;  // how the cases were judged across suite versions (contract_compare.hpp); "" before it ran
  std::vector<CompareItem> items;
  // Whole-run wall time (run.wall_s), compared when both runs used the same GPU model, code
  // path and selection: more than kWallTolerance above BASE is a slowdown, a regression only
  // when the caller gates on it (`compare --gate-time`).
  double base_wall_s = 0, new_wall_s = 0;
  bool wall_compared = false, wall_slower = false, gate_time = false;
  static constexpr double kWallTolerance = 0.25;
  // run --shuffle: each run's seed ("" for the ordered run). Where they differ, every case whose
  // verdict or recorded category changed may depend on the order it ran in (order_dependent);
  // `cuconform bisect` names the earlier case that changes it.
  std::string base_shuffle, new_shuffle;
  std::vector<std::string> order_dependent;
  int count(Change c) const;
  int regressions() const;
};

CompareResult compare_runs(const Fleet& base, const Fleet& now, const KnownList* known, const Tolerances& tol,
                           const MeasurementJudge* judge = nullptr);

// The baseline in `dir` (results files) that best matches `now`: the same device model,
// driver and code path; else the same model and code path; else the same model; else none
// (""). `why` says which it is.
std::string pick_baseline(const std::string& dir, const Fleet& now, std::string* why);
std::string compare_text(const CompareResult& r);
std::string compare_markdown(const CompareResult& r);

}  // namespace cuconform
