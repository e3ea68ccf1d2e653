// The page of several runs: a node (one run per GPU) or a fleet (runs of several hosts, models
// or code paths). Each run is a narrow column headed D1, D2, ... with what tells it from the
// others under it ("#1 5f0c2a9e" on a node), so 2 to 8 columns fit a window: the devices, the
// area x device matrix (linking to the case list), the cases that differ between devices or
// fail somewhere, the failures (one card per case), the measurements that differ most, the cases.
#include <map>
#include <set>
#include <sstream>

#include "reporters/html_case_list.hpp"
#include "reporters/html_charts.hpp"
#include "reporters/html_environment.hpp"
#include "reporters/html_failures.hpp"
#include "reporters/html_page.hpp"
#include "reporters/html_pages.hpp"
#include "reporters/report_common.hpp"
#include "reporters/svg.hpp"

namespace cuconform::html {

namespace {

constexpr std::size_t kMaxNotable = 150;

void column_heads(std::ostringstream& o, const Fleet& f, const std::vector<std::string>& shorts) {
  for (std::size_t i = 0; i < f.runs.size(); ++i)
    o << "<th class=\"d\" title=\"" << esc(f.runs[i].label) << "\">D" << i + 1 << "<small>" << esc(shorts[i]) << "</small></th>";
}

bool differs(const CaseRow& c) {
  std::set<Verdict> vs;
  for (auto& r : c.by_run)
    if (r) vs.insert(r->verdict);
  return vs.size() > 1;
}

bool fails_somewhere(const CaseRow& c) {
  for (auto& r : c.by_run)
    if (r && is_failure(r->verdict)) return true;
  return false;
}

}  // namespace

std::string fleet_page(const Fleet& f, const KnownList* known, const std::string& source, const std::string& extra,
                       const std::string& footer) {
  const auto shorts = run_column_labels(f);
  FailureCounts fails = count_failures(f, known);
  std::vector<const CaseRow*> notable;
  std::size_t ndiffer = 0;
  for (auto& c : f.cases) ndiffer += differs(c);
  for (auto& c : f.cases)  // the cases that differ between devices first: what a node check looks for
    if (differs(c)) notable.push_back(&c);
  for (auto& c : f.cases)
    if (!differs(c) && fails_somewhere(c)) notable.push_back(&c);

  std::vector<NavItem> nav = {{"summary", "Summary", ""},
                              {"devices", "Devices", std::to_string(f.runs.size())},
                              {"matrix", "Matrix", ""},
                              {"differences", "Differences", std::to_string(ndiffer)},
                              {"failures", "Failures", fails.fresh ? std::to_string(fails.fresh) + " new / " + std::to_string(fails.total)
                                                                   : std::to_string(fails.total)},
                              {"measurements", "Measurements", ""},
                              {"cases", "Cases", std::to_string(f.cases.size())}};
  std::ostringstream o;
  o << page_start("cuconform fleet report — " + std::to_string(f.runs.size()) + " runs",
                  std::to_string(f.cases.size()) + " cases · " + display_path(source), nav);

  std::vector<std::string> trouble;
  for (std::size_t i = 0; i < f.runs.size(); ++i)
    for (auto& t : run_trouble(f, i)) trouble.push_back("D" + std::to_string(i + 1) + " " + f.runs[i].label + ": " + t);
  o << "<section id=\"summary\"><h2>Summary</h2><div class=\"headline " << (fails.fresh || !trouble.empty() ? "bad" : "ok") << "\">";
  for (auto& t : trouble) o << "Not judged: " << esc(t) << ". ";
  o << f.runs.size()
    << " runs, " << f.cases.size() << " cases: " << ndiffer << " case(s) with different verdicts on different devices; " << fails.total
    << " case(s) fail on at least one device";
  if (known) o << " (" << fails.fresh << " new, " << fails.known + fails.flakes << " known)";
  o << ".</div><p>failing cases per device:";
  for (std::size_t i = 0; i < f.runs.size(); ++i) {
    int n = failures_in(f, i);
    o << (i ? " · " : " ") << "<a href=\"" << cases_href("device=" + std::to_string(i + 1) + "&verdict=fail,timeout,crash") << "\">D" << i + 1
      << " " << n << "</a>";
  }
  o << "</p></section>";

  o << "<section id=\"devices\"><h2>Devices</h2>" << devices_table(f) << "</section>";

  // Area x device: "passed/ran", red when anything failed there; each cell opens the case list.
  o << "<section id=\"matrix\"><h2>Conformance matrix (area × device)</h2><p class=\"note\">passed / ran; failures in red; cases "
       "that did not run are not counted. A cell opens the case list with that area on that device (its failures, where there "
       "are some).</p><div class=\"tw\"><table class=\"mx\"><tr><th>area</th>";
  column_heads(o, f, shorts);
  o << "</tr>";
  for (auto& area : areas_of(f)) {
    o << "<tr><th><a href=\"" << cases_href("area=" + query_value(area)) << "\">" << esc(area) << "</a></th>";
    for (std::size_t i = 0; i < f.runs.size(); ++i) {
      int pass = 0, fail = 0;
      for (auto& c : f.cases)
        if (c.area == area && c.by_run[i]) pass += c.by_run[i]->verdict == Verdict::pass, fail += is_failure(c.by_run[i]->verdict);
      std::string bg = fail ? tint(verdict_color("fail"), 0.35) : pass ? tint(verdict_color("pass"), 0.3) : "#f0f0f0";
      std::string q = "area=" + query_value(area) + "&device=" + std::to_string(i + 1) + (fail ? "&verdict=fail,timeout,crash" : "");
      o << "<td class=\"c\" style=\"background:" << bg << "\" title=\"" << esc(f.runs[i].label) << "\"><a href=\"" << cases_href(q) << "\">"
        << (pass + fail ? std::to_string(pass) + "/" + std::to_string(pass + fail) : "–") << (fail ? "<br>" + std::to_string(fail) + " fail" : "")
        << "</a></td>";
    }
    o << "</tr>";
  }
  o << "</table></div></section>";

  // Case x device: the cases that differ between devices, then those failing everywhere.
  o << "<section id=\"differences\"><h2>Cases that differ between devices or fail (" << notable.size() << ")</h2><p class=\"note\">"
       "P pass · F fail · T timeout · C crash · FL flake · NS not-supported · PL planned · R recorded · · absent · * known failure "
       "or flake. Hover a cell for the reason.";
  if (notable.size() > kMaxNotable)
    o << " The first " << kMaxNotable << " are shown: <a href=\"" << cases_href("differ=1") << "\">all that differ</a>, <a href=\""
      << cases_href("verdict=fail,timeout,crash") << "\">all that fail</a>.";
  o << "</p>";
  if (notable.empty()) {
    o << "<p class=\"ok\">Every case has the same verdict on every device, and none fails.</p>";
  } else {
    o << "<div class=\"tw\"><table class=\"mx\"><tr><th>case</th>";
    column_heads(o, f, shorts);
    o << "</tr>";
    for (std::size_t n = 0; n < notable.size() && n < kMaxNotable; ++n) {
      const CaseRow& c = *notable[n];
      o << "<tr><td><code>" << name_html(c.name) << "</code>" << (fails_somewhere(c) ? " <a href=\"#f-" + esc(c.name) + "\">details</a>" : "")
        << "</td>";
      for (std::size_t i = 0; i < f.runs.size(); ++i) {
        if (!c.by_run[i]) {
          o << "<td class=\"c\" title=\"absent\">·</td>";
          continue;
        }
        const Outcome& r = *c.by_run[i];
        // The known list's reason is on the case's card, not in every cell.
        std::string v = to_string(r.verdict);
        bool k = (is_failure(r.verdict) || r.verdict == Verdict::flake) && !known_label(known, c, f.runs[i]).empty();
        o << "<td class=\"c\" style=\"background:" << tint(verdict_color(v), v == "pass" ? 0.35 : 0.55) << "\" title=\""
          << esc("D" + std::to_string(i + 1) + ": " + v + (r.reason.empty() ? "" : " — " + r.reason) + (k ? " (known)" : "")) << "\">"
          << verdict_abbrev(v) << (k ? "*" : "") << "</td>";
      }
      o << "</tr>";
    }
    o << "</table></div>";
  }
  o << "</section>";

  o << failures_section(f, known) << fleet_measurements_section(f) << case_list_section(f, known) << extra << page_end(footer);
  return o.str();
}

}  // namespace cuconform::html
