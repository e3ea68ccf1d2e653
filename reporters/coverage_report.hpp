#pragma once
// The coverage of the documents' statements by the specs (harness/spec/coverage.hpp), written
// as text, Markdown, JSON, or a section of the HTML report.
#include <string>

#include "harness/spec/coverage.hpp"

namespace cuconform {

// `list_nothing`: also list every statement that nothing covers (with its source location).
std::string coverage_text(const CoverageReport& c, bool list_nothing);
std::string coverage_markdown(const CoverageReport& c, bool list_nothing);
std::string coverage_json(const CoverageReport& c);
// A <section> for the HTML report: per document, and the uncovered statements folded away.
std::string coverage_html(const CoverageReport& c);

}  // namespace cuconform
