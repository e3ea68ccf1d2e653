#include "reporters/tier_summary.hpp"

#include <map>
#include <sstream>
#include <vector>

#include "reporters/html_page.hpp"  // esc

namespace cuconform {

namespace {

struct Row {
  int cases = 0, shadow_failures = 0;
  std::map<std::string, int> verdicts;
};

// Per tier, over every run of the file (a fleet: each GPU's result counts).
std::map<std::string, Row> rows_of(const Fleet& f) {
  std::map<std::string, Row> rows;
  for (const char* t : {"core", "extended", "informational"}) rows[t];
  for (const CaseRow& c : f.cases)
    for (const auto& o : c.by_run) {
      if (!o) continue;
      Row& r = rows[c.tier.empty() ? "(no tier)" : c.tier];
      ++r.cases;
      ++r.verdicts[to_string(o->verdict)];
      r.shadow_failures += c.shadow && is_failure(o->verdict);
    }
  return rows;
}

const std::vector<std::string>& shown_verdicts() {
  static const std::vector<std::string> v = {"pass", "fail", "timeout", "crash", "not-supported", "recorded", "flake"};
  return v;
}

}  // namespace

std::string tier_summary_markdown(const Fleet& f) {
  std::ostringstream o;
  o << "\n## Verdicts by tier (core is the gate)\n\n| tier | cases |";
  for (auto& v : shown_verdicts()) o << " " << v << " |";
  o << " failures in shadow |\n|---|---|";
  for (std::size_t i = 0; i < shown_verdicts().size(); ++i) o << "---|";
  o << "---|\n";
  for (auto& [tier, r] : rows_of(f)) {
    if (!r.cases && tier == "(no tier)") continue;
    o << "| " << tier << " | " << r.cases << " |";
    for (auto& v : shown_verdicts()) o << " " << r.verdicts[v] << " |";
    o << " " << r.shadow_failures << " |\n";
  }
  return o.str();
}

std::string tier_summary_html(const Fleet& f) {
  std::ostringstream o;
  o << "<section id=\"tiers\"><h2>Verdicts by tier (core is the gate)</h2>\n<table><thead><tr><th>tier</th><th>cases</th>";
  for (auto& v : shown_verdicts()) o << "<th>" << html::esc(v) << "</th>";
  o << "<th>failures in shadow</th></tr></thead><tbody>\n";
  for (auto& [tier, r] : rows_of(f)) {
    if (!r.cases && tier == "(no tier)") continue;
    o << "<tr><td>" << html::esc(tier) << "</td><td>" << r.cases << "</td>";
    for (auto& v : shown_verdicts()) o << "<td>" << r.verdicts[v] << "</td>";
    o << "<td>" << r.shadow_failures << "</td></tr>\n";
  }
  o << "</tbody></table></section>\n";
  return o.str();
}

}  // namespace cuconform
