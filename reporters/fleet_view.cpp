#include "reporters/fleet_view.hpp"

#include <algorithm>
#include <set>
#include <sstream>

namespace cuconform {

namespace {

int rank(int code) {  // the order a night's exit codes are combined in: 2 > 4 > 1 > 3 > 0
  switch (code) {
    case 0: return 0;
    case 3: return 1;
    case 1: return 2;
    case 4: return 3;
    default: return 4;
  }
}

std::string cut(const std::string& s, std::size_t n) { return s.size() <= n ? s : s.substr(0, n - 3) + "..."; }

// A drain reason past Slurm's length: whole reasons ("; "-separated) that fit, and how many more;
// a first reason longer than the limit alone is cut before its parenthesis, never inside it.
std::string cut_at_boundary(const std::string& s, std::size_t n) {
  if (s.size() <= n) return s;
  std::size_t end = 0, more = 0;
  for (std::size_t at = s.find("; "); at != std::string::npos; at = s.find("; ", at + 2)) {
    if (at + 24 <= n) end = at;
  }
  if (end == 0) {
    std::size_t paren = s.rfind(" (", n - 4);
    return s.substr(0, paren != std::string::npos && paren > 0 ? paren : n - 3) + "...";
  }
  for (std::size_t at = s.find("; ", end); at != std::string::npos; at = s.find("; ", at + 2)) ++more;
  return s.substr(0, end) + "; and " + std::to_string(more) + " more";
}

std::string gpu_word(const NightNode& n, const NightGpu& g, const FleetDigest& f) {
  if (g.run) return "GPU " + std::to_string(g.index) + " (" + f.runs[*g.run].label + ")";
  return "GPU " + std::to_string(g.index) + " of " + n.name;
}

std::string attempt_text(const NightAttempt& a) {
  std::string s = "attempt " + std::to_string(a.attempt) + ": job " + (a.job_id.empty() ? "?" : a.job_id) + " " + a.state;
  return a.exit >= 0 ? s + ", exit " + std::to_string(a.exit) : s;
}

void add_status(FleetView& v, int code, const std::string& why) {
  v.status = worst_exit(v.status, code);
  v.status_why.push_back(std::to_string(code) + ": " + why);
}

// The drain reasons of one node; empty: keep it in service.
std::vector<std::string> drain_reasons(const FleetView& v, const NightNode& n) {
  std::vector<std::string> r;
  const FleetDigest& f = v.night.fleet;
  if (n.skipped) return r;  // already out of service: the operator's reason stays
  if (n.state() == "failed") {
    const NightAttempt& last = n.attempts.back();
    r.push_back("no results after " + std::to_string(n.attempts.size()) + " attempt(s), last " + attempt_text(last));
  } else if (n.state() == "missing") {
    r.push_back("planned, no job ran");
  }
  // GPUs without results first (what a repair looks at), then unhealthy and odd ones; GPUs that
  // saw no GPU at all are one reason with their indices (usually the driver, not the GPUs).
  std::string no_gpu, no_gpu_why;
  for (auto& g : n.gpus) {
    if (g.state == NightGpu::State::missing) r.push_back("GPU " + std::to_string(g.index) + " gave no results");
    if (g.state == NightGpu::State::unreadable) r.push_back("GPU " + std::to_string(g.index) + ": results unreadable");
    if (g.state == NightGpu::State::no_gpu) no_gpu += (no_gpu.empty() ? "" : ",") + std::to_string(g.index), no_gpu_why = g.why;
  }
  if (n.run_exit == 4) r.push_back("a GPU became unhealthy during the run (exit 4)");
  for (auto& g : n.gpus) {
    if (!g.run) continue;
    const OddGpu* o = v.odd.find(*g.run);
    if (!o || !o->failing()) continue;
    int fails = 0;
    std::string first;
    for (auto& d : o->verdicts)
      if (d.failing && fails++ == 0) first = d.case_name;
    r.push_back(f.runs[*g.run].label + " fails " + std::to_string(fails) + " case(s) its peers pass (" + first + ")");
  }
  if (!no_gpu.empty()) r.push_back("GPU " + no_gpu + ": no GPU opened (" + cut(no_gpu_why, 60) + ")");
  return r;
}

std::string node_line(const FleetView& v, const NightNode& n) {
  std::ostringstream o;
  o << n.name << ": " << n.state();
  if (n.skipped) {
    o << " (" << n.skip_state << ": " << (n.skip_reason.empty() ? "no reason given" : n.skip_reason) << "), " << n.expected_gpus() << " GPU(s) not run";
    return o.str();
  }
  if (n.complete) o << " (run exit " << n.run_exit << (n.job_id.empty() ? "" : ", job " + n.job_id) << ")";
  if (n.retried()) o << ", RETRIED " << n.attempts.size() << " attempts";
  int want = n.expected_gpus(), ok = 0;
  for (auto& g : n.gpus) ok += g.state == NightGpu::State::ran;
  if (n.complete || want > 0) o << ", " << ok << " of " << want << " GPU(s) ran";
  (void)v;
  return o.str();
}

}  // namespace

FleetCounts fleet_counts(const Night& night) {
  FleetCounts c;
  c.nodes = static_cast<int>(night.nodes.size());
  for (auto& n : night.nodes) {
    if (n.skipped) {
      c.skipped_nodes++, c.skipped_gpus += std::max(0, n.expected_gpus());
      continue;
    }
    int found = 0;
    for (auto& g : n.gpus) found++, c.ran += g.state == NightGpu::State::ran;
    // Planned GPUs of a node with no results count too: a failed node's GPUs did not run.
    c.planned += std::max(found, n.expected_gpus());
  }
  return c;
}

int worst_exit(int a, int b) { return rank(a) >= rank(b) ? (rank(a) == 4 ? 2 : a) : (rank(b) == 4 ? 2 : b); }

std::string DrainLine::command() const {
  std::string why = "cuconform " + night + ": " + reason;
  for (char& c : why)
    if (c == '"' || c == '\n' || c == '\r' || c == '\\') c = '\'';
  return "scontrol update nodename=" + node + " state=drain reason=\"" + cut_at_boundary(why, 240) + "\"";
}

std::vector<VersionRow> fleet_versions(const FleetDigest& f) {
  std::vector<VersionRow> rows;
  auto add = [&](const std::string& what, std::string value, std::size_t run) {
    if (value.empty()) value = "not recorded";
    for (auto& r : rows)
      if (r.what == what && r.value == value) return r.runs.push_back(run);
    rows.push_back({what, value, {run}});
  };
  for (std::size_t i = 0; i < f.runs.size(); ++i) {
    const RunInfo& r = f.runs[i];
    if (!r.available()) continue;
    add("GPU model", r.dev("name"), i);
    add("driver", r.dev("driver_version"), i);
    add("CUDA (driver)", r.dev("driver_cuda_version"), i);
    add("VBIOS", r.dev("vbios"), i);
    add("toolkit (built with)", r.get(r.suite, "built_with_cuda"), i);
    add("code path", r.toolchain_line(), i);
    add("suite", r.get(r.suite, "version") + " " + r.get(r.suite, "commit"), i);
  }
  return rows;
}

FleetView build_fleet_view(Night night, const OddPolicy& p) {
  FleetView v;
  v.night = std::move(night);
  const FleetDigest& f = v.night.fleet;
  v.odd = find_odd_ones(f, p);
  v.versions = fleet_versions(f);
  if (v.night.nodes.empty()) add_status(v, 2, "no node in " + v.night.name);
  else if (std::all_of(v.night.nodes.begin(), v.night.nodes.end(), [](const NightNode& n) { return n.skipped; }))
    add_status(v, 3, "no node ran: every node was drained or down at planning (skipped.tsv)");
  for (auto& n : v.night.nodes) {
    if (n.skipped) continue;  // drained or down before the night: listed, not judged
    if (n.state() != "ran") add_status(v, 1, n.name + ": " + n.state());
    if (n.complete && n.run_exit > 0 && n.run_exit != 1 && n.run_exit != 3) add_status(v, n.run_exit == 4 ? 4 : 2, n.name + ": cuconform run exited " + std::to_string(n.run_exit));
    for (auto& g : n.gpus) {
      if (g.state == NightGpu::State::missing) add_status(v, 1, n.name + ": GPU " + std::to_string(g.index) + " missing");
      if (g.state == NightGpu::State::unreadable) add_status(v, 2, g.why);
      if (g.state == NightGpu::State::no_gpu) add_status(v, 3, n.name + ": GPU " + std::to_string(g.index) + " saw no GPU");
    }
    auto reasons = drain_reasons(v, n);
    if (!reasons.empty()) {
      std::string joined;
      for (auto& r : reasons) joined += (joined.empty() ? "" : "; ") + r;
      v.drain.push_back({n.name, joined, v.night.name});
    }
  }
  for (auto& o : v.odd.odd)
    if (!o.verdicts.empty()) add_status(v, 1, f.runs[o.run].label + " differs from its peers");
  return v;
}

std::string fleet_view_text(const FleetView& v) {
  const FleetDigest& f = v.night.fleet;
  std::ostringstream o;
  const FleetCounts c = fleet_counts(v.night);
  o << "fleet " << v.night.name << ": " << c.nodes << " node(s), " << c.ran << " of " << c.planned << " planned GPU(s) ran";
  if (c.skipped_nodes) o << "; " << c.skipped_nodes << " node(s) with " << c.skipped_gpus << " GPU(s) skipped (drained or down)";
  o << "\n\nnodes\n";
  for (auto& n : v.night.nodes) {
    o << "  " << node_line(v, n) << "\n";
    for (auto& a : n.attempts) o << "    " << attempt_text(a) << "\n";
    for (auto& g : n.gpus)
      if (g.state != NightGpu::State::ran)
        o << "    " << to_string(g.state) << ": " << gpu_word(n, g, f) << (g.why.empty() ? "" : ": " + cut(g.why, 160)) << "\n";
  }
  o << "\nnot run\n";
  bool any = false;
  for (auto& n : v.night.nodes) {
    if (n.skipped) o << "  node " << n.name << ": skipped at planning (" << n.skip_state << ": " << n.skip_reason << ")\n", any = true;
    else if (n.state() != "ran") o << "  node " << n.name << ": " << n.state() << "\n", any = true;
    for (auto& g : n.gpus)
      if (g.state == NightGpu::State::missing || g.state == NightGpu::State::unreadable)
        o << "  " << to_string(g.state) << ": " << gpu_word(n, g, f) << "\n", any = true;
  }
  if (!any) o << "  (none: every planned node and GPU has results)\n";
  o << "\nretried\n";
  any = false;
  for (auto& n : v.night.nodes)
    if (n.retried()) o << "  " << n.name << ": " << n.attempts.size() << " attempts, " << n.state() << "\n", any = true;
  if (!any) o << "  (none)\n";
  o << "\nversions\n";
  for (auto& r : v.versions) o << "  " << r.what << ": " << r.value << " (" << r.runs.size() << " GPU(s))\n";
  if (v.versions.empty()) o << "  (no GPU opened: none recorded)\n";
  o << "\n" << odd_text(f.runs, v.odd);
  if (!v.odd.odd.empty()) {
    o << "  since (" << (v.history_given ? v.history_note : "no history database given: --history DB") << ")\n";
    for (auto& x : v.odd.odd) {
      auto it = v.since.find(x.run);
      o << "    " << f.runs[x.run].label << ": "
        << (it == v.since.end() ? "unknown" : it->second.since + " (" + std::to_string(it->second.runs) + " stored run(s))") << "\n";
    }
  }
  o << "\ndrain (printed, never run)\n";
  for (auto& d : v.drain) o << "  " << d.command() << "\n";
  if (v.drain.empty()) o << "  (none)\n";
  for (auto& i : v.night.ignored) o << "ignored: " << i << "\n";
  o << "\nstatus " << v.status << "\n";
  for (auto& w : v.status_why) o << "  " << w << "\n";
  return o.str();
}

std::string fleet_view_markdown(const FleetView& v) {
  const FleetDigest& f = v.night.fleet;
  std::ostringstream o;
  o << "## Fleet " << v.night.name << " (status " << v.status << ")\n\n| node | state | attempts | GPUs |\n| --- | --- | --- | --- |\n";
  for (auto& n : v.night.nodes) {
    std::string gpus;
    for (auto& g : n.gpus) gpus += (gpus.empty() ? "" : ", ") + std::to_string(g.index) + ": " + to_string(g.state);
    std::string att;
    for (auto& a : n.attempts) att += (att.empty() ? "" : "; ") + attempt_text(a);
    std::string state = n.state() + (n.retried() ? " (retried)" : "");
    if (n.skipped) state += " (" + n.skip_state + ": " + n.skip_reason + ")";
    o << "| " << n.name << " | " << state << " | " << att << " | " << gpus << " |\n";
  }
  o << "\n### Versions\n\n| of | version | GPUs |\n| --- | --- | --- |\n";
  for (auto& r : v.versions) o << "| " << r.what << " | " << r.value << " | " << r.runs.size() << " |\n";
  o << "\n" << odd_markdown(f.runs, v.odd);
  if (!v.odd.odd.empty()) {
    o << "Since (" << (v.history_given ? v.history_note : "no history database given") << "):\n\n";
    for (auto& x : v.odd.odd) {
      auto it = v.since.find(x.run);
      o << "- " << f.runs[x.run].label << ": " << (it == v.since.end() ? "unknown" : it->second.since) << "\n";
    }
    o << "\n";
  }
  o << "### Drain (printed, never run)\n\n";
  if (v.drain.empty()) o << "None.\n";
  else {
    o << "```sh\n";
    for (auto& d : v.drain) o << d.command() << "\n";
    o << "```\n";
  }
  return o.str();
}

std::string fleet_view_json(const FleetView& v) {
  const FleetDigest& f = v.night.fleet;
  const FleetCounts c = fleet_counts(v.night);
  Json j = {{"schema", "cuconform-fleet-view/1"}, {"night", v.night.name}, {"dir", v.night.dir}, {"status", v.status}, {"status_why", v.status_why},
            {"counts", {{"nodes", c.nodes}, {"planned_gpus", c.planned}, {"ran_gpus", c.ran}, {"skipped_nodes", c.skipped_nodes}, {"skipped_gpus", c.skipped_gpus}}}};
  Json& nodes = j["nodes"] = Json::array();
  for (auto& n : v.night.nodes) {
    Json node = {{"name", n.name}, {"state", n.state()}, {"retried", n.retried()}, {"planned_gpus", n.planned_gpus},
                 {"skipped", n.skipped ? Json{{"state", n.skip_state}, {"reason", n.skip_reason}} : Json()},
                 {"run_exit", n.run_exit}, {"job_id", n.job_id}};
    Json& att = node["attempts"] = Json::array();
    for (auto& a : n.attempts) att.push_back({{"attempt", a.attempt}, {"job_id", a.job_id}, {"state", a.state}, {"exit", a.exit}});
    Json& gs = node["gpus"] = Json::array();
    for (auto& g : n.gpus) {
      Json x = {{"index", g.index}, {"state", to_string(g.state)}, {"file", g.file}, {"why", g.why}};
      if (g.run) x["gpu"] = f.runs[*g.run].label, x["uuid"] = f.runs[*g.run].dev("uuid");
      gs.push_back(std::move(x));
    }
    nodes.push_back(std::move(node));
  }
  Json& vers = j["versions"] = Json::array();
  for (auto& r : v.versions) vers.push_back({{"of", r.what}, {"value", r.value}, {"gpus", r.runs.size()}});
  j["odd_one_out"] = odd_json(f.runs, v.odd);
  Json& since = j["since"] = Json::object();
  for (auto& [run, s] : v.since) since[f.runs[run].label] = {{"since", s.since}, {"runs", s.runs}, {"detail", s.detail}};
  j["history"] = v.history_given ? v.history_note : "";
  Json& drain = j["drain"] = Json::array();
  for (auto& d : v.drain) drain.push_back({{"node", d.node}, {"reason", d.reason}, {"command", d.command()}});
  j["ignored"] = v.night.ignored;
  return json_text(j, true);
}

}  // namespace cuconform
