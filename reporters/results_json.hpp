#pragma once
// The results file (schema "cuconform-results/1", documented in reporters/README.md).
#include <string>

#include "reporters/run_report.hpp"

namespace cuconform {

constexpr const char* kResultsSchema = "cuconform-results/1";

std::string results_json(const RunReport& run);
// Writes `content` to `path` atomically (temporary file + rename): a killed run never
// leaves half a file. Throws std::runtime_error on failure.
void write_file_atomically(const std::string& path, const std::string& content);

}  // namespace cuconform
