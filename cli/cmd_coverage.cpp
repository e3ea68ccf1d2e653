// cuconform coverage: which of the documents' statements the rules prove (harness/spec/coverage.hpp).
#include <iostream>

#include "cli/verbs.hpp"
#include "harness/spec/coverage.hpp"
#include "reporters/coverage_report.hpp"

namespace cuconform {

int cmd_coverage(const Options& o) {
  std::string format = o.get("--format", "text");
  if (format != "text" && format != "md" && format != "json") {
    std::cerr << "cuconform coverage: --format '" << format << "' must be text, md or json\n";
    return kExitBadInput;
  }
  Catalog cat;
  StatementIndex idx;
  if (!load_or_report(o, &cat, &idx)) return kExitBadInput;
  if (!idx.available) {
    std::cerr << "cuconform coverage: no statement index at " << idx.dir << " (ci/statements/extract.py makes one)\n";
    return kExitBadInput;
  }
  CoverageReport c = compute_coverage(cat, idx);
  bool list = !o.has("--summary");
  if (format == "json") std::cout << coverage_json(c);
  else if (format == "md") std::cout << coverage_markdown(c, list);
  else std::cout << coverage_text(c, list);
  return kExitOk;
}

}  // namespace cuconform
