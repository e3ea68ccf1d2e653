// cuconform device: the suite, the toolkit, the driver, and every GPU the process sees (the
// ones `run --devices` can name), with their identity and which pairs can reach each other.
// cuconform health: each GPU's state now (clocks, throttling, temperature, power, ECC errors,
// remapped rows) without running a case; --format json for a scheduler or a dashboard.
#include <iostream>

#include "cli/verbs.hpp"
#include "harness/driver/cuda_api.hpp"
#include "harness/driver/gpu.hpp"
#include "harness/driver/gpu_list.hpp"
#include "harness/driver/nvml.hpp"
#include "harness/runner/gpu_identity.hpp"
#include "harness/util/json_write.hpp"

namespace cuconform {

namespace {

// The GPUs --devices names (default: all); false with a message on bad input.
bool chosen_gpus(const Options& o, const char* verb, std::vector<NodeGpu>* out, std::string* why_none, int* rc) {
  *out = list_gpus(why_none);
  if (out->empty()) {
    *rc = kExitNoGpu;
    return false;
  }
  std::string error;
  std::vector<NodeGpu> picked;
  if (!select_gpus(o.get("--devices", "all"), *out, &picked, &error)) {
    std::cerr << "cuconform " << verb << ": " << error << "\n";
    *rc = kExitBadInput;
    return false;
  }
  *out = picked;
  return true;
}

int cmd_device(const Options& o) {
  std::cout << "suite:   cuconform " << CUCONFORM_VERSION << " (" << CUCONFORM_COMMIT << ")\n";
  std::cout << "toolkit: CUDA " << CUCONFORM_TOOLKIT << "; SASS and PTX for " << CUCONFORM_SASS_ARCHS << "\n";
  std::vector<NodeGpu> gpus;
  std::string why;
  int rc = kExitOk;
  if (!chosen_gpus(o, "device", &gpus, &why, &rc)) {
    if (rc == kExitNoGpu) std::cout << "device:  none -- " << why << "\n";
    return rc;
  }
  int cuda = 0;
  CU_API.cuDriverGetVersion(&cuda);
  std::cout << "driver:  " << driver_version_text() << " (CUDA " << cuda / 1000 << "." << cuda % 1000 / 10 << ")\n";
  std::cout << "GPUs:    " << gpus.size() << " (CUDA's order; run --devices all | 0,2 | GPU-UUID,...)\n";
  for (const NodeGpu& g : gpus) {
    const Json id = gpu_identity(g, "");
    std::cout << "  " << g.ordinal << ": " << g.name << "  " << g.uuid << "  pci " << g.pci_bus_id << "  cc " << g.cc << ", "
              << g.sm_count << " SMs, " << (g.total_mem >> 30) << " GiB, code " << code_path_for(g.cc[0] - '0', g.cc.size() > 2 ? g.cc[2] - '0' : 0)
              << "\n";
    if (id.contains("vbios"))
      std::cout << "     serial " << id.value("serial", std::string("(none)")) << ", VBIOS " << id["vbios"].get<std::string>()
                << ", ECC " << id["ecc_mode"].get<std::string>() << ", MIG " << id["mig_mode"].get<std::string>()
                << ", persistence " << id["persistence_mode"].get<std::string>() << "\n";
    else
      std::cout << "     " << id["nvml"].get<std::string>() << "\n";
  }
  if (gpus.size() > 1 && CU_API.cuDeviceCanAccessPeer) {
    std::cout << "peer access (row reaches column):\n     ";
    for (const NodeGpu& b : gpus) std::cout << " " << b.ordinal;
    std::cout << "\n";
    for (const NodeGpu& a : gpus) {
      std::cout << "  " << a.ordinal << ": ";
      for (const NodeGpu& b : gpus) {
        int can = 0;
        CUdevice da = 0, db = 0;
        CU_API.cuDeviceGet(&da, a.ordinal);
        CU_API.cuDeviceGet(&db, b.ordinal);
        if (a.ordinal != b.ordinal) CU_API.cuDeviceCanAccessPeer(&can, da, db);
        std::cout << " " << (a.ordinal == b.ordinal ? "-" : can ? "y" : "n");
      }
      std::cout << "\n";
    }
  }
  return kExitOk;
}

int cmd_health(const Options& o) {
  std::vector<NodeGpu> gpus;
  std::string why;
  int rc = kExitOk;
  const bool json = o.get("--format", "text") == "json";
  if (o.get("--format", "text") != "text" && !json) {
    std::cerr << "cuconform health: --format takes text or json, not '" << o.get("--format") << "'\n";
    return kExitBadInput;
  }
  if (!chosen_gpus(o, "health", &gpus, &why, &rc)) {
    if (rc == kExitNoGpu) {
      if (json) std::cout << json_text(Json{{"gpus", Json::array()}, {"error", why}}, true);
      else std::cout << "health: no GPU -- " << why << "\n";
    }
    return rc;
  }
  if (const std::string no = nvml_unavailable(); !no.empty()) {
    if (json) std::cout << json_text(Json{{"gpus", Json::array()}, {"error", "NVML unavailable: " + no}}, true);
    else std::cout << "health: NVML unavailable -- " << no << "\n";
    return kExitNoGpu;
  }
  Json all = {{"driver", driver_version_text()}, {"gpus", Json::array()}};
  bool sick = false;
  for (const NodeGpu& g : gpus) {
    const GpuHealth h = nvml_health(g.uuid);
    std::string verdict = "healthy";
    if (!h.readable) verdict = "unhealthy: " + h.error;
    else if (const std::string why = needs_attention(h); !why.empty()) verdict = "unhealthy: " + why;
    else if (h.ecc_uncorrected > 0) verdict = "attention: " + std::to_string(h.ecc_uncorrected) + " uncorrected ECC error(s) since the driver loaded";
    sick = sick || verdict.rfind("unhealthy", 0) == 0;
    Json j = gpu_identity(g, "");
    j.erase("node");
    j["name"] = g.name;
    j["verdict"] = verdict;
    if (h.readable) {
      j["sm_mhz"] = h.sm_mhz;
      j["mem_mhz"] = h.mem_mhz;
      j["temperature_c"] = h.temperature_c;
      j["power_w"] = json_number(h.power_w);
      j["throttle_reasons"] = h.throttle_reasons;
      j["slowdown"] = slowdown_reasons(h.throttle_reasons);
      j["ecc_corrected"] = h.ecc_corrected;
      j["ecc_uncorrected"] = h.ecc_uncorrected;
      j["remapped_rows"] = {{"correctable", h.remapped_correctable}, {"uncorrectable", h.remapped_uncorrectable},
                            {"pending", h.remap_pending}, {"failed", h.remap_failed}};
    }
    all["gpus"].push_back(j);
    if (json) continue;
    std::cout << g.ordinal << ": " << g.name << " " << g.uuid << " (" << g.pci_bus_id << "): " << verdict << "\n";
    if (h.readable)
      std::cout << "   SM " << h.sm_mhz << " MHz, memory " << h.mem_mhz << " MHz, " << h.temperature_c << " C, "
                << static_cast<int>(h.power_w + 0.5) << " W, slowdown: " << (slowdown_reasons(h.throttle_reasons).empty() ? "none" : slowdown_reasons(h.throttle_reasons))
                << "; ECC errors corrected " << h.ecc_corrected << ", uncorrected " << h.ecc_uncorrected
                << "; remapped rows " << h.remapped_correctable << "/" << h.remapped_uncorrectable << " (pending "
                << h.remap_pending << ", failed " << h.remap_failed << ")\n";
  }
  if (json) std::cout << json_text(all, true);
  return sick ? kExitUnhealthy : kExitOk;
}

}  // namespace

const VerbRegistration kDeviceVerb("device",
                                   "every GPU (identity, CC, SMs, memory, which pairs reach each other); the driver, "
                                   "the toolkit and archs built in (exit 3 without a GPU)",
                                   cmd_device, [](Verb& v) {
                                     v.value("--devices", "all|0,2|GPU-UUID,...", "the GPUs to list (default: all)");
                                   });

const VerbRegistration kHealthVerb(
    "health", "each GPU's state now: clocks, throttling, temperature, power, ECC errors, remapped rows (no case runs)",
    cmd_health, [](Verb& v) {
      v.about("Exit 0: every GPU healthy, 4: one needs attention before a run (a failed or pending row remap or "
              "page retirement, a lost GPU), 3: no GPU or no NVML, 2: bad input.")
          .value("--devices", "all|0,2|GPU-UUID,...", "the GPUs to read (default: all)")
          .choice("--format", {"text", "json"}, "text (default) or json, for a scheduler or a dashboard");
    });

}  // namespace cuconform
