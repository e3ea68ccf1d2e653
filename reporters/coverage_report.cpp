#include "reporters/coverage_report.hpp"

#include <iomanip>
#include <sstream>

#include "harness/util/json_write.hpp"
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

// Adds the counts to `j`, after the fields that name what was counted.
void add_counts(Json& j, const CoverageCounts& n) {
  j["statements"] = n.total();
  for (CoverageStatus s : all_coverage_statuses()) j[to_string(s)] = n[s];
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
  o << "\n" << coverage_summary(c) << "\n";
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
  o << "\n" << coverage_summary(c) << "\n";
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
  Json total = Json::object();
  add_counts(total, c.total);
  total["normative"] = c.total.normative();
  total["above_cc90"] = c.above_cc90;
  Json j = {{"total", total}, {"documents", Json::array()}, {"sections", Json::array()}, {"statements", Json::array()}};
  for (auto& d : c.documents) {
    Json doc = {{"document", d.document}};
    add_counts(doc, d.counts);
    j["documents"].push_back(doc);
  }
  for (auto& s : c.sections) {
    Json sec = {{"document", s.document}, {"section", s.section}};
    add_counts(sec, s.counts);
    j["sections"].push_back(sec);
  }
  for (auto& sc : c.statements) {
    const Statement& st = *sc.statement;
    Json row = {{"id", st.id}, {"status", to_string(sc.status)}, {"file", st.file}, {"line", st.line}, {"section", st.section}};
    Json& rules = row["rules"] = Json::array();
    for (const Rule* r : sc.rules) rules.push_back(r->id);
    if (!st.reason.empty()) row["reason"] = st.reason;
    j["statements"].push_back(row);
  }
  return json_text(j, true);
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
  o << "</table>\n<p>" << xml_escape(coverage_summary(c)) << "</p>\n<details><summary>statements with nothing: " << c.total[CoverageStatus::none]
    << "</summary>\n<table><tr><th>id</th><th>where</th><th>statement</th></tr>\n";
  for (auto& sc : c.statements)
    if (sc.status == CoverageStatus::none)
      o << "<tr><td><code>" << xml_escape(sc.statement->id) << "</code></td><td>" << xml_escape(where(*sc.statement))
        << "</td><td>" << xml_escape(sc.statement->text) << "</td></tr>\n";
  o << "</table></details></section>\n";
  return o.str();
}

}  // namespace cuconform

