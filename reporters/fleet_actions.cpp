#include "reporters/fleet_actions.hpp"

#include <sstream>

namespace cuconform {

namespace {

std::string quoted(std::string s) {
  for (char& c : s)
    if (c == '"' || c == '\n' || c == '\r') c = '\'';
  return "\"" + s + "\"";
}

}  // namespace

std::vector<NodeActionRow> fleet_actions(const FleetView& v) {
  std::vector<NodeActionRow> out;
  const FleetDigest& f = v.night.fleet;
  for (const NightNode& n : v.night.nodes) {
    NodeActionRow row;
    row.node = n.name;
    std::vector<std::pair<std::string, GpuAction>> named;
    for (const NightGpu& g : n.gpus) {
      GpuActionRow gr;
      gr.index = g.index;
      gr.run = g.run;
      if (g.state == NightGpu::State::missing || g.state == NightGpu::State::unreadable || !g.run) {
        gr.facts.results = false;
        gr.facts.no_results_why = g.state == NightGpu::State::unreadable ? "results unreadable: " + g.why : "GPU " + std::to_string(g.index) + " gave no results";
      } else {
        gr.facts = f.facts[*g.run].facts;
        if (g.state == NightGpu::State::no_gpu && !gr.facts.no_gpu) {
          gr.facts.no_gpu = true;
          gr.facts.no_gpu_why = g.why;
        }
        if (const OddGpu* o = v.odd.find(*g.run)) {
          for (const VerdictDiff& d : o->verdicts)
            if (d.failing && gr.facts.odd_verdict.empty()) gr.facts.odd_verdict = d.case_name + " (" + d.category + " where " + d.majority + ")";
          if (!o->measurements.empty())
            gr.facts.odd_measurement = o->measurements.front().case_name + ":" + o->measurements.front().measurement;
        }
      }
      gr.action = decide_action(gr.facts);
      named.emplace_back("gpu" + std::to_string(g.index), gr.action);
      row.gpus.push_back(gr);
    }
    row.action = node_action(named);
    if (n.state() != "ran") {
      GpuAction a;
      a.action = Action::rerun;
      a.row = "no-results";
      a.why = n.state() == "failed" ? "no results after " + std::to_string(n.attempts.size()) + " attempt(s)" : "planned, no job ran";
      if (severity(a.action) > severity(row.action.action) || row.gpus.empty()) row.action = a;
    }
    out.push_back(row);
  }
  return out;
}

std::string actions_text(const std::vector<NodeActionRow>& rows) {
  std::ostringstream o;
  for (const NodeActionRow& n : rows) {
    for (const GpuActionRow& g : n.gpus)
      o << "action node=" << n.node << " gpu=" << g.index << " action=" << to_string(g.action.action) << " row=" << g.action.row
        << " why=" << quoted(g.action.why) << "\n";
    o << "action node=" << n.node << " action=" << to_string(n.action.action) << " row=" << n.action.row
      << " why=" << quoted(n.action.why) << "\n";
  }
  return o.str();
}

Json actions_json(const std::vector<NodeActionRow>& rows, const FleetDigest& f) {
  Json nodes = Json::array();
  for (const NodeActionRow& n : rows) {
    Json gpus = Json::array();
    for (const GpuActionRow& g : n.gpus) {
      Json j = action_json(g.action);
      j["index"] = g.index;
      if (g.run) j["uuid"] = f.runs[*g.run].dev("uuid");
      gpus.push_back(j);
    }
    Json j = action_json(n.action);
    j["node"] = n.node;
    j["gpus"] = gpus;
    nodes.push_back(j);
  }
  return Json{{"schema", "cuconform-actions/1"}, {"nodes", nodes}};
}

void name_actions_in_drain_lines(FleetView& v, const std::vector<NodeActionRow>& rows) {
  for (const NodeActionRow& n : rows) {
    // The action and its reason first, short: the scheduler's reason field is cut at 240 characters.
    std::string why = n.action.why;
    if (why.size() > 100) why = why.substr(0, 97) + "...";
    const std::string head = "action=" + std::string(to_string(n.action.action)) + " " + why;
    bool found = false;
    for (DrainLine& d : v.drain)
      if (d.node == n.node) {
        d.reason = head + "; " + d.reason;
        found = true;
      }
    if (!found && takes_out_of_service(n.action.action)) v.drain.push_back({n.node, head, v.night.name});
  }
}

}  // namespace cuconform
