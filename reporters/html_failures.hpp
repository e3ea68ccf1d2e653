#pragma once
// The failing cases of a report page, as an upgrade check reads them: failures the known list
// does not explain first, open; then the known findings, one collapsed group per finding class
// (the known list's `class:`, whatever classes it has) with its count; then the known flakes.
// Each case is a card: expected vs observed, reason, measurements, where the documents say it.
#include <string>
#include <vector>

#include "reporters/known_list.hpp"
#include "reporters/results_file.hpp"

namespace cuconform::html {

struct FailureCounts {
  int total = 0, fresh = 0, known = 0, flakes = 0;
};
FailureCounts count_failures(const Fleet& f, const KnownList* known);

// The <section id="failures"> of all runs of `f` (one card per case; on several runs the card
// shows each run's verdict, and the observations of the runs where it failed).
std::string failures_section(const Fleet& f, const KnownList* known);

}  // namespace cuconform::html