namespace cuconform {
namespace {

std::string row_what(const TableRow& r) {
  std::string s;
  if (!r.refs.empty()) {
    for (auto& x : r.refs) s += (s.empty() ? "" : ", ") + x;
    if (!r.needs.empty()) s += "  [only GPUs of " + r.needs + " and above run it]";
  } else {
    s = r.reason;
  }
  if (!r.note.empty()) s += "  (" + r.note + ")";
  return s;
}

std::string row_where(const TableRow& r) { return r.loc.file + ":" + std::to_string(r.loc.line); }

}  // namespace

std::string tables_summary(const TableAudit& a) {
  std::ostringstream o;
  o << "table audit: " << a.tables.size() << " tables, " << a.total.total() << " rows:";
  bool first = true;
  for (RowDisposition d : all_row_dispositions()) {
    o << (first ? " " : ", ") << to_string(d) << " " << a.total[d];
    first = false;
  }
  if (a.run_above_cc90) o << " (" << a.run_above_cc90 << " run rows only on GPUs above CC 9.0)";
  return o.str();
}

std::string tables_text(const TableAudit& a, bool list_rows) {
  std::ostringstream o;
  auto counts = [&](const std::string& label, const RowCounts& n) {
    o << std::left << std::setw(44) << label << std::right << std::setw(6) << n.total();
    for (RowDisposition d : all_row_dispositions()) o << std::setw(13) << n[d];
    o << "\n";
  };
  o << std::left << std::setw(44) << "table" << std::right << std::setw(6) << "rows";
  for (RowDisposition d : all_row_dispositions()) o << std::setw(13) << to_string(d);
  o << "\n";
  for (auto& t : a.tables) counts(t.id, t.counts);
  counts("total", a.total);
  o << "\n" << tables_summary(a) << "\n";
  if (list_rows) {
    for (auto& t : a.tables) {
      o << "\n" << t.id << ": " << t.title << "\n  source: " << t.source << "\n";
      for (auto& r : t.rows)
        o << "  " << std::left << std::setw(13) << to_string(r.disposition) << std::setw(44) << r.member << " " << row_what(r) << "\n";
    }
  }
  o << "\ngap rows (" << a.total[RowDisposition::gap] << "):\n";
  for (auto& t : a.tables)
    for (auto& r : t.rows)
      if (r.disposition == RowDisposition::gap) o << "  " << t.id << "  " << r.member << "  " << r.reason << "  " << row_where(r) << "\n";
  return o.str();
}

std::string tables_markdown(const TableAudit& a, bool list_rows) {
  std::ostringstream o;
  o << "## Rule-table audit\n\n| table | rows |";
  for (RowDisposition d : all_row_dispositions()) o << " " << to_string(d) << " |";
  o << "\n|---|---:|";
  for (std::size_t i = 0; i < kRowDispositions; ++i) o << "---:|";
  o << "\n";
  auto counts = [&](const std::string& label, const RowCounts& n) {
    o << "| " << label << " | " << n.total() << " |";
    for (RowDisposition d : all_row_dispositions()) o << " " << n[d] << " |";
    o << "\n";
  };
  for (auto& t : a.tables) counts("`" + t.id + "`", t.counts);
  counts("**total**", a.total);
  o << "\n" << tables_summary(a) << "\n";
  if (list_rows) {
    for (auto& t : a.tables) {
      o << "\n### `" << t.id << "`: " << one_line(t.title) << "\n\nSource: " << one_line(t.source)
        << "\n\n| row | disposition | rules / reason |\n|---|---|---|\n";
      for (auto& r : t.rows) o << "| `" << one_line(r.member) << "` | " << to_string(r.disposition) << " | " << one_line(row_what(r), 400) << " |\n";
    }
  }
  o << "\n### Gap rows (" << a.total[RowDisposition::gap] << ")\n\n| table | row | reason |\n|---|---|---|\n";
  for (auto& t : a.tables)
    for (auto& r : t.rows)
      if (r.disposition == RowDisposition::gap) o << "| `" << t.id << "` | `" << one_line(r.member) << "` | " << one_line(r.reason) << " |\n";
  return o.str();
}

std::string tables_json(const TableAudit& a) {
  auto add = [](Json& j, const RowCounts& n) {
    j["rows"] = n.total();
    for (RowDisposition d : all_row_dispositions()) j[to_string(d)] = n[d];
  };
  Json total = Json::object();
  add(total, a.total);
  total["tables"] = static_cast<int>(a.tables.size());
  total["run_above_cc90"] = a.run_above_cc90;
  Json j = {{"total", total}, {"tables", Json::array()}};
  for (auto& t : a.tables) {
    Json tj = {{"id", t.id}, {"title", t.title}, {"source", t.source}};
    add(tj, t.counts);
    Json& rows = tj["row_list"] = Json::array();
    for (auto& r : t.rows) {
      Json rj = {{"member", r.member}, {"disposition", to_string(r.disposition)}, {"file", r.loc.file}, {"line", r.loc.line}};
      if (!r.refs.empty()) {
        Json& refs = rj["rules"] = Json::array();
        for (auto& x : r.refs) refs.push_back(x);
        rj["cases"] = r.cases;
      }
      if (!r.reason.empty()) rj["reason"] = r.reason;
      if (!r.needs.empty()) rj["needs"] = r.needs;
      if (!r.note.empty()) rj["note"] = r.note;
      rows.push_back(rj);
    }
    j["tables"].push_back(tj);
  }
  return json_text(j, true);
}

}  // namespace cuconform
