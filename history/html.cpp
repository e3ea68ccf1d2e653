#include "history/html.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

#include "harness/util/number_text.hpp"
#include "history/schema.hpp"
#include "reporters/html_report.hpp"  // html_page_start
#include "reporters/junit_xml.hpp"    // xml_escape
#include "reporters/report_common.hpp"
#include "reporters/run_report.hpp"   // utc_now_iso8601
#include "reporters/svg.hpp"          // verdict_color, short_number

namespace cuconform {

namespace {

const char* kCss = R"(
.tl{border-collapse:collapse;font-size:11px}
.tl td.g{width:13px;min-width:13px;height:15px;padding:0;border:1px solid #fff;text-align:center}
.tl td.g a{display:block;color:#111;text-decoration:none;font-weight:700;line-height:15px}
.tl td.chg{box-shadow:inset 0 0 0 2px #111}
.tl th.rn{font-size:9px;font-weight:400;padding:0 1px;text-align:center;background:#fff;border:none}
.tl th.drvh{font-size:10px;font-weight:600;background:#fff3e0;border:1px solid #f0c48a;text-align:left;white-space:nowrap}
.tl .drv{border-left:3px solid #e08a00!important}
.tl th.rl{font:11px ui-monospace,Menlo,Consolas,monospace;font-weight:400;text-align:right;white-space:nowrap;background:#fff;border:none;padding:0 6px}
.tl th.rl a{color:#1f2328}
.trends{display:flex;flex-wrap:wrap;gap:10px 16px}
.trends svg{background:#fbfbfc;border:1px solid #e1e4e8;border-radius:4px}
.legend span{display:inline-block;margin-right:12px;font-size:12px}
.legend i{display:inline-block;width:11px;height:11px;margin-right:4px;vertical-align:-1px}
.chg-run{border-left:4px solid #e08a00;padding:4px 12px;margin:8px 0;background:#fffaf2}
.flag{color:#c62828;font-weight:600}
)";

std::string esc(const std::string& s) { return xml_escape(s); }
std::string badge(const std::string& v) { return "<span class=\"badge v-" + esc(v) + "\">" + esc(v) + "</span>"; }

std::string fmt(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f", v);
  return b;
}

// The order in which a rule's cases colour its cell: the worst one shows.
int severity(const std::string& v) {
  if (v == "fail" || v == "crash" || v == "timeout") return 7;
  if (v == "flake") return 6;
  if (v == "pass") return 5;
  if (v == "recorded") return 4;
  if (v == "not-supported") return 3;
  return 2;  // planned
}

// Long case names keep their tail: the parameters that tell them apart.
std::string clip(const std::string& s, std::size_t n) { return s.size() <= n ? s : "…" + s.substr(s.size() - (n - 1)); }

// A small line chart of one measurement over runs: the band median ± z·σ, the median, the
// points (a run where the case did not pass in its verdict's colour) and, when it drifts, the
// Theil-Sen line in red.
std::string svg_trend(const Trend& t, const DriftPolicy& p) {
  const double w = 330, h = 132, l = 48, r = 8, top = 34, bottom = 18, pw = w - l - r, ph = h - top - bottom;
  double lo = INFINITY, hi = -INFINITY;
  for (auto& pt : t.points) lo = std::min(lo, pt.value), hi = std::max(hi, pt.value);
  double band_lo = t.stats.median - p.tolerance(t.stats.median, t.stats.sigma), band_hi = t.stats.median + p.tolerance(t.stats.median, t.stats.sigma);
  if (t.stats.n > 0) lo = std::min(lo, band_lo), hi = std::max(hi, band_hi);
  if (!(hi > lo)) lo -= 1, hi += 1;
  const double pad = (hi - lo) * 0.06;
  lo -= pad, hi += pad;
  const std::size_t n = t.points.size();
  auto x_of = [&](std::size_t i) { return l + (n > 1 ? pw * static_cast<double>(i) / static_cast<double>(n - 1) : pw / 2); };
  auto y_of = [&](double v) { return top + ph - (v - lo) / (hi - lo) * ph; };
  std::ostringstream s;
  bool flagged = t.flagged();
  s << "<svg width=\"" << w << "\" height=\"" << h << "\" viewBox=\"0 0 " << w << " " << h << "\" role=\"img\" aria-label=\"" << esc(t.measurement)
    << "\"><title>" << esc(t.config + " · " + t.case_name + " · " + t.measurement + ": " + t.stats.describe()) << "</title>";
  s << "<text x=\"6\" y=\"13\" class=\"ct\">" << esc(clip(t.case_name, 44)) << "</text>";
  std::string sub = t.measurement + "  " + (t.stats.drift ? "DRIFT " + percent(t.stats.drift_rel) + " (" + percent(t.stats.slope_rel) + "/run)"
                                                           : t.last_off ? "newest off (z=" + sig(t.last_z, 2) + ")" : percent(t.stats.slope_rel) + "/run");
  s << "<text x=\"6\" y=\"27\" class=\"cl\"" << (flagged ? " fill=\"#c62828\" font-weight=\"600\"" : "") << ">" << esc(sub) << "</text>";
  if (t.stats.n > 0) {
    double y1 = y_of(band_hi), y2 = y_of(band_lo);
    s << "<rect x=\"" << l << "\" y=\"" << fmt(y1) << "\" width=\"" << pw << "\" height=\"" << fmt(std::max(0.5, y2 - y1))
      << "\" fill=\"#4e79a7\" fill-opacity=\"0.10\"><title>" << esc(p.tolerance_rule()) << "</title></rect>";
    s << "<line x1=\"" << l << "\" x2=\"" << l + pw << "\" y1=\"" << fmt(y_of(t.stats.median)) << "\" y2=\"" << fmt(y_of(t.stats.median))
      << "\" stroke=\"#4e79a7\" stroke-dasharray=\"3 3\"/>";
  }
  s << "<line x1=\"" << l << "\" x2=\"" << l << "\" y1=\"" << top << "\" y2=\"" << top + ph << "\" stroke=\"#999\"/>";
  s << "<text x=\"" << l - 4 << "\" y=\"" << fmt(top + 8) << "\" class=\"cv\" text-anchor=\"end\">" << short_number(hi - pad) << "</text>";
  s << "<text x=\"" << l - 4 << "\" y=\"" << fmt(top + ph) << "\" class=\"cv\" text-anchor=\"end\">" << short_number(lo + pad) << "</text>";
  // Driver changes inside the window: a vertical line.
  for (std::size_t i = 1; i < n; ++i)
    if (t.points[i].run->driver != t.points[i - 1].run->driver)
      s << "<line x1=\"" << fmt(x_of(i) - 0.5) << "\" x2=\"" << fmt(x_of(i) - 0.5) << "\" y1=\"" << top << "\" y2=\"" << top + ph
        << "\" stroke=\"#e08a00\"/>";
  if (t.stats.drift && n > 1) {
    // The Theil-Sen line through the median point of the passing values.
    double mid = static_cast<double>(n - 1) / 2;
    double a = t.stats.median - t.stats.slope * mid, b = t.stats.median + t.stats.slope * mid;
    s << "<line x1=\"" << fmt(x_of(0)) << "\" y1=\"" << fmt(y_of(a)) << "\" x2=\"" << fmt(x_of(n - 1)) << "\" y2=\"" << fmt(y_of(b))
      << "\" stroke=\"#c62828\" stroke-width=\"1.5\" stroke-dasharray=\"5 3\"/>";
  }
  std::string path;
  for (std::size_t i = 0; i < n; ++i) {
    if (i) path += ' ';
    path += fmt(x_of(i)) + "," + fmt(y_of(t.points[i].value));
  }
  s << "<polyline points=\"" << path << "\" fill=\"none\" stroke=\"#1f2328\" stroke-width=\"1.2\"/>";
  for (std::size_t i = 0; i < n; ++i) {
    const TrendPoint& pt = t.points[i];
    s << "<circle cx=\"" << fmt(x_of(i)) << "\" cy=\"" << fmt(y_of(pt.value)) << "\" r=\"2.6\" fill=\""
      << (pt.verdict == "pass" ? "#1f2328" : verdict_color(pt.verdict)) << "\"><title>#" << pt.run->id << " " << esc(pt.run->started) << " driver "
      << esc(pt.run->driver) << ": " << number_text(pt.value) << " (" << esc(pt.verdict) << ")</title></circle>";
  }
  if (n) {
    s << "<text x=\"" << l << "\" y=\"" << h - 4 << "\" class=\"cv\">#" << t.points.front().run->id << "</text>";
    s << "<text x=\"" << l + pw << "\" y=\"" << h - 4 << "\" class=\"cv\" text-anchor=\"end\">#" << t.points.back().run->id << "</text>";
  }
  s << "</svg>";
  return s.str();
}

struct Cell {
  std::string worst;
  std::map<std::string, int> counts;
};

// One series' timeline: rows are rules, columns the last runs; `rules` picks the rows.
void timeline(std::ostringstream& o, const std::vector<const StoredRun*>& window, const std::vector<std::string>& rules,
              const std::map<std::string, std::map<std::int64_t, Cell>>& cells,
              const std::map<std::pair<std::string, std::int64_t>, std::vector<std::string>>& changed) {
  o << "<table class=\"tl\"><tr><th class=\"rn\"></th>";
  // A header row of drivers, one span per run of runs on the same driver.
  for (std::size_t i = 0; i < window.size();) {
    std::size_t j = i;
    while (j < window.size() && window[j]->driver == window[i]->driver) ++j;
    o << "<th class=\"drvh" << (i ? " drv" : "") << "\" colspan=\"" << j - i << "\" title=\"driver " << esc(window[i]->driver) << "\">"
      << (j - i >= 4 ? "driver " : "") << esc(j - i >= 2 ? window[i]->driver : "") << "</th>";
    i = j;
  }
  o << "</tr><tr><th class=\"rn\">rule \\ run</th>";
  for (std::size_t i = 0; i < window.size(); ++i) {
    const StoredRun* r = window[i];
    bool drv = i && r->driver != window[i - 1]->driver;
    o << "<th class=\"rn" << (drv ? " drv" : "") << "\" title=\"" << esc(r->tag() + " " + r->started + " · driver " + r->driver +
                                                                          " · commit " + r->commit + " · " + r->host)
      << "\"><a href=\"#run-" << r->id << "\">" << r->seq << "</a></th>";
  }
  o << "</tr>";
  for (auto& rule : rules) {
    auto rc = cells.find(rule);
    std::string first_change;
    for (auto* r : window)
      if (first_change.empty() && changed.count({rule, r->id})) first_change = "#chg-" + std::to_string(r->id);
    o << "<tr><th class=\"rl\" id=\"rule-" << esc(rule) << "\">"
      << (first_change.empty() ? esc(clip(rule, 60)) : "<a href=\"" + first_change + "\">" + esc(clip(rule, 60)) + "</a>") << "</th>";
    for (std::size_t i = 0; i < window.size(); ++i) {
      const StoredRun* r = window[i];
      bool drv = i && r->driver != window[i - 1]->driver;
      const Cell* c = nullptr;
      if (rc != cells.end()) {
        auto it = rc->second.find(r->id);
        if (it != rc->second.end()) c = &it->second;
      }
      auto ch = changed.find({rule, r->id});
      std::string title = r->tag() + " " + r->started + " · " + rule + ": ";
      if (c)
        for (auto& [v, k] : c->counts) title += std::to_string(k) + " " + v + " ";
      else title += "absent";
      if (ch != changed.end()) {
        title += "· changed: ";
        for (auto& n : ch->second) title += n + " ";
      }
      o << "<td class=\"g" << (drv ? " drv" : "") << (ch != changed.end() ? " chg" : "") << "\" style=\"background:"
        << (c ? verdict_color(c->worst) : "#f3f3f3") << "\" title=\"" << esc(title) << "\">";
      if (ch != changed.end()) o << "<a href=\"#chg-" << r->id << "\">!</a>";
      o << "</td>";
    }
    o << "</tr>";
  }
  o << "</table>";
}

}  // namespace

// The most series a page draws; a series not drawn is a row of about 250 bytes.
constexpr std::size_t kDrawnSeries = 12;

std::string history_html_sections(Db& db, const QueryOptions& q) {
  DbTransaction tx(db, false);
  HistoryIndex idx = load_index(db);
  auto changes = query_changes(db, idx, q);
  auto flaky = query_flaky(db, idx, q);
  auto trends = query_trends(db, idx, q, "", "", true);
  std::map<std::string, std::string> rule_of;
  db_each(db, "SELECT name, rule FROM cases", {}, [&](const DbQuery& q) { rule_of[q.text(0)] = q.text(1); });
  std::set<std::string> flaky_rules;
  for (auto& c : flaky)
    for (auto& fc : c.cases) flaky_rules.insert(rule_of[fc.name]);

  std::ostringstream o;
  o << "<style>" << kCss << "</style>";
  o << "<section id=\"history\"><h2>History</h2><p>" << esc(idx.db_name) << " (" << esc(idx.backend) << ", schema " << idx.schema_version << "): "
    << idx.runs.size() << " run(s), " << idx.by_config.size() << " configuration(s), " << idx.by_series.size() << " series. Each series is one GPU "
    << "(its model and UUID) on one code path and one selection of cases; a configuration is a series on one driver.</p>";
  int nchanges = 0, nflaky = 0;
  std::set<std::string> flaky_names;
  for (auto& sc : changes)
    for (auto& e : sc.events) nchanges += static_cast<int>(e.cases.size());
  for (auto& c : flaky)
    for (auto& fc : c.cases) ++nflaky, flaky_names.insert(fc.name);
  o << "<div class=\"headline " << (nchanges || nflaky || !trends.empty() ? "bad" : "ok") << "\">" << nchanges << " change(s) · "
    << flaky_names.size() << " flaky case(s) · " << trends.size() << " measurement series drifting or off</div>";
  o << "<div class=\"legend\">";
  for (const char* v : {"pass", "fail", "flake", "recorded", "not-supported", "planned", "timeout", "crash"})
    o << "<span><i style=\"background:" << verdict_color(v) << "\"></i>" << v << "</span>";
  o << "<span><i style=\"box-shadow:inset 0 0 0 2px #111;background:#fff\"></i>changed here (links to the change)</span>"
    << "<span><i style=\"border-left:3px solid #e08a00;background:#fff\"></i>driver changed</span></div>";

  // A fleet's history has thousands of series: at most kDrawnSeries are drawn (timelines, changes,
  // flaky cases, runs), those with the most changes and flaky cases first; every series is a row
  // of the table below, and `history report --config GLOB` draws any of them on a page of its own.
  std::map<std::int64_t, int> changes_of, flaky_of;
  for (auto& sc : changes)
    for (auto& e : sc.events) changes_of[sc.series_id] += static_cast<int>(e.cases.size());
  for (auto& c : flaky) flaky_of[idx.by_config.at(c.config_id).front()->series_id] += static_cast<int>(c.cases.size());
  std::vector<const SeriesChanges*> order;
  for (auto& sc : changes) order.push_back(&sc);
  std::stable_sort(order.begin(), order.end(), [&](auto* a, auto* b) {
    return changes_of[a->series_id] + flaky_of[a->series_id] > changes_of[b->series_id] + flaky_of[b->series_id];
  });
  std::set<std::int64_t> drawn;
  for (std::size_t i = 0; i < order.size() && i < kDrawnSeries; ++i) drawn.insert(order[i]->series_id);
  auto drawn_config = [&](std::int64_t config) { return drawn.count(idx.by_config.at(config).front()->series_id) > 0; };
  if (order.size() > kDrawnSeries) {
    o << "<h3 id=\"series\">" << order.size() << " series: the " << kDrawnSeries << " with the most changes and flaky cases drawn below</h3>"
      << "<p class=\"note\">Any other: <code>cuconform history report --config 'GLOB' --html FILE</code> with a glob on its label "
      << "(<code>'*5f0c2a9e*'</code>: the first digits of its GPU's UUID; <code>'*@ gpu-node-17 *'</code>: the GPUs of a node).</p>"
      << "<table><tr><th>series</th><th>runs</th><th>changes</th><th>flaky</th><th>newest run</th></tr>";
    for (auto* sc : order) {
      const StoredRun* newest = idx.by_series.at(sc->series_id).back();
      o << "<tr><td>" << (drawn.count(sc->series_id) ? "<a href=\"#series-" + std::to_string(sc->series_id) + "\">" + esc(sc->label) + "</a>" : esc(sc->label))
        << "</td><td class=\"n\">" << sc->runs << "</td><td class=\"n\">" << changes_of[sc->series_id] << "</td><td class=\"n\">"
        << flaky_of[sc->series_id] << "</td><td>" << esc(newest->started) << "</td></tr>";
    }
    o << "</table>";
  }

  // Timelines: the rules that changed, flip or differ across the window first; every rule below.
  // Every rule × every run is about 1.3 MB a series (4,900 cases, 30 runs): drawn only on a page
  // of one series (a run's report, the drill-down).
  const bool every_rule = order.size() == 1;
  std::ostringstream all_rules;
  if (!every_rule)
    all_rules << "<p class=\"note\">Drawn on a page of one series: <code>cuconform history report --config 'GLOB' --html FILE</code>.</p>";
  for (auto& sc : changes) {
    if (!drawn.count(sc.series_id)) continue;
    const auto& runs = idx.by_series.at(sc.series_id);
    std::vector<const StoredRun*> window = last_runs(runs, q.last);
    std::string ids;
    for (auto* r : window) ids += (ids.empty() ? "" : ", ") + std::to_string(r->id);
    std::map<std::string, std::map<std::int64_t, Cell>> cells;
    db_each(db, "SELECT r.run_id, c.rule, r.verdict FROM results r JOIN cases c ON c.id = r.case_id WHERE r.run_id IN (" + ids + ")", {},
            [&](const DbQuery& q) {
              Cell& c = cells[q.text(1)][q.i64(0)];
              std::string v = to_string(verdict_from_code(static_cast<int>(q.i64(2))));
              ++c.counts[v];
              if (c.worst.empty() || severity(v) > severity(c.worst)) c.worst = v;
            });
    std::map<std::pair<std::string, std::int64_t>, std::vector<std::string>> changed;
    for (auto& e : sc.events)
      for (auto& c : e.cases) changed[{rule_of[c.name], e.run->id}].push_back(c.name + " " + c.from + "→" + c.to);
    std::vector<std::string> notable, every;
    for (auto& [rule, by_run] : cells) {
      every.push_back(rule);
      std::set<std::string> seen;
      for (auto& [run, c] : by_run) seen.insert(c.worst);
      bool changed_here = false;
      for (auto* r : window) changed_here |= changed.count({rule, r->id}) > 0;
      if (changed_here || flaky_rules.count(rule) || seen.size() > 1) notable.push_back(rule);
    }
    std::size_t shown = std::min<std::size_t>(notable.size(), 60);
    o << "<a id=\"series-" << sc.series_id << "\"></a><h3>" << esc(sc.label) << ": the last " << window.size() << " of " << runs.size() << " run(s)</h3>";
    if (notable.empty()) {
      o << "<p class=\"ok\">Every rule kept its verdict over these runs.</p>";
    } else {
      o << "<p class=\"note\">Rules whose verdict changed, flipped or differs across these runs (" << notable.size()
        << (shown < notable.size() ? ", the first " + std::to_string(shown) + " shown" : "") << "); a cell is the worst verdict of the rule's cases.</p>";
      timeline(o, window, {notable.begin(), notable.begin() + static_cast<long>(shown)}, cells, changed);
    }
    if (!every_rule) continue;
    all_rules << "<details><summary>" << esc(sc.label) << ": all " << every.size() << " rules × the last " << window.size() << " runs</summary>";
    std::ostringstream t;
    timeline(t, window, every, cells, changed);
    all_rules << t.str() << "</details>";
  }
  o << "</section>";

  o << "<section id=\"trends\"><h2>Measurements drifting or off (" << trends.size() << ")</h2><p class=\"note\">Per configuration, the last "
    << q.last << " runs: a measurement drifts on " << esc(q.drift.drift_rule()) << " (the red dashed line: Theil-Sen); the band is "
    << esc(q.drift.tolerance_rule()) << ", the tolerance <code>compare --history</code> applies.</p>";
  if (trends.empty()) o << "<p class=\"ok\">No measurement drifts, and no newest value is off its history.</p>";
  std::string last_config;
  std::size_t plotted = 0;
  for (auto& t : trends) {
    if (plotted >= 24) break;
    if (!drawn_config(t.config_id)) continue;
    if (t.config != last_config) o << (last_config.empty() ? "" : "</div>") << "<h3>" << esc(t.config) << "</h3><div class=\"trends\">";
    last_config = t.config;
    o << svg_trend(t, q.drift);
    ++plotted;
  }
  if (!last_config.empty()) o << "</div>";
  if (plotted < trends.size()) o << "<p class=\"note\">" << trends.size() - plotted << " more: <code>cuconform history trend</code>.</p>";
  o << "</section>";

  o << "<section id=\"changes\"><h2>Changes (" << nchanges << ")</h2><p class=\"note\">A case whose verdict or recorded outcome differs from "
    << "the last run of its series that had it; cases that flip back and forth (" << q.min_flips << "+ returns within " << q.window
    << " runs) are left out and listed as flaky.</p>";
  for (auto& sc : changes) {
    if (!drawn.count(sc.series_id)) continue;
    o << "<h3>" << esc(sc.label) << "</h3>";
    if (sc.events.empty()) o << "<p class=\"ok\">No change in " << sc.runs << " run(s).</p>";
    for (auto& e : sc.events) {
      o << "<div class=\"chg-run\" id=\"chg-" << e.run->id << "\"><b>First changed in <a href=\"#run-" << e.run->id << "\">run #" << e.run->id
        << "</a></b> (" << esc(e.run->started) << ", <code>" << esc(e.run->file_name()) << "</code>, driver " << esc(e.run->driver)
        << "); the last run before it: <a href=\"#run-" << e.prev->id << "\">#" << e.prev->id << "</a> (" << esc(e.prev->started) << ").<br>What differed: ";
      if (e.differs.empty()) o << "nothing recorded (same driver, toolkit, commit and host)";
      for (std::size_t i = 0; i < e.differs.size(); ++i)
        o << (i ? "; " : "") << "<b>" << esc(e.differs[i].first) << "</b> " << esc(e.differs[i].second.first) << " → " << esc(e.differs[i].second.second);
      o << "<table><tr><th>case</th><th>before</th><th>from this run</th><th>reason</th></tr>";
      for (auto& c : e.cases)
        o << "<tr><td><a href=\"#run-" << e.run->id << "\"><code>" << esc(c.name) << "</code></a></td><td>" << badge(c.from)
          << (c.from_outcome.empty() ? "" : " ") << esc(c.from_outcome) << "</td><td>" << badge(c.to) << (c.to_outcome.empty() ? "" : " ") << esc(c.to_outcome)
          << "</td><td>" << esc(c.reason) << "</td></tr>";
      o << "</table></div>";
    }
    if (sc.flapping_transitions)
      o << "<p class=\"note\">Left out: " << sc.flapping_transitions << " transition(s) of " << sc.flapping_cases.size()
        << " case(s) flipping back and forth (below).</p>";
  }
  o << "</section>";

  o << "<section id=\"flaky\"><h2>Flaky cases (" << flaky_names.size() << ")</h2><p class=\"note\">Per configuration, the last " << q.last
    << " runs: a verdict that returns to an earlier one " << q.min_flips << "+ times, or <code>flake</code>.</p>";
  for (auto& c : flaky) {
    if (c.cases.empty() || !drawn_config(c.config_id)) continue;
    o << "<h3>" << esc(c.label) << "</h3><table><tr><th>case</th><th>flips</th><th>verdicts</th><th>oldest → newest</th></tr>";
    for (auto& fc : c.cases) {
      std::string states;
      for (auto& [k, n] : fc.states) states += (states.empty() ? "" : ", ") + k + " " + std::to_string(n);
      o << "<tr><td><code>" << esc(fc.name) << "</code></td><td class=\"n\">" << fc.transitions << "</td><td>" << esc(states) << "</td><td>";
      for (auto& [run, v] : fc.timeline)
        o << "<span title=\"#" << run << " " << esc(v) << "\" style=\"display:inline-block;width:9px;height:12px;margin-right:1px;background:"
          << (v.empty() ? "#eee" : verdict_color(v)) << "\"></span>";
      o << "</td></tr>";
    }
    o << "</table>";
  }
  if (!nflaky) o << "<p class=\"ok\">No flaky case.</p>";
  o << "</section>";

  o << "<section id=\"runs\"><h2>Runs</h2>";
  for (auto config : idx.configs_in_order()) {
    const auto& runs = idx.by_config.at(config);
    if (!glob_match(q.config_glob, runs.front()->config_label()) || !drawn_config(config)) continue;
    std::vector<const StoredRun*> window = last_runs(runs, q.last);
    o << "<details><summary>" << esc(runs.front()->config_label()) << ": " << runs.size() << " run(s)</summary><table><tr><th>run</th><th>seq</th>"
      << "<th>started</th><th>host</th><th>commit</th><th>toolkit</th><th>pass</th><th>fail</th><th>file</th></tr>";
    for (auto* r : window)
      o << "<tr id=\"run-" << r->id << "\"><td>#" << r->id << "</td><td class=\"n\">" << r->seq << "</td><td>" << esc(r->started) << "</td><td>"
        << esc(r->host) << "</td><td><code>" << esc(r->commit) << "</code></td><td>" << esc(r->toolkit) << "</td><td class=\"n\">"
        << r->counts.at("pass") << "</td><td class=\"n\">" << r->counts.at("fail") + r->counts.at("timeout") + r->counts.at("crash")
        << "</td><td><code>" << esc(r->file_name()) << "</code></td></tr>";
    o << "</table></details>";
  }
  o << "</section><section id=\"all-rules\"><h2>Every rule over the runs</h2>" << all_rules.str() << "</section>";
  tx.commit();
  return o.str();
}

std::string history_html_page(Db& db, const QueryOptions& o) {
  std::string body = history_html_sections(db, o);
  return html_page_start("cuconform history", db.name() + (o.config_glob.empty() ? "" : " · " + o.config_glob)) + body +
         "<footer class=\"note\">generated by cuconform history report at " + utc_now_iso8601() + "</footer></main></body></html>\n";
}

}  // namespace cuconform
