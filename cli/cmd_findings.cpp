// cuconform findings: the known findings of the known list (ci/baselines/known.yaml), by class,
// each with its cases, evidence, scope and reproducer; docs/findings.md quotes its Markdown, so
// the page is the list (ci/docs-generated.sh, test_docs_generated.cpp).
#include <iostream>

#include "cli/verbs.hpp"
#include "reporters/findings_doc.hpp"
#include "reporters/results_file.hpp"

namespace cuconform {

namespace {

int cmd_findings(const Options& o) {
  const std::string format = o.get("--format", "text");
  if (format != "text" && format != "md") {
    std::cerr << "cuconform findings: --format '" << format << "' must be text or md\n";
    return kExitBadInput;
  }
  std::optional<KnownList> known;
  try {
    known = load_known_list(o, specs_dir_of(o), nullptr);
  } catch (const ResultsError& e) {
    std::cerr << e.what() << "\n";
    return kExitBadInput;
  }
  if (!known) {
    std::cerr << "cuconform findings: no known list (--known FILE, $CUCONFORM_KNOWN, or ci/baselines/known.yaml beside the specs)\n";
    return kExitBadInput;
  }
  std::cout << findings_document(*known, format == "md");
  return kExitOk;
}

}  // namespace

const VerbRegistration kFindingsVerb(
    "findings", "the known findings (ci/baselines/known.yaml) by class: cases, evidence, scope, reproducer", cmd_findings,
    [](Verb& v) {
      v.choice("--format", {"text", "md"}, "the output's format (default text; md is docs/findings.md's list)")
          .value("--known", "FILE", "the known list (default: as for run)", ValueHint::file);
    });

}  // namespace cuconform
