#include "reporters/results_json.hpp"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "harness/util/json.hpp"
#include "harness/util/outcome_json.hpp"

namespace cuconform {

std::string results_json(const RunReport& run) {
  JsonWriter w(true);
  w.begin_object();
  w.field("schema", kResultsSchema);
  w.key("suite").begin_object();
  w.field("version", run.suite_version).field("commit", run.suite_commit);
  w.field("built_with_cuda", run.toolkit).field("archs", run.archs).field("specs_dir", run.specs_dir);
  w.end_object();
  w.key("run").begin_object();
  w.field("host", run.host).field("started", run.started_utc).field("finished", run.finished_utc);
  w.field("wall_s", run.wall_s).field("workers_started", run.workers_started);
  w.key("selection").begin_array();
  for (auto& s : run.selection) w.value(s);
  w.end_array();
  w.key("toolchain").begin_object();
  w.field("codegen", run.toolchain.codegen).field("compiler", run.toolchain.compiler);
  if (!run.toolchain.ptxas.empty()) w.field("ptxas", run.toolchain.ptxas);
  if (!run.toolchain.max_ptx.empty()) w.field("max_ptx", run.toolchain.max_ptx);
  if (!run.toolchain.disassembler.empty()) w.field("disassembler", run.toolchain.disassembler);
  w.end_object();
  const SuperviseTiming& t = run.timing;
  w.key("timing").begin_object();
  w.field("gpu_lane_s", t.gpu_lane_s).field("host_lanes_s", t.host_lanes_s).field("host_lanes", t.host_lane_count);
  w.field("worker_start_s", t.worker_start_s).field("catalog_s", t.catalog_s).field("gpu_open_s", t.gpu_open_s);
  w.field("module_load_s", t.module_load_s).field("gpu_cases_s", t.gpu_cases_s);
  w.field("isolated_s", t.isolated_s).field("isolated_cases", t.isolated_cases);
  w.field("host_tool_s", t.host_tool_s).field("host_cases_s", t.host_cases_s).field("report_s", run.report_s);
  w.end_object();
  if (!run.cut_off.empty()) {
    w.key("cut_off").begin_object();
    w.field("by", run.cut_off).field("finished", static_cast<int>(run.entries.size()));
    w.field("of", static_cast<int>(run.entries.size() + run.not_run.size()));
    w.key("not_run").begin_array();
    for (auto& n : run.not_run) w.value(n);
    w.end_array();
    w.end_object();
  }
  w.end_object();
  w.key("device");
  if (run.device.json.empty()) {
    w.begin_object().field("available", false).field("error", run.device.error.empty() ? "no case needed a GPU" : run.device.error).end_object();
  } else {
    w.raw(run.device.json);  // the worker's DEVICE object, verbatim
  }
  w.key("summary").begin_object();
  w.field("total", static_cast<int>(run.entries.size()));
  for (auto& [k, v] : run.counts()) w.field(k, v);
  w.end_object();
  w.key("cases").begin_array();
  for (auto& e : run.entries) {
    const Rule& r = *e.c->rule;
    const Observation& o = e.r.obs;
    w.begin_object();
    w.field("name", e.c->name).field("rule", r.id).field("area", r.area).field("kind", to_string(r.kind));
    w.field("min_cc", r.min_cc.str());
    if (!r.arch.empty()) w.field("arch", r.arch);
    w.field("source", r.source);
    w.key("params").begin_object();
    for (auto& [k, v] : e.c->params) w.field(k, v);
    w.end_object();
    w.key("tags").begin_array();
    for (auto& t : e.c->tags) w.value(t);
    w.end_array();
    write_outcome_fields(w, o);
    w.field("duration_s", e.r.duration_s);
    w.end_object();
  }
  w.end_array();
  w.end_object();
  return w.str() + "\n";
}

void write_file_atomically(const std::string& path, const std::string& content) {
  namespace fs = std::filesystem;
  fs::path p(path);
  if (p.has_parent_path()) fs::create_directories(p.parent_path());
  std::string tmp = path + ".tmp." + std::to_string(getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error(tmp + ": cannot write");
    out << content;
    out.flush();
    if (!out) throw std::runtime_error(tmp + ": write failed");
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    throw std::runtime_error(path + ": rename failed");
  }
}

}  // namespace cuconform
