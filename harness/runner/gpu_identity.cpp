#include "harness/runner/gpu_identity.hpp"

#include <unistd.h>

#include <cstdlib>

#include "harness/driver/nvml.hpp"

namespace cuconform {

Json gpu_identity(const NodeGpu& gpu, const std::string& node) {
  Json j = {{"ordinal", gpu.ordinal}, {"uuid", gpu.uuid}, {"pci_bus_id", gpu.pci_bus_id}};
  std::string why;
  if (auto id = nvml_identity(gpu.uuid, &why)) {
    if (!id->serial.empty()) j["serial"] = id->serial;
    j["vbios"] = id->vbios;
    j["ecc_mode"] = id->ecc_mode;
    j["mig_mode"] = id->mig_mode;
    j["persistence_mode"] = id->persistence_mode;
    const GpuHealth h = nvml_health(gpu.uuid);
    if (h.readable) j["clocks_at_start"] = {{"sm_mhz", h.sm_mhz}, {"mem_mhz", h.mem_mhz}};
    j["nvml"] = "available";
  } else {
    j["nvml"] = why;
  }
  j["node"] = node;
  return j;
}

std::string with_identity(const std::string& device_json, const Json& identity) {
  Json d = device_json.empty() ? Json::object() : Json::parse(device_json);
  for (auto& [k, v] : identity.items()) {
    // The worker's own answers win where it has them (a no-GPU worker says available: false).
    if (k == "ordinal" || !d.contains(k) || d[k].is_null() || (d[k].is_string() && d[k].get<std::string>().empty()))
      d[k] = v;
  }
  return json_text(d, false);
}

Json job_from_environment() {
  auto env = [](const char* k) {
    const char* v = std::getenv(k);
    return std::string(v ? v : "");
  };
  Json j;
  if (!env("SLURM_JOB_ID").empty()) {
    j = {{"scheduler", "slurm"}, {"job_id", env("SLURM_JOB_ID")}};
    if (!env("SLURM_ARRAY_JOB_ID").empty()) j["array_job_id"] = env("SLURM_ARRAY_JOB_ID");
    if (!env("SLURM_ARRAY_TASK_ID").empty()) j["array_task_id"] = env("SLURM_ARRAY_TASK_ID");
    if (!env("SLURM_STEP_ID").empty()) j["step_id"] = env("SLURM_STEP_ID");
    j["node"] = !env("SLURMD_NODENAME").empty() ? env("SLURMD_NODENAME") : env("SLURM_NODELIST");
  } else if (!env("KUBERNETES_SERVICE_HOST").empty()) {
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    j = {{"scheduler", "kubernetes"}, {"pod", !env("POD_NAME").empty() ? env("POD_NAME") : std::string(host)}};
    for (auto [key, var] : {std::pair{"namespace", "POD_NAMESPACE"}, {"node", "NODE_NAME"}, {"job", "JOB_NAME"},
                            {"completion_index", "JOB_COMPLETION_INDEX"}})
      if (!env(var).empty()) j[key] = env(var);
  }
  return j;
}

}  // namespace cuconform
