#pragma once
// The verbs that read results files: report, compare, merge (reporters/README.md).
#include <functional>
#include <map>
#include <string>

#include "harness/cli/options.hpp"

namespace cuconform {

struct ReportVerb {
  VerbSpec spec;
  std::function<int(const Options&)> fn;
};

std::map<std::string, ReportVerb> report_verbs();

}  // namespace cuconform
