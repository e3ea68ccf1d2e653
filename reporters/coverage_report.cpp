#include "reporters/coverage_report.hpp"

#include <iomanip>
#include <sstream>

#include "harness/util/json.hpp"
#include "reporters/junit_xml.hpp"

namespace cuconform {
namespace {

std::string one_line(std::string s, std::size_t max = 200) {
  for (auto& ch : s)
    if (ch == '\n' || ch == '\r' || ch == '|') ch = ' ';
  return s.size() > max ? s.substr(0, max) + "…" : s;
}

std::string where(const Statement& s) { return s.file + ":" + std::to_string(s.line); }

void counts_row_md(std::ostringstream& o, const std::string& label, const CoverageCounts& n) {
  o << "| " << label << " | " << n.total() << " |";
  for (CoverageStatus s : all_coverage_statuses()) o << " " << n[s] << " |";
  o << "\n";
}

void counts_header_md(std::ostringstream& o, const char* first) {
  o << "| " << first << " | statements |";
  for (CoverageStatus s : all_coverage_statuses()) o << " " << to_string(s) << " |";
  o << "\n|---|---:|";
  for (std::size_t i = 0; i < kCoverageStatuses; ++i) o << "---:|";
  o << "\n";
}

void counts_json(JsonWriter& w, const CoverageCounts& n) {
  w.field("statements", n.total());
  for (CoverageStatus s : all_coverage_statuses()) w.field(to_string(s), n[s]);
}

}  // namespace

std::string coverage_text(const CoverageReport& c, bool list_nothing) {
  std::ostringstream o;
  auto row = [&](const std::string& label, const CoverageCounts& n) {
    o << std::left << std::setw(48) << label << std::right << std::setw(6) << n.total();
    for (CoverageStatus s : all_coverage_statuses()) o << std::setw(14) << n[s];
    o << "\n";
  };
  o << std::left << std::setw(48) << "document" << std::right << std::setw(6) << "total";
  for (CoverageStatus s : all_coverage_statuses()) o << std::setw(14) << to_string(s);
  o << "\n";
  for (auto& d : c.documents) row(d.document, d.counts);
  row("total", c.total);
  if (list_nothing) {
    o << "\nstatements with nothing (" << c.total[CoverageStatus::none] << "):\n";
    for (auto& sc : c.statements)
      if (sc.status == CoverageStatus::none)
        o << "  " << sc.statement->id << "  " << where(*sc.statement) << "  " << one_line(sc.statement->text, 140) << "\n";
  }
  return o.str();
}

std::string coverage_markdown(const CoverageReport& c, bool list_nothing) {
  std::ostringstream o;
  o << "## Coverage of the documents' statements\n\n";
  counts_header_md(o, "document");
  for (auto& d : c.documents) counts_row_md(o, "`" + d.document + "`", d.counts);
  counts_row_md(o, "**total**", c.total);
  if (!list_nothing) return o.str();
  o << "\n### Per section\n\n";
  counts_header_md(o, "document / section");
  for (auto& s : c.sections) counts_row_md(o, "`" + s.document + "` " + one_line(s.section, 80), s.counts);
  o << "\n### Statements with nothing (" << c.total[CoverageStatus::none] << ")\n\n| id | where | statement |\n|---|---|---|\n";
  for (auto& sc : c.statements)
    if (sc.status == CoverageStatus::none)
      o << "| `" << sc.statement->id << "` | " << where(*sc.statement) << " | " << one_line(sc.statement->text) << " |\n";
  return o.str();
}

std::string coverage_json(const CoverageReport& c) {
  JsonWriter w(true);
  w.begin_object().key("total").begin_object();
  counts_json(w, c.total);
  w.end_object().key("documents").begin_array();
  for (auto& d : c.documents) {
    w.begin_object().field("document", d.document);
    counts_json(w, d.counts);
    w.end_object();
  }
  w.end_array().key("sections").begin_array();
  for (auto& s : c.sections) {
    w.begin_object().field("document", s.document).field("section", s.section);
    counts_json(w, s.counts);
    w.end_object();
  }
  w.end_array().key("statements").begin_array();
  for (auto& sc : c.statements) {
    w.begin_object().field("id", sc.statement->id).field("status", to_string(sc.status));
    w.field("file", sc.statement->file).field("line", sc.statement->line).field("section", sc.statement->section);
    w.key("rules").begin_array();
    for (const Rule* r : sc.rules) w.value(r->id);
    w.end_array();
    if (!sc.statement->reason.empty()) w.field("reason", sc.statement->reason);
    w.end_object();
  }
  w.end_array().end_object();
  return w.str() + "\n";
}

std::string coverage_html(const CoverageReport& c) {
  std::ostringstream o;
  o << "<section><h2>Coverage of the documents' statements</h2>\n<table><tr><th>document</th><th>statements</th>";
  for (CoverageStatus s : all_coverage_statuses()) o << "<th>" << to_string(s) << "</th>";
  o << "</tr>\n";
  auto row = [&](const std::string& label, const CoverageCounts& n) {
    o << "<tr><td>" << xml_escape(label) << "</td><td>" << n.total() << "</td>";
    for (CoverageStatus s : all_coverage_statuses()) o << "<td>" << n[s] << "</td>";
    o << "</tr>\n";
  };
  for (auto& d : c.documents) row(d.document, d.counts);
  row("total", c.total);
  o << "</table>\n<details><summary>statements with nothing: " << c.total[CoverageStatus::none]
    << "</summary>\n<table><tr><th>id</th><th>where</th><th>statement</th></tr>\n";
  for (auto& sc : c.statements)
    if (sc.status == CoverageStatus::none)
      o << "<tr><td><code>" << xml_escape(sc.statement->id) << "</code></td><td>" << xml_escape(where(*sc.statement))
        << "</td><td>" << xml_escape(sc.statement->text) << "</td></tr>\n";
  o << "</table></details></section>\n";
  return o.str();
}

}  // namespace cuconform
