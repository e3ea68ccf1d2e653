#include "harness/runner/protocol.hpp"

#include "harness/driver/gpu.hpp"
#include "harness/driver/nvml.hpp"
#include "harness/util/outcome_json.hpp"

namespace cuconform {

std::string encode_result(const CaseResult& r) {
  Json j = {{"name", r.name}};
  write_outcome_fields(j, r.obs);
  j["duration_s"] = json_number(r.duration_s);
  j["context_poisoned"] = r.obs.context_poisoned;
  j["module_load_s"] = json_number(r.module_load_s);
  j["tool_s"] = json_number(r.tool_s);
  return json_text(j, false);
}

CaseResult decode_result(const std::string& json) {
  JsonDoc doc(json, "worker result");
  JsonField n = doc.root();
  CaseResult r;
  r.name = n["name"].required().str();
  read_outcome_fields(n, &r.obs);
  r.obs.context_poisoned = n["context_poisoned"].boolean();
  // Timings the worker could not take read as 0, not NaN: they are summed into the run's.
  auto seconds = [&](const char* key) { return n[key].is_null() ? 0.0 : n[key].num(); };
  r.duration_s = seconds("duration_s");
  r.module_load_s = seconds("module_load_s");
  r.tool_s = seconds("tool_s");
  return r;
}

std::string encode_device(const Gpu* gpu, const std::string& why_not) {
  Json j;
  if (!gpu) {
    j = {{"available", false}, {"error", why_not}};
  } else {
    const DeviceInfo& d = gpu->info();
    int dv = d.driver_version;
    j = {{"available", true},
         {"ordinal", d.ordinal},
         {"name", d.name},
         {"uuid", d.uuid},
         {"pci_bus_id", d.pci_bus_id},
         {"ecc_enabled", d.ecc_enabled},
         {"cc", d.cc()},
         {"sm_count", d.sm_count},
         {"clock_khz", d.clock_khz},
         {"mem_clock_khz", d.mem_clock_khz},
         {"mem_bus_bits", d.mem_bus_bits},
         {"l2_bytes", d.l2_bytes},
         {"smem_per_block_optin", d.smem_per_block_optin},
         {"total_mem_bytes", d.total_mem},
         {"driver_cuda_version", std::to_string(dv / 1000) + "." + std::to_string(dv % 1000 / 10)},
         {"code_path", d.code_path},
         {"driver_version", driver_version_text()}};
  }
  return json_text(j, false);
}

DeviceReport decode_device(const std::string& json) {
  JsonDoc doc(json, "worker device");
  JsonField n = doc.root();
  DeviceReport d;
  d.json = json;
  d.available = n["available"].boolean();
  d.error = n["error"].str();
  d.name = n["name"].str();
  d.cc = n["cc"].str();
  d.driver = n["driver_version"].str();
  if (d.driver.empty()) d.driver = "CUDA " + (n["driver_cuda_version"].is_null() ? "?" : n["driver_cuda_version"].str());
  return d;
}

}  // namespace cuconform
