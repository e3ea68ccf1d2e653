#include "harness/runner/preflight.hpp"

#include <chrono>
#include <cstdlib>
#include <map>
#include <sstream>

#include "harness/runner/health_watch.hpp"  // xid_from_application

namespace cuconform {

namespace {

const char* recovery_name(unsigned v) {
  switch (v) {
    case 0: return "none";
    case 1: return "GPU reset";
    case 2: return "node reboot";
    case 3: return "drain peer-to-peer";
    case 4: return "drain and reset";
    case 5: return "recover the IMEX domain";
    case 6: return "PCIe bus reset";
    case 7: return "system reboot";
  }
  return "unknown";
}

// The action for the driver's recovery action: drains stay drains, resets and reboots are resets.
Action action_of_recovery(unsigned v) { return v == 3 || v == 5 ? Action::drain : Action::reset; }

const char* fabric_state_name(unsigned v) {
  switch (v) {
    case 0: return "not supported";
    case 1: return "not started";
    case 2: return "in progress";
    case 3: return "completed";
  }
  return "unknown";
}

template <class T>
Json answer_json(const NvmlAnswer<T>& a) {
  if (a.known) return a.value;
  return Json{{"missing", a.missing}};
}

}  // namespace

Preflight judge_preflight(const PreflightInput& in) {
  Preflight p;
  const GpuPreflightAnswers& a = in.nvml;
  auto stop = [&](Action act, const std::string& why) {
    if (!p.run && severity(act) <= severity(p.action)) return;  // the most severe reason stands
    p.run = false;
    p.action = act;
    p.reason = why;
  };
  auto watch = [&](const std::string& why) {
    if (p.run && p.action == Action::none) {
      p.action = Action::watch;
      p.reason = why;
    } else {
      p.notes.push_back(why);
    }
  };
  if (!a.unavailable.empty()) {
    p.notes.push_back("NVML could not be asked (" + a.unavailable + "): the GPU runs unchecked");
    return p;
  }
  // In order of severity: what makes the GPU unusable for good, then what a reset cures, then
  // what a drain settles.
  if (a.remap_failed.known && a.remap_failed.value)
    stop(Action::replace, "a row remap failed (nvmlDeviceGetRemappedRows): the memory has no spare row left");
  if (a.lost) stop(Action::reset, "NVML says the GPU is lost (fallen off the bus)");
  if (a.recovery_action.known && a.recovery_action.value != 0)
    stop(action_of_recovery(a.recovery_action.value),
         std::string("the driver's recovery action is ") + recovery_name(a.recovery_action.value) + " (" +
             std::to_string(a.recovery_action.value) + ", NVML_FI_DEV_GET_GPU_RECOVERY_ACTION)");
  if (a.remap_pending.known && a.remap_pending.value) stop(Action::reset, "a row remap is pending (the GPU needs a reset)");
  if (a.retired_pending.known && a.retired_pending.value) stop(Action::reset, "a page retirement is pending (the GPU needs a reset)");
  if (a.ecc_volatile_uncorrected.known && a.ecc_volatile_uncorrected.value > 0)
    stop(Action::reset, std::to_string(a.ecc_volatile_uncorrected.value) + " uncorrected ECC error(s) since the driver loaded");
  if (a.cc_feature.known && a.cc_feature.value == 1 && a.cc_ready.known && a.cc_ready.value == 0)
    stop(Action::drain, "confidential computing is on and the GPUs do not accept work yet (nvmlSystemGetConfComputeGpusReadyState)");
  if (a.fabric_state.known && a.fabric_state.value == 3 && a.fabric_status.known && a.fabric_status.value != 0)
    stop(Action::drain, "the NVLink fabric registration failed (NVML status " + std::to_string(a.fabric_status.value) + ")");

  // What does not stop the run: watched, or only noted.
  if (a.fabric_state.known && (a.fabric_state.value == 1 || a.fabric_state.value == 2))
    watch(std::string("the NVLink fabric registration is ") + fabric_state_name(a.fabric_state.value));
  if (a.nvlink.known && !a.nvlink.value.empty()) {
    std::string down;
    int up = 0;
    for (std::size_t i = 0; i < a.nvlink.value.size(); ++i) {
      if (a.nvlink.value[i]) ++up;
      else down += (down.empty() ? "" : ",") + std::to_string(i);
    }
    if (up > 0 && !down.empty())
      watch("NVLink link(s) " + down + " down, " + std::to_string(up) + " of " + std::to_string(a.nvlink.value.size()) + " up");
  }
  if (a.remapped_uncorrectable.known && a.remapped_uncorrectable.value > 0)
    watch(std::to_string(a.remapped_uncorrectable.value) + " row(s) remapped for uncorrectable errors");
  if (a.retired_dbe.known && a.retired_dbe.value > 0)
    watch(std::to_string(a.retired_dbe.value) + " page(s) retired for double-bit errors");
  std::map<unsigned, int> critical;
  for (const KernelXid& x : in.xids)
    if (!xid_from_application(x.xid)) ++critical[x.xid];
  if (!critical.empty()) {
    std::string seen;
    for (auto& [xid, count] : critical) seen += (seen.empty() ? "" : ", ") + std::string("Xid ") + std::to_string(xid) + (count > 1 ? " x" + std::to_string(count) : "");
    watch("the kernel logged " + seen + " for this GPU since boot");
  }
  if (a.persistence.known && a.persistence.value == 0) p.notes.push_back("persistence mode is off (each process that opens the GPU pays its start-up)");
  if (a.mig.known && a.mig.value == 1) p.notes.push_back("MIG mode is on");
  if (a.cc_feature.known && a.cc_feature.value == 1) p.notes.push_back("confidential computing is on");
  return p;
}

PreflightInput read_preflight(const NodeGpu& gpu) {
  PreflightInput in;
  in.nvml = nvml_preflight_answers(gpu.uuid);
  std::vector<KernelXid> all;
  in.xids_read = kernel_xids(&all, &in.xids_why_not);
  for (const KernelXid& x : all)
    if (same_gpu(x.pci, gpu.pci_bus_id)) in.xids.push_back(x);
  return in;
}

Json preflight_json(const PreflightInput& in, const Preflight& p) {
  const GpuPreflightAnswers& a = in.nvml;
  Json j = {{"run", p.run}, {"action", to_string(p.action)}, {"reason", p.reason}, {"notes", p.notes},
            {"seconds", json_number(p.seconds)}};
  if (!a.unavailable.empty()) {
    j["nvml"] = a.unavailable;
  } else {
    j["nvml"] = "available";
    j["lost"] = a.lost;
    Json r = answer_json(a.recovery_action);
    if (a.recovery_action.known) r = {{"value", a.recovery_action.value}, {"name", recovery_name(a.recovery_action.value)}};
    j["recovery_action"] = r;
    j["remapped_rows"] = {{"correctable", answer_json(a.remapped_correctable)}, {"uncorrectable", answer_json(a.remapped_uncorrectable)},
                          {"pending", answer_json(a.remap_pending)}, {"failed", answer_json(a.remap_failed)}};
    j["retired_pages"] = {{"single_bit", answer_json(a.retired_sbe)}, {"double_bit", answer_json(a.retired_dbe)},
                          {"pending", answer_json(a.retired_pending)}};
    j["ecc_volatile_uncorrected"] = answer_json(a.ecc_volatile_uncorrected);
    j["persistence_mode"] = answer_json(a.persistence);
    j["mig_mode"] = answer_json(a.mig);
    j["confidential_computing"] = {{"feature", answer_json(a.cc_feature)}, {"gpus_ready", answer_json(a.cc_ready)}};
    j["nvlink_active"] = answer_json(a.nvlink);
    Json f = {{"state", answer_json(a.fabric_state)}, {"status", answer_json(a.fabric_status)}};
    if (a.fabric_state.known) f["state_name"] = fabric_state_name(a.fabric_state.value);
    j["fabric"] = f;
  }
  if (in.xids_read) {
    Json xs = Json::array();
    for (const KernelXid& x : in.xids) xs.push_back({{"xid", x.xid}, {"line", x.line}});
    j["xids_since_boot"] = xs;
  } else {
    j["xids_since_boot"] = Json{{"missing", in.xids_why_not}};
  }
  return j;
}

std::string preflight_text(const NodeGpu& gpu, const PreflightInput& in, const Preflight& p) {
  std::ostringstream s;
  const GpuPreflightAnswers& a = in.nvml;
  char secs[32];
  std::snprintf(secs, sizeof secs, "%.3f", p.seconds);
  s << "pre-flight gpu" << gpu.ordinal << " " << gpu.uuid << ": "
    << (p.run ? (p.action == Action::none ? "ok" : "runs, action " + std::string(to_string(p.action))) : "NOT RUN: unhealthy before the run")
    << (p.reason.empty() ? "" : " (" + p.reason + ")") << " in " << secs << " s\n";
  if (a.unavailable.empty()) {
    auto v = [](const auto& ans) -> std::string {
      if (!ans.known) return ans.missing.empty() ? std::string("?") : "? (" + ans.missing + ")";
      std::ostringstream t;
      t << ans.value;
      return t.str();
    };
    s << "  recovery action " << (a.recovery_action.known ? recovery_name(a.recovery_action.value) : v(a.recovery_action))
      << "; remapped rows " << v(a.remapped_correctable) << "/" << v(a.remapped_uncorrectable) << " pending " << v(a.remap_pending)
      << " failed " << v(a.remap_failed) << "; retired pages " << v(a.retired_sbe) << "/" << v(a.retired_dbe) << " pending "
      << v(a.retired_pending) << "; volatile uncorrected ECC " << v(a.ecc_volatile_uncorrected) << "; persistence "
      << v(a.persistence) << "; MIG " << v(a.mig) << "; CC " << v(a.cc_feature) << "; NVLink ";
    if (a.nvlink.known) {
      int up = 0;
      for (int l : a.nvlink.value) up += l;
      s << up << "/" << a.nvlink.value.size() << " active";
    } else {
      s << "? (" << a.nvlink.missing << ")";
    }
    s << "; fabric " << (a.fabric_state.known ? fabric_state_name(a.fabric_state.value) : v(a.fabric_state)) << "; Xids since boot "
      << (in.xids_read ? std::to_string(in.xids.size()) : "? (" + in.xids_why_not + ")") << "\n";
  }
  for (const std::string& n : p.notes) s << "  note: " << n << "\n";
  return s.str();
}

std::string preflight_stop_reason(const Preflight& p) {
  return "unhealthy before the run: " + p.reason + " (action: " + to_string(p.action) + ")";
}

namespace {

// CUCONFORM_PREFLIGHT_INJECT for GPU index `i`: the answers it sets; "" when none.
std::string inject(std::size_t i, PreflightInput* in) {
  const char* env = std::getenv("CUCONFORM_PREFLIGHT_INJECT");
  if (!env) return "";
  const std::string spec = env;
  const std::size_t colon = spec.find(':');
  if (colon == std::string::npos || spec.substr(0, colon) != std::to_string(i)) return "";
  GpuPreflightAnswers& a = in->nvml;
  a.unavailable.clear();
  std::stringstream fields(spec.substr(colon + 1));
  std::string kv;
  while (std::getline(fields, kv, ',')) {
    const std::size_t eq = kv.find('=');
    const std::string k = kv.substr(0, eq);
    const unsigned v = eq == std::string::npos ? 1u : static_cast<unsigned>(std::strtoul(kv.c_str() + eq + 1, nullptr, 10));
    auto set = [&](NvmlAnswer<unsigned>& x) {
      x.known = true;
      x.value = v;
    };
    if (k == "recovery_action") set(a.recovery_action);
    else if (k == "remap_failed") set(a.remap_failed);
    else if (k == "remap_pending") set(a.remap_pending);
    else if (k == "retired_pending") set(a.retired_pending);
    else if (k == "ecc_volatile_uncorrected") a.ecc_volatile_uncorrected = {true, v, ""};
    else if (k == "lost") a.lost = v != 0;
    else if (k == "nvlink_down") a.nvlink = {true, {1, 0, 1, 1}, ""};
  }
  return spec;
}

}  // namespace

std::vector<std::string> preflight_gpus(const std::vector<NodeGpu>& gpus, std::vector<Json>* identity, std::ostream& out) {
  std::vector<std::string> stop(gpus.size());
  const auto all_start = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < gpus.size(); ++i) {
    const auto start = std::chrono::steady_clock::now();
    PreflightInput in = read_preflight(gpus[i]);
    const std::string injected = inject(i, &in);
    Preflight p = judge_preflight(in);
    p.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    out << preflight_text(gpus[i], in, p);
    if (i >= identity->size()) continue;
    Json& id = (*identity)[i];
    id["preflight"] = preflight_json(in, p);
    if (!injected.empty()) id["preflight"]["injected"] = "CUCONFORM_PREFLIGHT_INJECT=" + injected;
    if (p.run) continue;
    stop[i] = preflight_stop_reason(p);
    // No worker opens a GPU that does not run: its device section is what the run knows of it.
    const NodeGpu& g = gpus[i];
    id["available"] = true;
    id["name"] = g.name;
    id["cc"] = g.cc;
    id["sm_count"] = g.sm_count;
    id["total_mem_bytes"] = static_cast<double>(g.total_mem);
    id["driver_version"] = driver_version_text();
  }
  char secs[32];
  std::snprintf(secs, sizeof secs, "%.3f", std::chrono::duration<double>(std::chrono::steady_clock::now() - all_start).count());
  int stopped = 0;
  for (auto& s : stop) stopped += !s.empty();
  if (!gpus.empty())
    out << "pre-flight: " << gpus.size() << " GPU(s) in " << secs << " s, " << stopped << " unhealthy before the run\n";
  return stop;
}

}  // namespace cuconform
