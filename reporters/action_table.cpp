#include "reporters/action_table.hpp"

#include "reporters/report_common.hpp"

namespace cuconform {

const std::vector<ActionRow>& action_rows() {
  // The order decides: the first row that applies. docs/fleet.md, "Actions", is this table.
  static const std::vector<ActionRow> rows = {
      {"preflight", Action::none,
       "the pre-flight stopped the GPU before the run: its action (replace for a failed row remap; reset for a lost "
       "GPU, the driver's recovery action GPU reset / node reboot / drain and reset, a pending row remap or page "
       "retirement, volatile uncorrected ECC errors; drain for the driver's drain-P2P, a GPU not accepting work "
       "under confidential computing, a failed NVLink fabric registration)"},
      {"row-remap-failed", Action::replace, "during the run a row remap failed"},
      {"unhealthy", Action::reset,
       "during the run the GPU became unhealthy: a critical Xid (any but the application Xids 13, 31, 43, 45), new "
       "uncorrected ECC errors, a pending row remap, the GPU lost"},
      {"no-gpu", Action::drain, "the run could not open the GPU (a driver, container or device problem)"},
      {"no-results", Action::rerun, "the GPU gave no results, or results that do not read"},
      {"new-failure", Action::drain, "a failure the known list does not explain (fail, timeout, crash)"},
      {"odd-verdict", Action::drain, "a failure its peers (same model, driver, code path, selection) do not have"},
      {"cut-off", Action::rerun, "the run was stopped before it finished (a signal, a time limit)"},
      {"flake", Action::watch, "a case failed and then passed on a re-run, and is not a known flake"},
      {"preflight-watch", Action::watch,
       "the pre-flight saw something to watch: NVLink links down, rows remapped or pages retired for uncorrectable "
       "errors, critical Xids in the kernel log since boot, a fabric registration not finished"},
      {"odd-measurement", Action::watch, "a measurement off its peers' (latency, ratio, throughput)"},
      {"toolchain", Action::watch, "a toolchain observation changed (what a compiler emits; not a conformance failure)"},
      {"ok", Action::none, "otherwise: passed, or failed only what the known list explains"},
  };
  return rows;
}

GpuAction decide_action(const ActionFacts& f) {
  GpuAction a;
  a.first_new_failure = f.first_new_failure;
  auto set = [&](const char* row, Action act, const std::string& why) {
    a.row = row;
    a.action = act;
    a.why = why;
    return a;
  };
  auto more = [](int n) { return n > 1 ? " (+" + std::to_string(n - 1) + " more)" : std::string(); };
  if (f.preflight_stopped) return set("preflight", f.preflight_action, "unhealthy before the run: " + f.preflight_reason);
  if (!f.unhealthy.empty()) {
    if (f.unhealthy.find("row remap failed") != std::string::npos)
      return set("row-remap-failed", Action::replace, "became unhealthy: " + f.unhealthy);
    return set("unhealthy", Action::reset, "became unhealthy: " + f.unhealthy);
  }
  if (f.no_gpu) return set("no-gpu", Action::drain, "the run could not open the GPU: " + f.no_gpu_why);
  if (!f.results) return set("no-results", Action::rerun, f.no_results_why.empty() ? "no results" : f.no_results_why);
  if (f.new_failures > 0) return set("new-failure", Action::drain, "new failure " + f.first_new_failure + more(f.new_failures));
  if (!f.odd_verdict.empty()) return set("odd-verdict", Action::drain, "fails what its peers pass: " + f.odd_verdict);
  if (!f.cut_off.empty()) return set("cut-off", Action::rerun, "the run was cut off (" + f.cut_off + ")");
  if (f.flakes > 0) return set("flake", Action::watch, "flake " + f.first_flake + more(f.flakes));
  if (f.preflight_action == Action::watch) return set("preflight-watch", Action::watch, "pre-flight: " + f.preflight_reason);
  if (!f.odd_measurement.empty()) return set("odd-measurement", Action::watch, "a measurement off its peers': " + f.odd_measurement);
  if (f.toolchain_changes > 0)
    return set("toolchain", Action::watch, std::to_string(f.toolchain_changes) + " toolchain observation(s) changed");
  return set("ok", Action::none,
             f.known_failures > 0 ? std::to_string(f.known_failures) + " known failure(s) only" : std::string("nothing failed"));
}

ActionFacts action_facts(const Fleet& f, std::size_t run, const KnownList* known) {
  ActionFacts x;
  const RunInfo& r = f.runs.at(run);
  if (r.has_device && !r.available()) {
    x.no_gpu = true;
    x.no_gpu_why = r.dev("error");
  }
  const Json dev = Json::parse(r.device_json);
  if (dev.contains("preflight") && dev["preflight"].is_object()) {
    const Json& p = dev["preflight"];
    Action act = Action::none;
    if (p.contains("action") && p["action"].is_string()) parse_action(p["action"].get<std::string>(), &act);
    x.preflight_action = act;
    x.preflight_reason = p.value("reason", std::string());
    x.preflight_stopped = p.contains("run") && p["run"].is_boolean() && !p["run"].get<bool>();
  }
  const Json health = Json::parse(r.health_json);
  if (health.contains("verdict") && health["verdict"].is_string()) {
    const std::string v = health["verdict"].get<std::string>();
    if (v.rfind("unhealthy: ", 0) == 0) x.unhealthy = v.substr(11);
  }
  x.cut_off = r.get(r.run, "cut_off.by");
  if (x.cut_off == "running") x.cut_off = "a snapshot of a run still going";
  for (const FailureGroup& g : failures_by_class(f, run, known)) {
    const int n = static_cast<int>(g.cases.size());
    if (g.known == FailureGroup::Known::no) {
      x.new_failures += n;
      if (x.first_new_failure.empty() && !g.cases.empty()) x.first_new_failure = g.cases.front()->name;
    } else if (g.known == FailureGroup::Known::failure) {
      x.known_failures += n;
    } else if (g.known == FailureGroup::Known::flake) {
      x.known_flakes += n;
    } else {
      x.toolchain_changes += n;
    }
  }
  for (const CaseRow& c : f.cases) {
    if (run >= c.by_run.size() || !c.by_run[run] || c.by_run[run]->verdict != Verdict::flake) continue;
    if (known && known->flake(c, &r)) continue;
    if (x.first_flake.empty()) x.first_flake = c.name;
    ++x.flakes;
  }
  return x;
}

Json action_json(const GpuAction& a) {
  Json j = {{"action", to_string(a.action)}, {"why", a.why}, {"row", a.row}};
  if (!a.first_new_failure.empty()) j["first_new_failure"] = a.first_new_failure;
  return j;
}

GpuAction node_action(const std::vector<std::pair<std::string, GpuAction>>& gpus) {
  GpuAction worst;
  worst.row = "ok";
  worst.why = "nothing to do";
  bool any = false;
  for (const auto& [name, a] : gpus) {
    if (any && severity(a.action) <= severity(worst.action)) continue;
    worst = a;
    worst.why = name + ": " + a.why;
    any = true;
  }
  return worst;
}

std::string drain_reason(const GpuAction& node) {
  std::string why = node.why;
  for (char& c : why)
    if (c == '"') c = '\'';
  return "cuconform action=" + std::string(to_string(node.action)) + " " + why;
}

}  // namespace cuconform
