#pragma once
// The results file (schema "cuconform-results/1", documented in reporters/README.md).
#include <string>

#include "harness/util/output_file.hpp"  // write_file_atomically, which writers of a run use
#include "reporters/run_report.hpp"

namespace cuconform {

constexpr const char* kResultsSchema = "cuconform-results/1";

std::string results_json(const RunReport& run);

}  // namespace cuconform
