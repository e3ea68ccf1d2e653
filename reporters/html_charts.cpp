#include "reporters/html_charts.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include "harness/util/number_text.hpp"
#include "reporters/html_page.hpp"
#include "reporters/report_common.hpp"
#include "reporters/svg.hpp"

namespace cuconform::html {

namespace {

std::string strip_prefix(const std::string& name, const std::string& rule) {
  if (!rule.empty() && name.rfind(rule + ".", 0) == 0) return name.substr(rule.size() + 1);
  return name;
}

// Charts of one run's measurements in one area: per rule and kind, one chart whose rows are the
// rule's cases and whose series are the measurements of that kind (reload/L1/L2 cycles side by
// side); litmus histograms (outcome_*) one chart per case. A single number stays in the table.
std::vector<std::string> run_charts(const Fleet& f, std::size_t run, const std::string& area) {
  std::vector<std::string> out;
  std::vector<std::string> rules;
  std::map<std::string, std::vector<const CaseRow*>> by_rule;
  for (auto& c : f.cases) {
    if (c.area != area || !c.by_run[run] || c.by_run[run]->measurements.empty()) continue;
    if (!by_rule.count(c.rule)) rules.push_back(c.rule);
    by_rule[c.rule].push_back(&c);
  }
  for (auto& rule : rules) {
    for (MeasureKind k : {MeasureKind::cycles, MeasureKind::ratio, MeasureKind::throughput}) {
      std::vector<std::string> series;
      for (auto* c : by_rule[rule])
        for (auto& [m, v] : c->by_run[run]->measurements)
          if (measure_kind(m) == k && std::find(series.begin(), series.end(), m) == series.end()) series.push_back(m);
      if (series.empty()) continue;
      std::vector<BarGroup> groups;
      for (auto* c : by_rule[rule]) {
        const Outcome& r = *c->by_run[run];
        BarGroup g{strip_prefix(c->name, rule), c->name + " [" + to_string(r.verdict) + "]", {}, verdict_color(to_string(r.verdict))};
        bool any = false;
        for (auto& s : series) {
          double v = std::nan("");
          for (auto& [m, x] : r.measurements)
            if (m == s) v = x;
          any |= std::isfinite(v);
          g.values.push_back(v);
        }
        if (any) groups.push_back(g);
      }
      if (groups.size() * series.size() < 2) continue;  // one number: the table says it better
      if (groups.size() > 60) groups.resize(60);
      ChartSpec spec;
      spec.title = rule + " — " + measure_kind_title(k);
      spec.series = series;
      if (k == MeasureKind::ratio) spec.reference = 1.0;
      if (series.size() == 1) spec.title += ": " + series[0];
      out.push_back(svg_bar_chart(spec, groups));
    }
    for (auto* c : by_rule[rule]) {
      const Outcome& r = *c->by_run[run];
      std::vector<BarGroup> groups;
      for (auto& [m, v] : r.measurements)
        if (measure_kind(m) == MeasureKind::outcome)
          groups.push_back({m.substr(8), c->name + " " + m, {v}, r.verdict == Verdict::pass ? "#4e79a7" : verdict_color(to_string(r.verdict))});
      if (groups.empty()) continue;
      ChartSpec spec;
      spec.title = "litmus " + c->name + " [" + to_string(r.verdict) + "]";
      spec.unit = "observations";
      spec.width = 420;
      out.push_back(svg_bar_chart(spec, groups));
    }
  }
  return out;
}

// One measurement of one case across the runs that have it.
struct Spread {
  const CaseRow* c = nullptr;
  std::string name;
  std::vector<double> values;  // per run, NaN where absent
  double lo = 0, hi = 0, median = 0, rel = 0;
  std::size_t at_lo = 0, at_hi = 0;
};

std::vector<Spread> spreads(const Fleet& f) {
  std::vector<Spread> out;
  for (auto& c : f.cases) {
    std::vector<std::string> names;
    for (auto& r : c.by_run)
      if (r)
        for (auto& [m, v] : r->measurements)
          if (measure_kind(m) != MeasureKind::outcome && std::find(names.begin(), names.end(), m) == names.end()) names.push_back(m);
    for (auto& m : names) {
      Spread s{&c, m, {}};
      std::vector<double> finite;
      for (auto& r : c.by_run) {
        double v = std::nan("");
        if (r)
          for (auto& [mm, x] : r->measurements)
            if (mm == m) v = x;
        s.values.push_back(v);
        if (std::isfinite(v)) finite.push_back(v);
      }
      if (finite.size() < 2) continue;
      std::sort(finite.begin(), finite.end());
      std::size_t n = finite.size();
      s.median = n % 2 ? finite[n / 2] : (finite[n / 2 - 1] + finite[n / 2]) / 2;
      s.lo = finite.front(), s.hi = finite.back();
      for (std::size_t i = 0; i < s.values.size(); ++i) {
        if (s.values[i] == s.lo && !s.at_lo) s.at_lo = i + 1;
        if (s.values[i] == s.hi && !s.at_hi) s.at_hi = i + 1;
      }
      if (s.hi == s.lo) continue;
      s.rel = s.median != 0 ? (s.hi - s.lo) / std::fabs(s.median) : INFINITY;
      out.push_back(std::move(s));
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const Spread& a, const Spread& b) { return a.rel > b.rel; });
  return out;
}

std::string percent(double rel) {
  if (!std::isfinite(rel)) return "—";
  return short_number(rel * 100) + "%";
}

}  // namespace

std::string run_measurements_section(const Fleet& f, int* drawn) {
  std::ostringstream o;
  o << "<section id=\"measurements\"><h2>Measurements</h2>";
  int charts = 0, measured = 0;
  for (auto& c : f.cases) measured += c.by_run[0] && !c.by_run[0]->measurements.empty();
  std::ostringstream areas;
  for (auto& area : areas_of(f)) {
    auto svgs = run_charts(f, 0, area);
    if (svgs.empty()) continue;
    areas << "<details class=\"grp\" id=\"charts-" << esc(area) << "\"><summary>" << esc(area) << " <span class=\"cnt\">(" << svgs.size()
          << " chart" << (svgs.size() > 1 ? "s" : "") << ")</span></summary><div class=\"charts\">";
    for (auto& s : svgs) areas << s;
    areas << "</div></details>";
    charts += static_cast<int>(svgs.size());
  }
  if (charts)
    o << "<p class=\"note\">" << charts << " chart(s) of " << measured << " measured case(s), one group per area. Every case's numbers: its row in "
      << "<a href=\"#cases\">the case list</a>.</p>" << areas.str();
  else
    o << "<p class=\"note\">No measurement to plot (" << measured << " case(s) recorded measurements).</p>";
  o << "</section>";
  if (drawn) *drawn = charts;
  return o.str();
}

std::string fleet_measurements_section(const Fleet& f) {
  std::ostringstream o;
  o << "<section id=\"measurements\"><h2>Measurements across devices</h2>";
  auto s = spreads(f);
  auto cols = run_column_labels(f);
  if (s.empty()) {
    o << "<p class=\"note\">No measurement was recorded by two or more devices with different values.</p></section>";
    return o.str();
  }
  const std::size_t rows = std::min<std::size_t>(s.size(), 40), plotted = std::min<std::size_t>(s.size(), 12);
  o << "<p class=\"note\">" << s.size() << " measurement(s) differ between devices (litmus outcome counts left out); the "
    << rows << " that differ most, relative to their median:</p><div class=\"tw\"><table><tr><th>case</th><th>measurement</th>"
    << "<th>median</th><th>lowest</th><th>highest</th><th>spread</th></tr>";
  for (std::size_t i = 0; i < rows; ++i) {
    const Spread& x = s[i];
    o << "<tr><td><code>" << name_html(x.c->name) << "</code></td><td><code>" << esc(x.name) << "</code></td><td class=\"n\">"
      << short_number(x.median) << "</td><td class=\"n\">" << short_number(x.lo) << " (D" << x.at_lo << ")</td><td class=\"n\">"
      << short_number(x.hi) << " (D" << x.at_hi << ")</td><td class=\"n\">" << percent(x.rel) << "</td></tr>";
  }
  o << "</table></div><div class=\"charts\">";
  for (std::size_t i = 0; i < plotted; ++i) {
    const Spread& x = s[i];
    std::vector<BarGroup> groups;
    for (std::size_t r = 0; r < x.values.size(); ++r) {
      const auto& out = x.c->by_run[r];
      std::string v = out ? to_string(out->verdict) : "";
      groups.push_back({"D" + std::to_string(r + 1) + " " + cols[r], f.runs[r].label + (v.empty() ? "" : " [" + v + "]"), {x.values[r]},
                        v == "pass" || v.empty() ? "#4e79a7" : verdict_color(v)});
    }
    ChartSpec spec;
    spec.title = x.c->name + " · " + x.name;
    spec.width = 460;
    if (measure_kind(x.name) == MeasureKind::ratio) spec.reference = 1.0;
    o << svg_bar_chart(spec, groups);
  }
  o << "</div></section>";
  return o.str();
}

}  // namespace cuconform::html
