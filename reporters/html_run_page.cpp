// The page of a single run: summary, the area x verdict matrix (each count links to the case
// list filtered to it), environment, failures (new first, known ones collapsed by class),
// flaky and recorded cases, measurement charts, why cases did not run, the case list.
#include <algorithm>
#include <map>
#include <sstream>

#include "reporters/html_case_list.hpp"
#include "reporters/html_charts.hpp"
#include "reporters/html_environment.hpp"
#include "reporters/html_failures.hpp"
#include "reporters/html_page.hpp"
#include "reporters/html_pages.hpp"
#include "reporters/report_common.hpp"
#include "reporters/svg.hpp"
#include "reporters/throughput_table.hpp"

namespace cuconform::html {

namespace {

std::string filter(const std::string& area, const std::string& verdict) {
  std::string q;
  if (!area.empty()) q = "area=" + query_value(area);
  if (!verdict.empty()) q += (q.empty() ? "" : "&") + std::string("verdict=") + verdict;
  return cases_href(q);
}

void matrix(std::ostringstream& o, const Fleet& f) {
  o << "<section id=\"matrix\"><h2>Conformance matrix (area × verdict)</h2><p class=\"note\">Each count opens the case list "
       "with those cases.</p><div class=\"tw\"><table class=\"mx\"><tr><th>area</th>";
  for (Verdict v : all_verdicts()) o << "<th>" << badge(to_string(v)) << "</th>";
  o << "<th>total</th></tr>";
  std::map<std::string, int> all;
  auto line = [&](const std::string& area, std::map<std::string, int>& n, int total) {
    o << "<tr><th><a href=\"" << filter(area, "") << "\">" << esc(area.empty() ? "all areas" : area) << "</a></th>";
    for (Verdict v : all_verdicts()) {
      int k = n[to_string(v)];
      double a = total && k ? 0.15 + 0.6 * k / total : 0;
      o << "<td class=\"n\" style=\"background:" << tint(verdict_color(to_string(v)), a) << "\">";
      if (k) o << "<a href=\"" << filter(area, to_string(v)) << "\">" << k << "</a>";
      o << "</td>";
    }
    o << "<td class=\"n\"><a href=\"" << filter(area, "") << "\">" << total << "</a></td></tr>";
  };
  int everything = 0;
  for (auto& area : areas_of(f)) {
    std::map<std::string, int> n;
    int total = 0;
    for (auto& c : f.cases)
      if (c.area == area && c.by_run[0]) ++n[to_string(c.by_run[0]->verdict)], ++all[to_string(c.by_run[0]->verdict)], ++total;
    everything += total;
    line(area, n, total);
  }
  line("", all, everything);
  o << "</table></div></section>";
}

}  // namespace

std::string run_page(const Fleet& f, const KnownList* known, const std::string& source, const std::string& extra,
                     const std::string& footer) {
  const RunInfo& run = f.runs[0];
  auto counts = f.counts(0);
  FailureCounts fails = count_failures(f, known);
  const int ran = counts["pass"] + counts["flake"] + fails.total;
  std::map<std::string, int> why;  // "verdict\x1freason" -> cases that did not run for it
  for (auto& c : f.cases)
    if (c.by_run[0] && (c.by_run[0]->verdict == Verdict::not_supported || c.by_run[0]->verdict == Verdict::planned))
      ++why[std::string(to_string(c.by_run[0]->verdict)) + "\x1f" + c.by_run[0]->reason];

  std::vector<NavItem> nav = {{"summary", "Summary", ""}, {"matrix", "Matrix", ""}, {"environment", "Environment", ""}};
  nav.push_back({"failures", "Failures", fails.fresh ? std::to_string(fails.fresh) + " new / " + std::to_string(fails.total)
                                                     : std::to_string(fails.total)});
  if (counts["flake"]) nav.push_back({"flakes", "Flaky", std::to_string(counts["flake"])});
  if (counts["recorded"]) nav.push_back({"recorded", "Recorded", std::to_string(counts["recorded"])});
  const std::vector<ThroughputRow> throughput = throughput_rows(f, 0);
  if (!throughput.empty()) nav.push_back({"throughput", "Throughput", std::to_string(throughput.size())});
  nav.push_back({"measurements", "Measurements", ""});
  if (!why.empty()) nav.push_back({"not-run", "Not run", std::to_string(counts["not-supported"] + counts["planned"])});
  nav.push_back({"cases", "Cases", std::to_string(f.cases.size())});

  std::ostringstream o;
  o << page_start("cuconform conformance report — " + (run.available() ? run.dev("name") : std::string("no GPU")),
                  run.device_line() + " · " + run.get(run.run, "host") + " · " + run.get(run.run, "started") + " · " +
                      display_path(source),
                  nav);

  const std::vector<std::string> trouble = run_trouble(f, 0);
  o << "<section id=\"summary\"><h2>Summary</h2><div class=\"headline " << (fails.fresh || !run.available() || !trouble.empty() ? "bad" : "ok")
    << "\">";
  if (!run.available()) o << "No GPU was available: GPU cases are not-supported; this run proves nothing about a device. ";
  for (auto& t : trouble) o << "Not judged: " << esc(t) << ". ";
  o << f.cases.size() << " cases: " << counts["pass"] << " passed, " << fails.total << " failed";
  if (known) o << " (" << fails.fresh << " new, " << fails.known + fails.flakes << " known)";
  if (counts["flake"]) o << ", " << counts["flake"] << " flaky (passed only on a re-run)";
  if (counts["recorded"]) o << ", " << counts["recorded"] << " recorded (undefined behaviour, not judged)";
  o << ", " << counts["not-supported"] + counts["planned"] << " not run (not-supported or planned); " << ran << " ran.</div>";
  if (fails.total)
    o << "<p>" << (fails.fresh ? "<a href=\"#new-failures\">" + std::to_string(fails.fresh) + " new failure(s)</a>"
                   : trouble.empty() ? "No new failure" : "No new failure among the cases that ran")
      << (known && fails.known + fails.flakes ? " · <a href=\"#known-findings\">" + std::to_string(fails.known + fails.flakes) + " known</a>" : "")
      << " · <a href=\"" << cases_href("verdict=fail,timeout,crash") << "\">every failure in the case list</a></p>";
  o << svg_stacked(verdict_parts(counts), 900) << "</section>";

  matrix(o, f);
  o << "<section id=\"environment\"><h2>Environment</h2>" << environment_tables(run) << "</section>";
  o << failures_section(f, known);

  if (counts["flake"]) {
    o << "<section id=\"flakes\"><h2>Flaky cases (" << counts["flake"] << ")</h2><p class=\"note\">Failed, then passed when "
         "re-run (<code>cuconform run --rerun N</code>): neither a pass nor a failure.</p><div class=\"tw\"><table><tr><th>case</th>"
         "<th>reason</th><th>known</th></tr>";
    for (auto& c : f.cases)
      if (c.by_run[0] && c.by_run[0]->verdict == Verdict::flake)
        o << "<tr><td><code>" << name_html(c.name) << "</code></td><td>" << esc(c.by_run[0]->reason) << "</td><td>"
          << esc(known_label(known, c, run)) << "</td></tr>";
    o << "</table></div></section>";
  }

  if (counts["recorded"]) {
    o << "<section id=\"recorded\"><h2>Recorded behaviour (" << counts["recorded"] << ")</h2><p class=\"note\">Documented "
         "undefined behaviour (or outcomes the documents allow without promising them): each case ran in its own process, "
         "and what the GPU did is recorded, neither passed nor failed. <code>cuconform compare</code> reports when it "
         "changes.</p><div class=\"tw\"><table><tr><th>case</th><th>outcome</th><th>details</th></tr>";
    for (auto& c : f.cases)
      if (c.by_run[0] && c.by_run[0]->verdict == Verdict::recorded)
        o << "<tr><td><code>" << name_html(c.name) << "</code></td><td>" << esc(c.by_run[0]->fact("outcome")) << "</td><td>"
          << esc(c.by_run[0]->observed) << "</td></tr>";
    o << "</table></div></section>";
  }

  o << throughput_html(throughput) << run_measurements_section(f);

  if (!why.empty()) {  // grouped by reason, most frequent first
    std::vector<std::pair<int, std::string>> sorted;
    for (auto& [k, n] : why) sorted.emplace_back(-n, k);
    std::sort(sorted.begin(), sorted.end());
    o << "<section id=\"not-run\"><h2>Cases that did not run</h2><div class=\"tw\"><table><tr><th>verdict</th><th>reason</th>"
         "<th>cases</th></tr>";
    for (auto& [n, k] : sorted) {
      auto sep = k.find('\x1f');
      o << "<tr><td>" << badge(k.substr(0, sep)) << "</td><td>" << esc(k.substr(sep + 1)) << "</td><td class=\"n\">" << -n << "</td></tr>";
    }
    o << "</table></div></section>";
  }

  o << case_list_section(f, known) << extra << page_end(footer);
  return o.str();
}

}  // namespace cuconform::html
