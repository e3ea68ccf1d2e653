#pragma once
// The odd one out: among the runs of a fleet that share a GPU model, driver, code path and
// selection (peers), the GPUs whose verdicts or recorded-outcome categories differ from the
// majority of their peers, and the GPUs whose measurements are outliers against the peers'
// median and MAD. A pure function of the fleet; the renderers say the rule they applied.
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "harness/util/json_write.hpp"
#include "reporters/results_file.hpp"

namespace cuconform {

struct OddPolicy {
  // A value is an outlier when its modified z-score 0.6745 * |x - median| / MAD (Iglewicz and
  // Hoaglin) exceeds `z` AND it is off the median by more than `min_rel` of the median. Where the
  // peers agree exactly (MAD 0) the second test alone decides.
  double z = 3.5;
  double min_rel = 0.10;
  // Fewer peers than this (two GPUs): no majority exists, so nobody is named; the cases and
  // measurements where they disagree are listed as splits.
  int min_peers = 3;
  std::string rule() const;  // the rule in words, printed with every result
};

// Runs that can be compared: same model, driver, code path (toolchain and SASS/JIT) and selection.
struct PeerGroup {
  std::string model, driver, code_path, selection;
  std::vector<std::size_t> runs;  // indices into Fleet::runs
  std::string label() const;      // "NVIDIA H200 · driver 580.159.04 · sass (...)"
};

struct VerdictDiff {
  std::string case_name, category, majority;  // "fail" vs "pass"; recorded: "recorded: <outcome>"
  int majority_count = 0, peers = 0;          // of the peers that have the case
  bool failing = false;                       // a failure where the majority has none
};

struct MeasureDiff {
  std::string case_name, measurement;
  double value = 0, median = 0, mad = 0, z = 0;  // z: modified z-score (infinite where MAD is 0)
  int peers = 0;
};

struct OddGpu {
  std::size_t run = 0, group = 0;
  std::vector<VerdictDiff> verdicts;
  std::vector<MeasureDiff> measurements;
  bool failing() const;  // a verdict difference that is a failure the majority does not have
};

// A case (or a measurement) where the peers disagree and no majority (or, with fewer than
// min_peers, no peer at all) decides who is odd: listed, nobody named.
struct Split {
  std::size_t group = 0;
  std::string case_name, measurement;                    // measurement empty: a verdict split
  std::vector<std::pair<std::size_t, std::string>> values;  // run -> category or value, every peer
};

struct OddResult {
  OddPolicy policy;
  std::vector<PeerGroup> groups;
  std::vector<OddGpu> odd;               // in run order
  std::vector<Split> splits;
  std::vector<std::size_t> without_gpu;  // runs that saw no GPU: nothing to compare
  const OddGpu* find(std::size_t run) const;
};

// Measurements compared: latencies, ratios and throughput (report_common's measure kinds).
// Litmus outcome counts and other tallies of racing events vary from run to run by design.
OddResult find_odd_ones(const Fleet& f, const OddPolicy& p = {});
struct FleetDigest;
OddResult find_odd_ones(const FleetDigest& f, const OddPolicy& p = {});
// The outputs name each GPU by its run label ("NVIDIA H200 #1 5f0c2a9e @ node7", results_file).

// The category a case's result is compared by: the verdict, and for `recorded` the outcome.
std::string verdict_category(const Outcome& o);

std::string odd_text(const std::vector<RunInfo>& runs, const OddResult& r);
std::string odd_markdown(const std::vector<RunInfo>& runs, const OddResult& r);
Json odd_json(const std::vector<RunInfo>& runs, const OddResult& r);
inline std::string odd_text(const Fleet& f, const OddResult& r) { return odd_text(f.runs, r); }
inline std::string odd_markdown(const Fleet& f, const OddResult& r) { return odd_markdown(f.runs, r); }
inline Json odd_json(const Fleet& f, const OddResult& r) { return odd_json(f.runs, r); }  // reporters/README.md, "The fleet view"

}  // namespace cuconform
