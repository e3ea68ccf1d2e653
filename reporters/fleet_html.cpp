// The fleet view as one self-contained HTML page (inline CSS, no script, nothing fetched), like
// the run report: nodes and GPUs, versions, the odd one out, the drain list.
#include <sstream>

#include "harness/util/number_text.hpp"
#include "reporters/fleet_view.hpp"
#include "reporters/junit_xml.hpp"  // xml_escape

namespace cuconform {

namespace {

std::string esc(const std::string& s) { return xml_escape(s); }

const char* state_class(NightGpu::State s) {
  switch (s) {
    case NightGpu::State::ran: return "ok";
    case NightGpu::State::no_gpu: return "warn";
    default: return "bad";
  }
}

}  // namespace

std::string fleet_view_html(const FleetView& v) {
  const FleetDigest& f = v.night.fleet;
  std::ostringstream o;
  o << "<!doctype html><html><head><meta charset=\"utf-8\"><title>cuconform fleet " << esc(v.night.name) << "</title><style>"
    << "body{font:14px system-ui,sans-serif;margin:24px;color:#222}table{border-collapse:collapse;margin:8px 0 20px}"
    << "td,th{border:1px solid #ccc;padding:3px 8px;text-align:left;vertical-align:top}th{background:#f3f3f3}"
    << ".ok{background:#e6f4e6}.warn{background:#fff4d6}.bad{background:#fbe0e0}code,pre{font:12px ui-monospace,monospace}"
    << "pre{background:#f6f6f6;padding:8px;white-space:pre-wrap}</style></head><body>\n";
  const FleetCounts c = fleet_counts(v.night);
  o << "<h1>Fleet " << esc(v.night.name) << "</h1><p>status <b>" << v.status << "</b>: " << c.nodes << " node(s), " << c.ran << " of "
    << c.planned << " planned GPU(s) ran";
  if (c.skipped_nodes) o << "; " << c.skipped_nodes << " node(s) with " << c.skipped_gpus << " GPU(s) skipped (drained or down)";
  o << "</p><ul>";
  for (auto& w : v.status_why) o << "<li>" << esc(w) << "</li>";
  o << "</ul>\n<h2>Nodes and GPUs</h2><table><tr><th>node</th><th>state</th><th>attempts</th><th>GPUs</th></tr>\n";
  for (auto& n : v.night.nodes) {
    o << "<tr><td>" << esc(n.name) << "</td><td class=\"" << (n.state() == "ran" ? "ok" : n.skipped ? "warn" : "bad") << "\">" << esc(n.state())
      << (n.retried() ? " (retried)" : "") << (n.skipped ? esc(" (" + n.skip_state + ": " + n.skip_reason + ")") : "") << "</td><td>";
    for (auto& a : n.attempts)
      o << esc("attempt " + std::to_string(a.attempt) + ": job " + a.job_id + " " + a.state + (a.exit >= 0 ? " exit " + std::to_string(a.exit) : "")) << "<br>";
    o << "</td><td><table>";
    for (auto& g : n.gpus)
      o << "<tr><td>" << g.index << "</td><td class=\"" << state_class(g.state) << "\">" << esc(to_string(g.state)) << "</td><td>"
        << esc(g.run ? f.runs[*g.run].label : g.why) << "</td></tr>";
    o << "</table></td></tr>\n";
  }
  o << "</table>\n<h2>Versions</h2><table><tr><th>of</th><th>version</th><th>GPUs</th></tr>";
  for (auto& r : v.versions) o << "<tr><td>" << esc(r.what) << "</td><td>" << esc(r.value) << "</td><td>" << r.runs.size() << "</td></tr>";
  o << "</table>\n<h2>The odd one out</h2><p><i>" << esc(v.odd.policy.rule()) << "</i></p>";
  if (v.odd.odd.empty() && v.odd.splits.empty()) o << "<p>No GPU differs from its peers.</p>";
  if (!v.odd.odd.empty()) {
    o << "<table><tr><th>GPU</th><th>since</th><th>case</th><th>this GPU</th><th>peers</th></tr>";
    for (auto& x : v.odd.odd) {
      auto it = v.since.find(x.run);
      const std::string who = esc(f.runs[x.run].label), since = it == v.since.end() ? "unknown" : esc(it->second.since);
      for (auto& d : x.verdicts)
        o << "<tr><td>" << who << "</td><td>" << since << "</td><td><code>" << esc(d.case_name) << "</code></td><td class=\""
          << (d.failing ? "bad" : "warn") << "\">" << esc(d.category) << "</td><td>" << d.majority_count << " of " << d.peers << ": "
          << esc(d.majority) << "</td></tr>";
      for (auto& m : x.measurements)
        o << "<tr><td>" << who << "</td><td>" << since << "</td><td><code>" << esc(m.case_name) << "</code> " << esc(m.measurement)
          << "</td><td class=\"warn\">" << number_text(m.value) << "</td><td>median " << number_text(m.median) << ", MAD "
          << number_text(m.mad) << "</td></tr>";
    }
    o << "</table>";
  }
  if (!v.odd.splits.empty()) {
    o << "<p>Splits without a majority (nobody named):</p><ul>";
    for (auto& s : v.odd.splits) {
      o << "<li><code>" << esc(s.case_name) << "</code> " << esc(s.measurement) << ":";
      for (auto& [run, val] : s.values) o << " " << esc(f.runs[run].label) << ": " << esc(val) << ";";
      o << "</li>";
    }
    o << "</ul>";
  }
  o << "\n<h2>Drain (printed, never run)</h2>";
  if (v.drain.empty()) o << "<p>None.</p>";
  else {
    o << "<pre>";
    for (auto& d : v.drain) o << esc(d.command()) << "\n";
    o << "</pre>";
  }
  for (auto& i : v.night.ignored) o << "<p>ignored: " << esc(i) << "</p>";
  o << "</body></html>\n";
  return o.str();
}

}  // namespace cuconform
