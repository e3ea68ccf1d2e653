// The HTML report: one page for a single run (environment, area x verdict matrix, failures
// with expected vs observed, measurement charts, every case) or for a fleet (device table,
// area x device and case x device matrices, failures per device, measurements across devices).
#include "reporters/html_report.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "harness/util/number_text.hpp"
#include "reporters/junit_xml.hpp"  // xml_escape
#include "reporters/report_common.hpp"
#include "reporters/run_report.hpp"  // utc_now_iso8601
#include "reporters/svg.hpp"

namespace cuconform {

namespace {

const char* kCss = R"(
:root{--pass:#2e7d32;--fail:#c62828;--timeout:#ef6c00;--crash:#6a1b9a;--ns:#9e9e9e;--planned:#90caf9}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;margin:0;color:#1f2328;background:#f6f7f9}
header{background:#1f2937;color:#fff;padding:14px 28px}
header h1{margin:0 0 2px;font-size:21px}
header .sub{opacity:.85;font-size:13px}
main{padding:4px 28px 40px;max-width:1500px}
section{background:#fff;border:1px solid #e1e4e8;border-radius:6px;padding:10px 18px 14px;margin:14px 0}
h2{font-size:17px;margin:4px 0 10px}
h3{font-size:15px;margin:14px 0 6px}
table{border-collapse:collapse;font-size:13px;margin:4px 0}
th,td{border:1px solid #d8dde3;padding:3px 8px;text-align:left;vertical-align:top}
th{background:#eef1f4;font-weight:600}
td.n{text-align:right;font-variant-numeric:tabular-nums}
.kv th{min-width:120px}
.env{display:flex;flex-wrap:wrap;gap:18px;align-items:flex-start}
.kv tr:first-child th{background:#dde3ea;text-transform:uppercase;font-size:11px;letter-spacing:.04em}
.badge{display:inline-block;padding:0 8px;border-radius:9px;color:#fff;font-size:12px;font-weight:600;white-space:nowrap}
.v-pass{background:var(--pass)}.v-fail{background:var(--fail)}.v-timeout{background:var(--timeout)}
.v-crash{background:var(--crash)}.v-not-supported{background:var(--ns)}.v-planned{background:var(--planned);color:#123}
.v-flake{background:#c0a000}.v-recorded{background:#80cbc4;color:#123}
.known{background:#ffe082;color:#222}
.headline{font-size:16px;font-weight:600;margin:4px 0 8px}
.ok{color:var(--pass)}.bad{color:var(--fail)}
.case{border-left:4px solid var(--fail);padding:6px 12px;margin:10px 0;background:#fff7f7}
.case.is-known{border-left-color:#f9a825;background:#fffcf0}
.case h3{margin:2px 0 4px;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:13px}
.meta{color:#57606a;font-size:12px}
.eo{display:grid;grid-template-columns:1fr 1fr;gap:10px}
.eo h4{margin:4px 0 0;font-size:12px;color:#57606a}
pre{white-space:pre-wrap;word-break:break-word;background:#f6f8fa;border:1px solid #e1e4e8;padding:5px 8px;margin:2px 0;font-size:12px}
code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px}
.charts{display:flex;flex-wrap:wrap;gap:16px 28px;align-items:flex-start}
svg text{font-family:system-ui,Helvetica,Arial,sans-serif;font-size:11px;fill:#1f2328}
svg .ct{font-size:12px;font-weight:600}
.mx td.c{text-align:center;min-width:30px;font-size:11px;font-weight:600}
.mx th.d{writing-mode:horizontal-tb;text-align:center}
details>summary{cursor:pointer;font-weight:600;margin:6px 0}
tr.failing td{background:#fff1f1}
.note{color:#57606a;font-size:12px}
)";

std::string esc(const std::string& s) { return xml_escape(s); }

std::string badge(const std::string& verdict) {
  return "<span class=\"badge v-" + esc(verdict) + "\">" + esc(verdict) + "</span>";
}

// A verdict colour at `alpha` as rgba(), for matrix cells whose shade follows a count.
std::string tint(const std::string& hex, double alpha) {
  int r = 0, g = 0, b = 0;
  std::sscanf(hex.c_str(), "#%02x%02x%02x", &r, &g, &b);
  char buf[64];
  std::snprintf(buf, sizeof buf, "rgba(%d,%d,%d,%.2f)", r, g, b, alpha);
  return buf;
}

std::string mhz(const std::string& khz) {
  try {
    return short_number(std::stod(khz) / 1000) + " MHz";
  } catch (...) {
    return khz;
  }
}

std::string bytes(const std::string& b, double unit, const char* name) {
  try {
    return short_number(std::stod(b) / unit) + " " + name;
  } catch (...) {
    return b;
  }
}

// The environment, as three small tables side by side (GPU, suite, run): known keys get a
// friendly name and unit, any other device key is shown as is.
void env_tables(std::ostringstream& o, const RunInfo& r) {
  struct Key {
    const char* key;
    const char* title;
    std::string (*fmt)(const std::string&);
  };
  static const Key dev_keys[] = {
      {"name", "GPU", nullptr},
      {"uuid", "UUID", nullptr},
      {"cc", "compute capability", nullptr},
      {"sm_count", "SMs", nullptr},
      {"clock_khz", "SM clock", mhz},
      {"mem_clock_khz", "memory clock", mhz},
      {"mem_bus_bits", "memory bus", [](const std::string& v) { return v + " bits"; }},
      {"l2_bytes", "L2 cache", [](const std::string& v) { return bytes(v, 1 << 20, "MiB"); }},
      {"smem_per_block_optin", "smem per block (opt-in)", [](const std::string& v) { return bytes(v, 1024, "KiB"); }},
      {"total_mem_bytes", "device memory", [](const std::string& v) { return bytes(v, 1 << 30, "GiB"); }},
      {"driver_version", "driver", nullptr},
      {"driver_cuda_version", "driver CUDA version", nullptr},
      {"code_path", "code path", nullptr},
      {"ordinal", "device ordinal", nullptr},
      {"error", "no GPU because", nullptr},
  };
  auto row = [&](const std::string& k, const std::string& v) {
    if (!v.empty()) o << "<tr><th>" << esc(k) << "</th><td>" << esc(v) << "</td></tr>";
  };
  o << "<div class=\"env\"><table class=\"kv\"><tr><th colspan=\"2\">device</th></tr>";
  std::set<std::string> shown = {"available"};
  for (auto& k : dev_keys) {
    std::string v = r.dev(k.key);
    shown.insert(k.key);
    if (!v.empty()) row(k.title, k.fmt ? k.fmt(v) : v);
  }
  for (auto& [k, v] : r.device)
    if (!shown.count(k)) row(k, v);
  o << "</table><table class=\"kv\"><tr><th colspan=\"2\">suite</th></tr>";
  row("version", r.get(r.suite, "version"));
  row("commit", r.get(r.suite, "commit"));
  row("built with CUDA", r.get(r.suite, "built_with_cuda"));
  row("SASS archs", r.get(r.suite, "archs"));
  row("specs", r.get(r.suite, "specs_dir"));
  o << "</table><table class=\"kv\"><tr><th colspan=\"2\">run</th></tr>";
  row("host", r.get(r.run, "host"));
  row("started", r.get(r.run, "started"));
  row("finished", r.get(r.run, "finished"));
  std::string wall = r.get(r.run, "wall_s");
  if (!wall.empty()) row("wall time", short_number(std::atof(wall.c_str())) + " s");
  row("worker processes", r.get(r.run, "workers_started"));
  row("selection", r.get(r.run, "selection"));
  row("results file", r.file);
  o << "</table></div>";
}

std::string strip_prefix(const std::string& name, const std::string& rule) {
  if (!rule.empty() && name.rfind(rule + ".", 0) == 0) return name.substr(rule.size() + 1);
  return name;
}

void measurement_table(std::ostringstream& o, const Outcome& r) {
  if (r.measurements.empty() && r.facts.empty()) return;
  o << "<table><tr><th>measurement / fact</th><th>value</th></tr>";
  for (auto& [k, v] : r.measurements) o << "<tr><td><code>" << esc(k) << "</code></td><td class=\"n\">" << number_text(v) << "</td></tr>";
  for (auto& [k, v] : r.facts) o << "<tr><td><code>" << esc(k) << "</code></td><td>" << esc(v) << "</td></tr>";
  o << "</table>";
}

void failing_case(std::ostringstream& o, const CaseRow& c, const Outcome& r, const std::string& known, const std::string& where) {
  o << "<article class=\"case" << (known.empty() ? "" : " is-known") << "\" id=\"f-" << esc(c.name) << "\"><h3>" << badge(to_string(r.verdict))
    << " " << esc(c.name) << "</h3>";
  if (!known.empty()) o << "<div><span class=\"badge known\">" << esc(known) << "</span></div>";
  o << "<div class=\"meta\">" << esc(where) << "rule <code>" << esc(c.rule) << "</code> · " << esc(c.kind) << (c.basis.empty() ? "" : " · basis " + esc(c.basis)) << " · min cc "
    << esc(c.min_cc) << (c.arch.empty() ? "" : " · " + esc(c.arch)) << " · " << short_number(r.duration_s) << " s";
  if (!c.source.empty()) o << "<br>source: " << esc(c.source);
  o << "</div>";
  if (!r.reason.empty()) o << "<p><b>reason:</b> " << esc(r.reason) << "</p>";
  o << "<div class=\"eo\"><div><h4>expected</h4><pre>" << esc(r.expected.empty() ? "(not recorded)" : r.expected)
    << "</pre></div><div><h4>observed</h4><pre>" << esc(r.observed.empty() ? "(not recorded)" : r.observed) << "</pre></div></div>";
  measurement_table(o, r);
  o << "</article>";
}

// Charts of one run's measurements: per rule and kind, one chart whose rows are the rule's
// cases and whose series are the measurements of that kind (reload/L1/L2 cycles side by
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

void head(std::ostringstream& o, const std::string& title, const std::string& sub) {
  o << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
    << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>" << esc(title) << "</title><style>" << kCss
    << "</style></head><body><header><h1>" << esc(title) << "</h1><div class=\"sub\">" << esc(sub) << "</div></header><main>";
}

std::vector<std::tuple<std::string, int, std::string>> verdict_parts(const std::map<std::string, int>& counts) {
  std::vector<std::tuple<std::string, int, std::string>> parts;
  for (Verdict v : all_verdicts()) parts.emplace_back(to_string(v), counts.at(to_string(v)), verdict_color(to_string(v)));
  return parts;
}

std::string single_report(const Fleet& f, const KnownList* known, const std::string& source) {
  const RunInfo& run = f.runs[0];
  std::ostringstream o;
  head(o, "cuconform conformance report — " + (run.available() ? run.dev("name") : std::string("no GPU")),
       run.device_line() + " · " + run.get(run.run, "host") + " · " + run.get(run.run, "started") + " · " + source);
  auto counts = f.counts(0);
  int failing = failures_in(f, 0), known_failing = 0, ran = counts["pass"] + counts["flake"] + failing;
  for (auto& c : f.cases)
    if (c.by_run[0] && is_failure(c.by_run[0]->verdict) && !known_label(known, c, run).empty()) ++known_failing;

  o << "<section id=\"summary\"><h2>Summary</h2><div class=\"headline " << (failing - known_failing || !run.available() ? "bad" : "ok") << "\">";
  if (!run.available()) o << "No GPU was available: GPU cases are not-supported; this run proves nothing about a device. ";
  o << f.cases.size() << " cases: " << counts["pass"] << " passed, " << failing << " failed";
  if (known_failing) o << " (" << known_failing << " known)";
  if (counts["flake"]) o << ", " << counts["flake"] << " flaky (passed only on a re-run)";
  if (counts["recorded"]) o << ", " << counts["recorded"] << " recorded (undefined behaviour, not judged)";
  o << ", " << counts["not-supported"] + counts["planned"] << " not run (not-supported or planned); " << ran << " ran.</div>";
  o << svg_stacked(verdict_parts(counts), 900);

  // Conformance matrix: area x verdict, each cell shaded by its share of the area's cases.
  o << "<h3 id=\"matrix\">Conformance matrix (area × verdict)</h3><table class=\"mx\"><tr><th>area</th>";
  for (Verdict v : all_verdicts()) o << "<th>" << badge(to_string(v)) << "</th>";
  o << "<th>total</th></tr>";
  for (auto& area : areas_of(f)) {
    std::map<std::string, int> n;
    int total = 0;
    for (auto& c : f.cases)
      if (c.area == area && c.by_run[0]) ++n[to_string(c.by_run[0]->verdict)], ++total;
    o << "<tr><th>" << esc(area) << "</th>";
    for (Verdict v : all_verdicts()) {
      int k = n[to_string(v)];
      double a = total && k ? 0.15 + 0.6 * k / total : 0;
      o << "<td class=\"n\" style=\"background:" << tint(verdict_color(to_string(v)), a) << "\">" << (k ? std::to_string(k) : "") << "</td>";
    }
    o << "<td class=\"n\">" << total << "</td></tr>";
  }
  o << "</table></section>";

  o << "<section id=\"environment\"><h2>Environment</h2>";
  env_tables(o, run);
  o << "</section>";

  o << "<section id=\"failures\"><h2>Failing cases (" << failing << ")</h2>";
  if (!failing) o << "<p class=\"ok\">No case failed.</p>";
  // Grouped: failures the known list does not explain first, then known ones by finding class.
  for (auto& g : failures_by_class(f, 0, known)) {
    o << "<h3 class=\"group\">" << esc(g.title) << " (" << g.cases.size() << ")</h3>";
    for (const CaseRow* c : g.cases) failing_case(o, *c, *c->by_run[0], known_label(known, *c, run), "");
  }
  o << "</section>";

  if (counts["flake"]) {
    o << "<section id=\"flaky\"><h2>Flaky cases (" << counts["flake"] << ")</h2><p class=\"note\">Failed, then passed when "
         "re-run (<code>cuconform run --rerun N</code>): neither a pass nor a failure.</p><table><tr><th>case</th><th>reason</th>"
         "<th>known</th></tr>";
    for (auto& c : f.cases)
      if (c.by_run[0] && c.by_run[0]->verdict == Verdict::flake)
        o << "<tr><td><code>" << esc(c.name) << "</code></td><td>" << esc(c.by_run[0]->reason) << "</td><td>"
          << esc(known_label(known, c, run)) << "</td></tr>";
    o << "</table></section>";
  }

  if (counts["recorded"]) {
    o << "<section id=\"recorded\"><h2>Recorded behaviour (" << counts["recorded"] << ")</h2><p class=\"note\">Documented "
         "undefined behaviour (or outcomes the documents allow without promising them): each case ran in its own process, "
         "and what the GPU did is recorded, neither passed nor failed. <code>cuconform compare</code> reports when it "
         "changes.</p><table><tr><th>case</th><th>outcome</th><th>details</th></tr>";
    for (auto& c : f.cases)
      if (c.by_run[0] && c.by_run[0]->verdict == Verdict::recorded)
        o << "<tr><td><code>" << esc(c.name) << "</code></td><td>" << esc(c.by_run[0]->fact("outcome")) << "</td><td>"
          << esc(c.by_run[0]->observed) << "</td></tr>";
    o << "</table></section>";
  }

  o << "<section id=\"measurements\"><h2>Measurements</h2>";
  int charts = 0, measured = 0;
  for (auto& area : areas_of(f)) {
    auto svgs = run_charts(f, 0, area);
    if (svgs.empty()) continue;
    o << "<h3>" << esc(area) << "</h3><div class=\"charts\">";
    for (auto& s : svgs) o << s;
    o << "</div>";
    charts += static_cast<int>(svgs.size());
  }
  for (auto& c : f.cases) measured += c.by_run[0] && !c.by_run[0]->measurements.empty();
  if (!charts) o << "<p class=\"note\">No measurement to plot (" << measured << " case(s) recorded measurements).</p>";
  if (measured) {
    o << "<details><summary>All measurements as numbers (" << measured << " cases)</summary><table><tr><th>case</th><th>verdict</th><th>measurement</th><th>value</th></tr>";
    for (auto& c : f.cases)
      if (c.by_run[0])
        for (auto& [m, v] : c.by_run[0]->measurements)
          o << "<tr><td><code>" << esc(c.name) << "</code></td><td>" << badge(to_string(c.by_run[0]->verdict)) << "</td><td><code>"
            << esc(m) << "</code></td><td class=\"n\">" << number_text(v) << "</td></tr>";
    o << "</table></details>";
  }
  o << "</section>";

  // Why cases did not run: grouped by reason, most frequent first.
  std::map<std::string, int> why;
  for (auto& c : f.cases)
    if (c.by_run[0] && (c.by_run[0]->verdict == Verdict::not_supported || c.by_run[0]->verdict == Verdict::planned))
      ++why[std::string(to_string(c.by_run[0]->verdict)) + "\x1f" + c.by_run[0]->reason];
  if (!why.empty()) {
    std::vector<std::pair<int, std::string>> sorted;
    for (auto& [k, n] : why) sorted.emplace_back(-n, k);
    std::sort(sorted.begin(), sorted.end());
    o << "<section id=\"not-run\"><h2>Cases that did not run</h2><table><tr><th>verdict</th><th>reason</th><th>cases</th></tr>";
    for (auto& [n, k] : sorted) {
      auto sep = k.find('\x1f');
      o << "<tr><td>" << badge(k.substr(0, sep)) << "</td><td>" << esc(k.substr(sep + 1)) << "</td><td class=\"n\">" << -n << "</td></tr>";
    }
    o << "</table></section>";
  }

  o << "<section id=\"cases\"><h2>All cases</h2>";
  for (auto& area : areas_of(f)) {
    std::map<std::string, int> n;
    for (auto& c : f.cases)
      if (c.area == area && c.by_run[0]) ++n[to_string(c.by_run[0]->verdict)];
    o << "<details><summary>" << esc(area) << " —";
    for (auto& [v, k] : n) o << " " << v << " " << k;
    o << "</summary><table><tr><th>case</th><th>verdict</th><th>s</th><th>reason</th></tr>";
    for (auto& c : f.cases) {
      if (c.area != area || !c.by_run[0]) continue;
      const Outcome& r = *c.by_run[0];
      o << "<tr" << (is_failure(r.verdict) ? " class=\"failing\"" : "") << "><td><code>" << esc(c.name) << "</code></td><td>"
        << badge(to_string(r.verdict)) << "</td><td class=\"n\">" << short_number(r.duration_s) << "</td><td>" << esc(r.reason) << "</td></tr>";
    }
    o << "</table></details>";
  }
  o << "</section>";
  return o.str();
}

std::string fleet_report(const Fleet& f, const KnownList* known, const std::string& source) {
  std::ostringstream o;
  head(o, "cuconform fleet report — " + std::to_string(f.runs.size()) + " runs",
       std::to_string(f.cases.size()) + " cases · " + source);
  auto col = [](std::size_t i) { return "D" + std::to_string(i + 1); };

  o << "<section id=\"devices\"><h2>Devices</h2><table><tr><th>#</th><th>run</th><th>device</th><th>UUID</th><th>host</th><th>started</th>"
       "<th>suite</th><th>verdicts</th></tr>";
  for (std::size_t i = 0; i < f.runs.size(); ++i) {
    const RunInfo& r = f.runs[i];
    o << "<tr><th>" << col(i) << "</th><td>" << esc(r.label) << "</td><td>" << esc(r.device_line()) << "</td><td><code>" << esc(r.dev("uuid"))
      << "</code></td><td>" << esc(r.get(r.run, "host")) << "</td><td>" << esc(r.get(r.run, "started")) << "</td><td>"
      << esc(r.get(r.suite, "version") + " " + r.get(r.suite, "commit") + " · CUDA " + r.get(r.suite, "built_with_cuda")) << "</td><td>"
      << svg_stacked(verdict_parts(f.counts(i)), 320) << "</td></tr>";
  }
  o << "</table></section>";

  // Area x device: "passed/ran", red when anything failed there.
  o << "<section id=\"matrix\"><h2>Conformance matrix (area × device)</h2><p class=\"note\">passed / ran; "
       "failures in red; cases that did not run are not counted.</p><table class=\"mx\"><tr><th>area</th>";
  for (std::size_t i = 0; i < f.runs.size(); ++i) o << "<th class=\"d\" title=\"" << esc(f.runs[i].label) << "\">" << col(i) << "</th>";
  o << "</tr>";
  for (auto& area : areas_of(f)) {
    o << "<tr><th>" << esc(area) << "</th>";
    for (std::size_t i = 0; i < f.runs.size(); ++i) {
      int pass = 0, fail = 0;
      for (auto& c : f.cases)
        if (c.area == area && c.by_run[i]) pass += c.by_run[i]->verdict == Verdict::pass, fail += is_failure(c.by_run[i]->verdict);
      std::string bg = fail ? tint(verdict_color("fail"), 0.35) : pass ? tint(verdict_color("pass"), 0.3) : "#f0f0f0";
      o << "<td class=\"c\" style=\"background:" << bg << "\">" << (pass + fail ? std::to_string(pass) + "/" + std::to_string(pass + fail) : "–")
        << (fail ? "<br>" + std::to_string(fail) + " fail" : "") << "</td>";
    }
    o << "</tr>";
  }
  o << "</table></section>";

  // Case x device: the cases that fail somewhere or differ between devices first.
  auto case_row = [&](const CaseRow& c) {
    o << "<tr><td><code>" << esc(c.name) << "</code></td>";
    for (std::size_t i = 0; i < f.runs.size(); ++i) {
      if (!c.by_run[i]) {
        o << "<td class=\"c\" title=\"absent\">·</td>";
        continue;
      }
      const Outcome& r = *c.by_run[i];
      std::string v = to_string(r.verdict), k = is_failure(r.verdict) ? known_label(known, c, f.runs[i]) : "";
      o << "<td class=\"c\" style=\"background:" << tint(verdict_color(v), v == "pass" ? 0.35 : 0.55) << "\" title=\""
        << esc(f.runs[i].label + ": " + v + (r.reason.empty() ? "" : " — " + r.reason) + (k.empty() ? "" : " (" + k + ")")) << "\">"
        << verdict_abbrev(v) << (k.empty() ? "" : "*") << "</td>";
    }
    o << "</tr>";
  };
  auto header_row = [&]() {
    o << "<table class=\"mx\"><tr><th>case</th>";
    for (std::size_t i = 0; i < f.runs.size(); ++i) o << "<th class=\"d\" title=\"" << esc(f.runs[i].label) << "\">" << col(i) << "</th>";
    o << "</tr>";
  };
  std::vector<const CaseRow*> notable;
  for (auto& c : f.cases) {
    std::set<std::string> vs;
    bool fails = false;
    for (auto& r : c.by_run) {
      if (r) vs.insert(to_string(r->verdict));
      fails |= r && is_failure(r->verdict);
    }
    if (fails || vs.size() > 1) notable.push_back(&c);
  }
  o << "<section id=\"cases\"><h2>Case × device matrix</h2><p class=\"note\">P pass · F fail · T timeout · C crash · NS not-supported · "
       "PL planned · · absent · * known failure or flake. Hover a cell for the reason.</p>";
  o << "<h3>Cases that fail somewhere or differ between devices (" << notable.size() << ")</h3>";
  if (notable.empty()) {
    o << "<p class=\"ok\">Every case has the same verdict on every device, and none fails.</p>";
  } else {
    header_row();
    for (auto* c : notable) case_row(*c);
    o << "</table>";
  }
  for (auto& area : areas_of(f)) {
    int n = 0;
    for (auto& c : f.cases) n += c.area == area;
    o << "<details><summary>all " << esc(area) << " cases (" << n << ")</summary>";
    header_row();
    for (auto& c : f.cases)
      if (c.area == area) case_row(c);
    o << "</table></details>";
  }
  o << "</section>";

  o << "<section id=\"failures\"><h2>Failing cases by device</h2>";
  for (std::size_t i = 0; i < f.runs.size(); ++i) {
    int n = failures_in(f, i);
    o << "<details" << (n && n <= 20 ? " open" : "") << "><summary>" << col(i) << " " << esc(f.runs[i].label) << ": " << n << " failing</summary>";
    for (auto& c : f.cases)
      if (c.by_run[i] && is_failure(c.by_run[i]->verdict))
        failing_case(o, c, *c.by_run[i], known_label(known, c, f.runs[i]), col(i) + " · ");
    o << "</details>";
  }
  o << "</section>";

  // Measurements across devices: per rule and kind, rows = case · measurement, series = devices.
  o << "<section id=\"measurements\"><h2>Measurements across devices</h2>";
  std::vector<std::string> series;
  for (std::size_t i = 0; i < f.runs.size(); ++i) series.push_back(col(i));
  int charts = 0;
  for (auto& area : areas_of(f)) {
    std::vector<std::string> rules;
    std::map<std::pair<std::string, int>, std::vector<BarGroup>> groups;
    for (auto& c : f.cases) {
      if (c.area != area) continue;
      std::vector<std::string> names;
      for (auto& r : c.by_run)
        if (r)
          for (auto& [m, v] : r->measurements)
            if (std::find(names.begin(), names.end(), m) == names.end()) names.push_back(m);
      for (auto& m : names) {
        MeasureKind k = measure_kind(m);
        if (k == MeasureKind::other) continue;
        BarGroup g{strip_prefix(c.name, c.rule) + " · " + (k == MeasureKind::outcome ? m.substr(8) : m), c.name + " " + m, {}, ""};
        int have = 0;
        for (auto& r : c.by_run) {
          double v = std::nan("");
          if (r)
            for (auto& [mm, x] : r->measurements)
              if (mm == m) v = x;
          have += std::isfinite(v);
          g.values.push_back(v);
        }
        if (have < 2) continue;
        auto key = std::make_pair(c.rule, static_cast<int>(k));
        if (!groups.count(key) && std::find(rules.begin(), rules.end(), c.rule) == rules.end()) rules.push_back(c.rule);
        groups[key].push_back(g);
      }
    }
    if (groups.empty()) continue;
    o << "<h3>" << esc(area) << "</h3><div class=\"charts\">";
    for (auto& rule : rules)
      for (MeasureKind k : {MeasureKind::cycles, MeasureKind::ratio, MeasureKind::throughput, MeasureKind::outcome}) {
        auto it = groups.find({rule, static_cast<int>(k)});
        if (it == groups.end() || charts >= 150) continue;
        auto g = it->second;
        if (g.size() > 40) g.resize(40);
        ChartSpec spec;
        spec.title = rule + " — " + measure_kind_title(k);
        spec.series = series;
        if (k == MeasureKind::ratio) spec.reference = 1.0;
        o << svg_bar_chart(spec, g);
        ++charts;
      }
    o << "</div>";
  }
  if (!charts) o << "<p class=\"note\">No measurement was recorded by two or more devices.</p>";
  o << "</section>";
  return o.str();
}

}  // namespace

std::string html_page_start(const std::string& title, const std::string& subtitle) {
  std::ostringstream o;
  head(o, title, subtitle);
  return o.str();
}

std::string html_report(const Fleet& f, const KnownList* known, const std::string& source, const std::string& extra) {
  std::string body = f.runs.size() == 1 && f.schema != kFleetSchema ? single_report(f, known, source) : fleet_report(f, known, source);
  std::string foot = "<footer class=\"note\">generated by cuconform report at " + utc_now_iso8601() +
                     (known ? " · known list " + esc(known->file) : "") + "</footer>";
  return body + extra + foot + "</main></body></html>\n";
}

}  // namespace cuconform
