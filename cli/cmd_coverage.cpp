// cuconform coverage: which of the documents' statements the rules prove (harness/spec/coverage.hpp);
// --tables: the rule-table audit, which rule runs, assembles or rejects each documented table row.
#include <iostream>

#include "cli/verbs.hpp"
#include "harness/spec/coverage.hpp"
#include "harness/spec/tables.hpp"
#include "reporters/coverage_report.hpp"

namespace cuconform {

namespace {

int cmd_coverage(const Options& o) {
  std::string format = o.get("--format", "text");
  if (format != "text" && format != "md" && format != "json") {
    std::cerr << "cuconform coverage: --format '" << format << "' must be text, md or json\n";
    return kExitBadInput;
  }
  Catalog cat;
  StatementIndex idx;
  if (!load_or_report(o, &cat, &idx)) return kExitBadInput;
  bool list = !o.has("--summary");
  if (o.has("--tables")) {  // the rule-table audit (issue 24): tables/ beside specs/
    TableAudit a = load_tables(tables_dir_for(cat.dir), cat);
    for (auto& e : a.errors) std::cerr << e.str() << "\n";
    if (!a.errors.empty()) {
      std::cerr << "cuconform coverage: " << a.errors.size() << " error(s) in " << a.dir << "\n";
      return kExitBadInput;
    }
    if (!a.available) {
      std::cerr << "cuconform coverage: no tables folder at " << a.dir << "\n";
      return kExitBadInput;
    }
    if (format == "json") std::cout << tables_json(a);
    else if (format == "md") std::cout << tables_markdown(a, list);
    else std::cout << tables_text(a, list);
    return kExitOk;
  }
  if (!idx.available) {
    std::cerr << "cuconform coverage: no statement index at " << idx.dir << " (ci/statements/extract.py makes one)\n";
    return kExitBadInput;
  }
  CoverageReport c = compute_coverage(cat, idx);
  if (format == "json") std::cout << coverage_json(c);
  else if (format == "md") std::cout << coverage_markdown(c, list);
  else std::cout << coverage_text(c, list);
  return kExitOk;
}

}  // namespace

const VerbRegistration kCoverageVerb(
    "coverage", "the documents' statements (statements/) the rules prove, record, plan, or that are not testable", cmd_coverage,
    [](Verb& v) {
      v.choice("--format", {"text", "md", "json"}, "the output's format (default text)")
          .flag("--summary", "the totals only, without the list of statements (or table rows)")
          .flag("--tables",
                "the rule-table audit (tables/) instead: per documented table, the rows run on the GPU, assembled, "
                "rejected, not testable, planned or with no rule yet (gap), then the gap rows");
    });

}  // namespace cuconform
