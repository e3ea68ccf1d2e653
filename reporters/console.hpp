#pragma once
// What a person watching a run reads: one line per case as it ends, then a summary.
#include <iosfwd>
#include <string>

#include "harness/runner/case_result.hpp"
#include "harness/spec/spec.hpp"
#include "reporters/run_report.hpp"

namespace cuconform {

void print_case_line(std::ostream& os, const Case& c, const CaseResult& r, bool verbose);
void print_summary(std::ostream& os, const RunReport& run);
// Where the run's time went (`run --timing`).
void print_timing(std::ostream& os, const RunReport& run);

}  // namespace cuconform
