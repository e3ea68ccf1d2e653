// cuconform coverage: which of the documents' statements the rules prove (harness/spec/coverage.hpp);
// --tables: the rule-table audit, which rule runs, assembles or rejects each documented table row;
// --consumers: what the named consumers rely on (consumers/), proved, recorded or not testable here.
#include <iostream>

#include "cli/verbs.hpp"
#include "harness/spec/consumer_coverage.hpp"
#include "harness/spec/coverage.hpp"
#include "harness/spec/tables.hpp"
#include "reporters/consumer_report.hpp"
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
  ConsumerIndex consumers;
  if (!load_or_report(o, &cat, &idx, &consumers)) return kExitBadInput;
  bool list = !o.has("--summary");
  if (o.has("--consumers")) {  // the relied-upon index (issue 43)
    if (!consumers.available) {
      std::cerr << "cuconform coverage: no consumer index at " << consumers.dir << "\n";
      return kExitBadInput;
    }
    auto c = compute_consumer_coverage(cat, consumers);
    if (format == "json") std::cout << consumers_json(c);
    else if (format == "md") std::cout << consumers_markdown(c, list);
    else std::cout << consumers_text(c, list);
    return kExitOk;
  }
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
  // The summary's line for the relied-upon index (the JSON keeps its one object).
  if (!list && consumers.available && format != "json")
    std::cout << "\n" << consumer_summary(compute_consumer_coverage(cat, consumers)) << "\n";
  return kExitOk;
}

}  // namespace

const VerbRegistration kCoverageVerb(
    "coverage", "the documents' statements (statements/) the rules prove, record, plan, or that are not testable", cmd_coverage,
    [](Verb& v) {
      v.choice("--format", {"text", "md", "json"}, "the output's format (default text)")
          .flag("--summary", "the totals only, without the list of statements (or table rows); with a line for consumers/")
          .flag("--consumers",
                "what the named consumers rely on (consumers/) instead: per consumer, each behaviour proved (by which "
                "active judged rules), recorded, not testable here (the reason), or with nothing")
          .flag("--tables",
                "the rule-table audit (tables/) instead: per documented table, the rows run on the GPU, assembled, "
                "rejected, not testable, planned or with no rule yet (gap), then the gap rows");
    });

}  // namespace cuconform
