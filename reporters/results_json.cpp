#include "reporters/results_json.hpp"

#include "harness/util/outcome_json.hpp"

namespace cuconform {

namespace {

Json toolchain_json(const RunReport::Toolchain& t) {
  Json j = {{"codegen", t.codegen}, {"compiler", t.compiler}};
  if (!t.ptxas.empty()) j["ptxas"] = t.ptxas;
  if (!t.ptxas_version.empty()) j["ptxas_version"] = t.ptxas_version;
  if (!t.max_ptx.empty()) j["max_ptx"] = t.max_ptx;
  if (!t.disassembler.empty()) j["disassembler"] = t.disassembler;
  return j;
}

// The executor's step records (supervisor.hpp StepTiming), in the order the steps started.
Json steps_json(const SuperviseTiming& t) {
  Json a = Json::array();
  for (const StepTiming& s : t.steps) {
    Json j = {{"phase", s.phase},     {"cases", s.cases},        {"finished", s.finished}, {"workers", s.workers},
              {"lanes", s.lanes},     {"start_s", json_number(s.start_s)}, {"wall_s", json_number(s.wall_s)}};
    if (s.stopped != StopKind::none) j["stopped"] = to_string(s.stopped);
    a.push_back(j);
  }
  return a;
}

Json timing_json(const RunReport& run) {
  const SuperviseTiming& t = run.timing;
  return {{"steps", steps_json(t)},
          {"gpu_lane_s", json_number(t.gpu_lane_s)},
          {"parallel_phase_s", json_number(t.parallel_phase_s)},
          {"alone_phase_s", json_number(t.alone_phase_s)},
          {"isolated_phase_s", json_number(t.isolated_phase_s)},
          {"isolated_alone", t.isolated_alone},
          {"alone_cases", t.alone_cases},
          {"gpu_lanes", t.gpu_lane_count},
          {"gpu_lanes_why", t.gpu_lanes_why},
          {"host_lanes_s", json_number(t.host_lanes_s)},
          {"host_lanes", t.host_lane_count},
          {"worker_start_s", json_number(t.worker_start_s)},
          {"catalog_s", json_number(t.catalog_s)},
          {"gpu_open_s", json_number(t.gpu_open_s)},
          {"module_load_s", json_number(t.module_load_s)},
          {"gpu_cases_s", json_number(t.gpu_cases_s)},
          {"isolated_s", json_number(t.isolated_s)},
          {"isolated_cases", t.isolated_cases},
          {"isolated_workers", t.isolated_workers},
          {"isolated_start_s", json_number(t.isolated_start_s)},
          {"isolated_not_ready_s", json_number(t.isolated_not_ready_s)},
          {"isolated_go_s", json_number(t.isolated_go_s)},
          {"isolated_run_s", json_number(t.isolated_run_s)},
          {"isolated_exit_s", json_number(t.isolated_exit_s)},
          {"host_tool_s", json_number(t.host_tool_s)},
          {"host_cases_s", json_number(t.host_cases_s)},
          {"report_s", json_number(run.report_s)}};
}

Json run_json(const RunReport& run) {
  Json j = {{"host", run.host},
            {"started", run.started_utc},
            {"finished", run.finished_utc},
            {"wall_s", json_number(run.wall_s)},
            {"workers_started", run.workers_started},
            {"selection", run.selection},
            {"toolchain", toolchain_json(run.toolchain)},
            {"timing", timing_json(run)}};
  if (!run.shuffle_seed.empty()) j["shuffle_seed"] = run.shuffle_seed;
  if (!run.job_json.empty()) j["job"] = Json::parse(run.job_json);
  if (!run.cut_off.empty())
    j["cut_off"] = {{"by", run.cut_off},
                    {"finished", run.entries.size()},
                    {"of", run.entries.size() + run.not_run.size()},
                    {"not_run", run.not_run}};
  return j;
}

Json device_json(const DeviceReport& d) {
  if (d.json.empty()) return {{"available", false}, {"error", d.error.empty() ? "no case needed a GPU" : d.error}};
  return Json::parse(d.json);  // the worker's DEVICE object, as it wrote it (decode_device read it)
}

Json case_json(const RunReport::Entry& e) {
  const Rule& r = *e.c->rule;
  Json j = {{"name", e.c->name}, {"rule", r.id}, {"area", r.area}, {"kind", to_string(r.kind)}, {"min_cc", r.min_cc.str()}};
  if (!r.arch.empty()) j["arch"] = r.arch;
  j["basis"] = to_string(r.basis);
  j["tier"] = to_string(r.tier);
  if (r.shadow) j["shadow"] = true;
  j["definition"] = r.definition;
  j["source"] = r.source;
  Json& params = j["params"] = Json::object();
  for (auto& [k, v] : e.c->params) params[k] = v;
  j["tags"] = e.c->tags;
  if (!r.relies.empty()) j["relies"] = r.relies;
  write_outcome_fields(j, e.r.obs);
  j["duration_s"] = json_number(e.r.duration_s);
  if (e.r.worker) {
    j["worker"] = e.r.worker;
    j["order"] = e.r.order;
  }
  return j;
}

}  // namespace

std::string results_json(const RunReport& run) {
  Json j = {{"schema", kResultsSchema},
            {"suite",
             {{"version", run.suite_version},
              {"commit", run.suite_commit},
              {"built_with_cuda", run.toolkit},
              {"archs", run.archs},
              {"specs_dir", run.specs_dir}}},
            {"run", run_json(run)},
            {"device", device_json(run.device)}};
  if (!run.health_json.empty()) j["health"] = Json::parse(run.health_json);
  if (!run.action_json.empty()) j["action"] = Json::parse(run.action_json);
  Json& summary = j["summary"] = {{"total", run.entries.size()}};
  for (auto& [k, v] : run.counts()) summary[k] = v;
  Json& cases = j["cases"] = Json::array();
  for (auto& e : run.entries) cases.push_back(case_json(e));
  return json_text(j, true);
}

}  // namespace cuconform
