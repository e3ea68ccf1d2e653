#pragma once
// The coverage of the documents' statements by the specs (harness/spec/coverage.hpp), written
// as text, Markdown, JSON, or a section of the HTML report.
#include <string>

#include "harness/spec/coverage.hpp"
#include "harness/spec/tables.hpp"

namespace cuconform {

// `list_nothing`: also list every statement that nothing covers (with its source location).
std::string coverage_text(const CoverageReport& c, bool list_nothing);
std::string coverage_markdown(const CoverageReport& c, bool list_nothing);
std::string coverage_json(const CoverageReport& c);
// A <section> for the HTML report: per document, and the uncovered statements folded away.
std::string coverage_html(const CoverageReport& c);

// The rule-table audit (tables/, harness/spec/tables.hpp): per table the rows run / assembled /
// rejected / not-testable / planned / gap, then the gap rows. `list_rows`: every row of every
// table too, with the rules or the reason (without it: the per-table counts and the totals).
std::string tables_text(const TableAudit& a, bool list_rows);
std::string tables_markdown(const TableAudit& a, bool list_rows);
std::string tables_json(const TableAudit& a);
// "table audit: N tables, R rows: run X, assembled Y, ..."
std::string tables_summary(const TableAudit& a);

}  // namespace cuconform
