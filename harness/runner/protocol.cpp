#include "harness/runner/protocol.hpp"

#include <yaml-cpp/yaml.h>

#include <dlfcn.h>

#include <fstream>
#include <regex>

#include "harness/driver/gpu.hpp"
#include "harness/util/json.hpp"
#include "harness/util/outcome_json.hpp"

namespace cuconform {

// The driver's own version ("580.159.04"): the Driver API only tells the CUDA version, so
// ask NVML (opened at run time like libcuda), then the kernel module's /proc file.
static std::string kernel_driver_version() {
  if (void* nvml = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL)) {
    auto init = reinterpret_cast<int (*)()>(dlsym(nvml, "nvmlInit_v2"));
    auto get = reinterpret_cast<int (*)(char*, unsigned)>(dlsym(nvml, "nvmlSystemGetDriverVersion"));
    char buf[96] = {};
    if (init && get && init() == 0 && get(buf, sizeof buf) == 0 && buf[0]) return buf;
  }
  std::ifstream in("/proc/driver/nvidia/version");
  std::string line;
  std::getline(in, line);
  std::smatch m;
  static const std::regex re("Kernel Module\\s+([0-9.]+)");
  return std::regex_search(line, m, re) ? m[1].str() : "";
}

std::string encode_result(const CaseResult& r) {
  JsonWriter w;
  w.begin_object();
  w.field("name", r.name);
  write_outcome_fields(w, r.obs);
  w.field("duration_s", r.duration_s).field("context_poisoned", r.obs.context_poisoned);
  w.field("module_load_s", r.module_load_s).field("tool_s", r.tool_s);
  w.end_object();
  return w.str();
}

CaseResult decode_result(const std::string& json) {
  YAML::Node n = parse_json(json, "worker result");
  CaseResult r;
  r.name = n["name"].as<std::string>();
  if (!parse_verdict(n["verdict"].as<std::string>(), &r.obs.verdict))
    throw std::runtime_error("worker result: unknown verdict " + n["verdict"].as<std::string>());
  r.obs.reason = n["reason"].as<std::string>("");
  r.obs.expected = n["expected"].as<std::string>("");
  r.obs.observed = n["observed"].as<std::string>("");
  for (auto it : n["measurements"])
    r.obs.measurements.emplace_back(it.first.as<std::string>(),
                                    it.second.IsNull() ? std::nan("") : it.second.as<double>());
  for (auto it : n["facts"]) r.obs.facts.emplace_back(it.first.as<std::string>(), it.second.as<std::string>(""));
  r.duration_s = n["duration_s"].as<double>(0);
  r.obs.context_poisoned = n["context_poisoned"].as<bool>(false);
  r.module_load_s = n["module_load_s"].as<double>(0);
  r.tool_s = n["tool_s"].as<double>(0);
  return r;
}

std::string encode_device(const Gpu* gpu, const std::string& why_not) {
  JsonWriter w;
  w.begin_object();
  if (!gpu) {
    w.field("available", false).field("error", why_not);
  } else {
    const DeviceInfo& d = gpu->info();
    int dv = d.driver_version;
    w.field("available", true).field("ordinal", d.ordinal).field("name", d.name).field("uuid", d.uuid);
    w.field("cc", d.cc()).field("sm_count", d.sm_count).field("clock_khz", d.clock_khz);
    w.field("mem_clock_khz", d.mem_clock_khz).field("mem_bus_bits", d.mem_bus_bits);
    w.field("l2_bytes", d.l2_bytes).field("smem_per_block_optin", d.smem_per_block_optin);
    w.field("total_mem_bytes", static_cast<double>(d.total_mem));
    w.field("driver_cuda_version", std::to_string(dv / 1000) + "." + std::to_string(dv % 1000 / 10));
    w.field("code_path", d.code_path);
    w.field("driver_version", kernel_driver_version());
  }
  w.end_object();
  return w.str();
}

DeviceReport decode_device(const std::string& json) {
  DeviceReport d;
  d.json = json;
  YAML::Node n = parse_json(json, "worker device");
  d.available = n["available"].as<bool>(false);
  d.error = n["error"].as<std::string>("");
  d.name = n["name"].as<std::string>("");
  d.cc = n["cc"].as<std::string>("");
  d.driver = n["driver_version"].as<std::string>("");
  if (d.driver.empty()) d.driver = "CUDA " + n["driver_cuda_version"].as<std::string>("?");
  return d;
}

}  // namespace cuconform
