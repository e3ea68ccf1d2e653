#pragma once
// What the known list (ci/baselines/known.yaml) says of one run's failures, for the console of
// `cuconform run`: a GPU that breaks only what is already recorded reads differently from one
// that breaks something new, before anyone runs `compare`.
#include <string>

#include "reporters/known_list.hpp"
#include "reporters/results_file.hpp"

namespace cuconform {

// "of 104 failure(s): 104 known finding(s) (runtime 57, tool-accepts-forbidden 34, ...), 0 known
// flake(s), 0 new (FILE)", then, when some are new, "NEW: name, name, ... (+N more)". Run 0 of
// `run`; empty when it has no failure.
std::string known_failures_summary(const Fleet& run, const KnownList& known);

}  // namespace cuconform
