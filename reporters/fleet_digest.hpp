#pragma once
// What the fleet view and the odd one out need of each GPU's results, a few bytes a case: the
// run's identity, each case's category (the verdict; for `recorded` its outcome category) and
// the measurements the odd one out compares. A night of 10,000 GPUs is read one file at a time
// into a digest (docs/fleet.md, "What a night costs"); a full Fleet holds every message, fact and
// measurement of every case (about 12 MB a GPU) and is for the reports of one node.
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "reporters/action_table.hpp"
#include "reporters/results_file.hpp"
#include "reporters/throughput_table.hpp"

namespace cuconform {

struct FleetDigest {
  std::vector<RunInfo> runs;
  std::vector<std::string> cases;  // first-seen order
  std::vector<std::string> categories;
  // Per run, per case (index into `cases`): 1 + the index of its category, 0 where the run has no
  // such case. A run read before a case was first seen has a shorter row: absent.
  std::vector<std::vector<std::uint16_t>> verdicts;
  std::vector<std::pair<std::uint32_t, std::string>> measures;  // (case, measurement name)
  // Per run: the measures it has, ascending, and their values (two arrays: 12 bytes a value).
  struct Values {
    std::vector<std::uint32_t> measure;
    std::vector<double> value;
  };
  std::vector<Values> values;
  // Per run, what the actions and metrics need, computed while its file is in memory: the
  // action facts with the known list given to add, the count by verdict, the throughput rows.
  struct RunFacts {
    ActionFacts facts;
    std::map<std::string, int> counts;
    std::vector<ThroughputRow> throughput;
  };
  std::vector<RunFacts> facts;

  // Appends every run of `f` (its cases united with those already there by name); `known` (null:
  // none, every failure is new) tells new failures from known ones in each run's action facts.
  void add(const Fleet& f, const KnownList* known = nullptr);
  // Labels of the runs added that collide ("NVIDIA H200 #0 @ node1" twice) numbered, as
  // merge_fleets numbers them: once, after the last add.
  void number_labels();
  // The category of `run`'s result of case `c`, or null where it has none.
  const std::string* category(std::size_t run, std::size_t c) const;

 private:
  std::unordered_map<std::string, std::uint32_t> case_ix_, category_ix_;
  std::unordered_map<std::string, std::uint32_t> measure_ix_;  // "case\tname"
  std::unordered_map<std::string, bool> compared_;             // compared_measure, by name
};

FleetDigest digest_of(const Fleet& f, const KnownList* known = nullptr);

// The measurements the odd one out compares: latencies, ratios and throughput (report_common's
// measure kinds). Litmus outcome counts and other tallies of racing events vary by design.
bool compared_measure(const std::string& name);

}  // namespace cuconform
