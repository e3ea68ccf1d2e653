#include "harness/driver/nvml.hpp"

#include <dlfcn.h>

#include <chrono>
#include <fstream>
#include <regex>
#include <mutex>
#include <type_traits>

namespace cuconform {
namespace {

// The subset of nvml.h the suite uses, declared from the NVML API reference (the header is not
// in Debian or the toolkit's include folder): opaque handles, plain enums as unsigned, and the
// one struct the event wait fills in.
using nvmlReturn_t = unsigned;
using nvmlDevice_t = void*;
using nvmlEventSet_t = void*;
struct nvmlEventData_t {
  nvmlDevice_t device;
  unsigned long long eventType;
  unsigned long long eventData;
  unsigned gpuInstanceId;
  unsigned computeInstanceId;
};
constexpr nvmlReturn_t kSuccess = 0, kInvalidArgument = 2, kNotSupported = 3, kInsufficientSize = 7, kGpuIsLost = 15;
// nvmlFieldValue_t (nvml.h): the field asked for, and NVML's answer in an 8-byte union.
struct nvmlFieldValue_t {
  unsigned fieldId;
  unsigned scopeId;
  long long timestamp;
  long long latencyUsec;
  int valueType;
  nvmlReturn_t nvmlReturn;
  union {
    double dVal;
    unsigned uiVal;
    unsigned long ulVal;
    unsigned long long ullVal;
    long long sllVal;
    int siVal;
    unsigned short usVal;
  } value;
};
static_assert(sizeof(nvmlFieldValue_t) == 40, "nvmlFieldValue_t is 40 bytes in nvml.h");
constexpr unsigned kFieldRecoveryAction = 230;  // NVML_FI_DEV_GET_GPU_RECOVERY_ACTION (r565 and later)
// nvmlGpuFabricInfo_t (the unversioned struct of nvmlDeviceGetGpuFabricInfo).
struct nvmlGpuFabricInfo_t {
  unsigned char clusterUuid[16];
  nvmlReturn_t status;
  unsigned cliqueId;
  unsigned char state;
};
struct nvmlConfComputeSystemState_t {
  unsigned environment, ccFeature, devToolsMode;
};
constexpr unsigned kNvlinkMaxLinks = 18;  // NVML_NVLINK_MAX_LINKS
constexpr unsigned long long kEventDoubleBitEcc = 0x2, kEventXidCritical = 0x8;
constexpr unsigned kClockSm = 1, kClockMem = 2;
constexpr unsigned kTemperatureGpu = 0;
constexpr unsigned kMemoryErrorCorrected = 0, kMemoryErrorUncorrected = 1, kVolatileEcc = 0;

struct Nvml {
  nvmlReturn_t (*Init)() = nullptr;
  const char* (*ErrorString)(nvmlReturn_t) = nullptr;
  nvmlReturn_t (*GetHandleByUUID)(const char*, nvmlDevice_t*) = nullptr;
  nvmlReturn_t (*GetSerial)(nvmlDevice_t, char*, unsigned) = nullptr;
  nvmlReturn_t (*GetVbiosVersion)(nvmlDevice_t, char*, unsigned) = nullptr;
  nvmlReturn_t (*GetEccMode)(nvmlDevice_t, unsigned*, unsigned*) = nullptr;
  nvmlReturn_t (*GetMigMode)(nvmlDevice_t, unsigned*, unsigned*) = nullptr;
  nvmlReturn_t (*GetPersistenceMode)(nvmlDevice_t, unsigned*) = nullptr;
  nvmlReturn_t (*GetClockInfo)(nvmlDevice_t, unsigned, unsigned*) = nullptr;
  nvmlReturn_t (*GetTemperature)(nvmlDevice_t, unsigned, unsigned*) = nullptr;
  nvmlReturn_t (*GetPowerUsage)(nvmlDevice_t, unsigned*) = nullptr;
  nvmlReturn_t (*GetClocksEventReasons)(nvmlDevice_t, unsigned long long*) = nullptr;
  nvmlReturn_t (*GetTotalEccErrors)(nvmlDevice_t, unsigned, unsigned, unsigned long long*) = nullptr;
  nvmlReturn_t (*GetRemappedRows)(nvmlDevice_t, unsigned*, unsigned*, unsigned*, unsigned*) = nullptr;
  nvmlReturn_t (*GetRetiredPagesPendingStatus)(nvmlDevice_t, unsigned*) = nullptr;
  nvmlReturn_t (*EventSetCreate)(nvmlEventSet_t*) = nullptr;
  nvmlReturn_t (*GetSupportedEventTypes)(nvmlDevice_t, unsigned long long*) = nullptr;
  nvmlReturn_t (*RegisterEvents)(nvmlDevice_t, unsigned long long, nvmlEventSet_t) = nullptr;
  nvmlReturn_t (*EventSetWait)(nvmlEventSet_t, nvmlEventData_t*, unsigned) = nullptr;
  nvmlReturn_t (*EventSetFree)(nvmlEventSet_t) = nullptr;
  nvmlReturn_t (*SystemGetDriverVersion)(char*, unsigned) = nullptr;
  // The pre-flight's (any of them may be missing from an older driver's NVML).
  nvmlReturn_t (*GetFieldValues)(nvmlDevice_t, int, nvmlFieldValue_t*) = nullptr;
  nvmlReturn_t (*GetRetiredPages)(nvmlDevice_t, unsigned, unsigned*, unsigned long long*) = nullptr;
  nvmlReturn_t (*GetNvLinkState)(nvmlDevice_t, unsigned, unsigned*) = nullptr;
  nvmlReturn_t (*GetGpuFabricInfo)(nvmlDevice_t, nvmlGpuFabricInfo_t*) = nullptr;
  nvmlReturn_t (*SystemGetConfComputeState)(nvmlConfComputeSystemState_t*) = nullptr;
  nvmlReturn_t (*SystemGetConfComputeGpusReadyState)(unsigned*) = nullptr;
  std::string why_not;
};

const Nvml& nvml() {
  static Nvml n;
  static std::once_flag once;
  std::call_once(once, [] {
    void* lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      const char* e = dlerror();
      n.why_not = std::string("libnvidia-ml.so.1 could not be loaded (") + (e ? e : "?") + ")";
      return;
    }
    auto sym = [&](auto& fn, const char* name, const char* alt = nullptr) {
      void* p = dlsym(lib, name);
      if (!p && alt) p = dlsym(lib, alt);
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(p);
    };
    sym(n.Init, "nvmlInit_v2");
    sym(n.ErrorString, "nvmlErrorString");
    sym(n.GetHandleByUUID, "nvmlDeviceGetHandleByUUID");
    sym(n.GetSerial, "nvmlDeviceGetSerial");
    sym(n.GetVbiosVersion, "nvmlDeviceGetVbiosVersion");
    sym(n.GetEccMode, "nvmlDeviceGetEccMode");
    sym(n.GetMigMode, "nvmlDeviceGetMigMode");
    sym(n.GetPersistenceMode, "nvmlDeviceGetPersistenceMode");
    sym(n.GetClockInfo, "nvmlDeviceGetClockInfo");
    sym(n.GetTemperature, "nvmlDeviceGetTemperature");
    sym(n.GetPowerUsage, "nvmlDeviceGetPowerUsage");
    // Renamed in driver r535; the old name stays exported.
    sym(n.GetClocksEventReasons, "nvmlDeviceGetCurrentClocksEventReasons", "nvmlDeviceGetCurrentClocksThrottleReasons");
    sym(n.GetTotalEccErrors, "nvmlDeviceGetTotalEccErrors");
    sym(n.GetRemappedRows, "nvmlDeviceGetRemappedRows");
    sym(n.GetRetiredPagesPendingStatus, "nvmlDeviceGetRetiredPagesPendingStatus");
    sym(n.EventSetCreate, "nvmlEventSetCreate");
    sym(n.GetSupportedEventTypes, "nvmlDeviceGetSupportedEventTypes");
    sym(n.RegisterEvents, "nvmlDeviceRegisterEvents");
    sym(n.EventSetWait, "nvmlEventSetWait_v2");
    sym(n.EventSetFree, "nvmlEventSetFree");
    sym(n.SystemGetDriverVersion, "nvmlSystemGetDriverVersion");
    sym(n.GetFieldValues, "nvmlDeviceGetFieldValues");
    sym(n.GetRetiredPages, "nvmlDeviceGetRetiredPages");
    sym(n.GetNvLinkState, "nvmlDeviceGetNvLinkState");
    sym(n.GetGpuFabricInfo, "nvmlDeviceGetGpuFabricInfo");
    sym(n.SystemGetConfComputeState, "nvmlSystemGetConfComputeState");
    sym(n.SystemGetConfComputeGpusReadyState, "nvmlSystemGetConfComputeGpusReadyState");
    if (!n.Init || !n.ErrorString || !n.GetHandleByUUID) {
      n.why_not = "libnvidia-ml.so.1 lacks nvmlInit_v2 / nvmlDeviceGetHandleByUUID";
      return;
    }
    const nvmlReturn_t r = n.Init();
    if (r != kSuccess) n.why_not = std::string("nvmlInit failed: ") + n.ErrorString(r);
  });
  return n;
}

std::string error_of(nvmlReturn_t r) { return nvml().ErrorString ? nvml().ErrorString(r) : "NVML error " + std::to_string(r); }

nvmlDevice_t handle(const std::string& uuid, std::string* why_not) {
  const Nvml& n = nvml();
  if (!n.why_not.empty()) {
    *why_not = "NVML unavailable: " + n.why_not;
    return nullptr;
  }
  nvmlDevice_t d = nullptr;
  const nvmlReturn_t r = n.GetHandleByUUID(uuid.c_str(), &d);
  if (r != kSuccess) {
    *why_not = "NVML does not know " + uuid + ": " + error_of(r);
    return nullptr;
  }
  return d;
}

std::string mode(nvmlReturn_t r, unsigned v) {
  if (r == kNotSupported) return "unsupported";
  if (r != kSuccess) return "unknown";
  return v ? "enabled" : "disabled";
}

}  // namespace

std::string nvml_unavailable() { return nvml().why_not; }

std::string driver_version_text() {
  const Nvml& n = nvml();
  char buf[96] = {};
  if (n.why_not.empty() && n.SystemGetDriverVersion && n.SystemGetDriverVersion(buf, sizeof buf) == kSuccess && buf[0])
    return buf;
  std::ifstream in("/proc/driver/nvidia/version");
  std::string line;
  std::getline(in, line);
  std::smatch m;
  static const std::regex re("Kernel Module\\s+([0-9.]+)");
  return std::regex_search(line, m, re) ? m[1].str() : "";
}

std::optional<GpuIdentity> nvml_identity(const std::string& uuid, std::string* why_not) {
  std::string why;
  nvmlDevice_t d = handle(uuid, &why);
  if (!d) {
    if (why_not) *why_not = why;
    return std::nullopt;
  }
  const Nvml& n = nvml();
  GpuIdentity id;
  char buf[96] = {};
  if (n.GetSerial && n.GetSerial(d, buf, sizeof buf) == kSuccess) id.serial = buf;
  buf[0] = 0;
  if (n.GetVbiosVersion && n.GetVbiosVersion(d, buf, sizeof buf) == kSuccess) id.vbios = buf;
  // Each query's result is read after the call (the call and the read are separate statements: as
  // two arguments of one call their order is unspecified, and `cur` was read before it was set).
  auto query = [&](nvmlReturn_t (*fn)(nvmlDevice_t, unsigned*, unsigned*)) {
    if (!fn) return std::string("unknown");
    unsigned cur = 0, pending = 0;
    const nvmlReturn_t r = fn(d, &cur, &pending);
    return mode(r, cur);
  };
  id.ecc_mode = query(n.GetEccMode);
  id.mig_mode = query(n.GetMigMode);
  unsigned persist = 0;
  const nvmlReturn_t pr = n.GetPersistenceMode ? n.GetPersistenceMode(d, &persist) : kNotSupported;
  id.persistence_mode = mode(pr, persist);
  if (id.ecc_mode == "unsupported") id.ecc_mode = "disabled";  // no ECC on the board
  if (id.persistence_mode == "unsupported") id.persistence_mode = "unknown";
  return id;
}

GpuHealth nvml_health(const std::string& uuid) {
  GpuHealth h;
  nvmlDevice_t d = handle(uuid, &h.error);
  if (!d) return h;
  const Nvml& n = nvml();
  unsigned v = 0;
  nvmlReturn_t r = n.GetClockInfo ? n.GetClockInfo(d, kClockSm, &v) : kNotSupported;
  if (r == kGpuIsLost) {
    h.error = "GPU is lost (NVML: " + error_of(r) + ")";
    return h;
  }
  h.readable = true;
  if (r == kSuccess) h.sm_mhz = v;
  if (n.GetClockInfo && n.GetClockInfo(d, kClockMem, &v) == kSuccess) h.mem_mhz = v;
  if (n.GetTemperature && n.GetTemperature(d, kTemperatureGpu, &v) == kSuccess) h.temperature_c = v;
  if (n.GetPowerUsage && n.GetPowerUsage(d, &v) == kSuccess) h.power_w = v / 1000.0;
  unsigned long long bits = 0;
  if (n.GetClocksEventReasons && n.GetClocksEventReasons(d, &bits) == kSuccess) h.throttle_reasons = bits;
  unsigned long long count = 0;
  if (n.GetTotalEccErrors && n.GetTotalEccErrors(d, kMemoryErrorCorrected, kVolatileEcc, &count) == kSuccess)
    h.ecc_corrected = static_cast<long long>(count);
  if (n.GetTotalEccErrors && n.GetTotalEccErrors(d, kMemoryErrorUncorrected, kVolatileEcc, &count) == kSuccess)
    h.ecc_uncorrected = static_cast<long long>(count);
  unsigned corr = 0, unc = 0, pending = 0, failed = 0;
  if (n.GetRemappedRows && n.GetRemappedRows(d, &corr, &unc, &pending, &failed) == kSuccess) {
    h.remapped_correctable = corr;
    h.remapped_uncorrectable = unc;
    h.remap_pending = pending ? 1 : 0;
    h.remap_failed = failed ? 1 : 0;
  }
  unsigned retire = 0;
  if (n.GetRetiredPagesPendingStatus && n.GetRetiredPagesPendingStatus(d, &retire) == kSuccess)
    h.retired_pages_pending = retire ? 1 : 0;
  return h;
}

std::string needs_attention(const GpuHealth& h) {
  if (!h.readable) return h.error.find("lost") != std::string::npos ? h.error : "";
  if (h.remap_failed == 1) return "a row remap failed";
  if (h.remap_pending == 1) return "a row remap is pending (the GPU needs a reset)";
  if (h.retired_pages_pending == 1) return "a page retirement is pending (the GPU needs a reset)";
  return "";
}

std::string slowdown_reasons(std::uint64_t bits) {
  // NVML's nvmlClocksEventReason* bits; idle (0x1), application clocks (0x2), sync boost (0x10)
  // and display clocks (0x100) are settings or rest, not a slowdown of work in flight.
  static const std::pair<std::uint64_t, const char*> kNames[] = {
      {0x4, "sw power cap"},          {0x8, "hw slowdown"},
      {0x20, "sw thermal slowdown"},  {0x40, "hw thermal slowdown"},
      {0x80, "hw power brake slowdown"}};
  std::string out;
  for (auto& [bit, name] : kNames)
    if (bits & bit) out += (out.empty() ? "" : ", ") + std::string(name);
  return out;
}

namespace {
// An answer from a call's return code: known on success, else why not in NVML's words.
template <class T>
void answer(NvmlAnswer<T>* a, nvmlReturn_t r, T v) {
  if (r == kSuccess) {
    a->known = true;
    a->value = v;
  } else {
    a->missing = r == kNotSupported ? "not supported" : error_of(r);
  }
}
template <class T>
void absent(NvmlAnswer<T>* a, const char* fn) {
  a->missing = std::string(fn) + " missing from this NVML (an older driver)";
}
// One call's answer, or `fn` absent where this NVML lacks it: `call` reads the value (from 0) and
// returns the call's code.
template <class T, class Call>
void ask(bool present, NvmlAnswer<T>* a, const char* fn, Call call) {
  if (!present) return absent(a, fn);
  T v{};
  const nvmlReturn_t r = call(&v);
  answer(a, r, v);
}
unsigned flag(unsigned v) { return v ? 1u : 0u; }
}  // namespace

GpuPreflightAnswers nvml_preflight_answers(const std::string& uuid) {
  GpuPreflightAnswers a;
  a.uuid = uuid;
  nvmlDevice_t d = handle(uuid, &a.unavailable);
  if (!d) return a;
  const Nvml& n = nvml();
  nvmlReturn_t lost_probe = kSuccess;
  // The driver's recovery action: one field of nvmlDeviceGetFieldValues; its own return code says
  // whether this driver knows the field (older ones answer NOT_SUPPORTED or INVALID_ARGUMENT).
  if (n.GetFieldValues) {
    nvmlFieldValue_t f{};
    f.fieldId = kFieldRecoveryAction;
    const nvmlReturn_t r = n.GetFieldValues(d, 1, &f);
    if (r != kSuccess) answer(&a.recovery_action, r, 0u);
    else if (f.nvmlReturn == kInvalidArgument) a.recovery_action.missing = "this driver does not know the field (NVML_FI_DEV_GET_GPU_RECOVERY_ACTION)";
    else answer(&a.recovery_action, f.nvmlReturn, f.value.uiVal);
    if (r == kGpuIsLost || f.nvmlReturn == kGpuIsLost) lost_probe = kGpuIsLost;
  } else {
    absent(&a.recovery_action, "nvmlDeviceGetFieldValues");
  }
  if (n.GetRemappedRows) {
    unsigned corr = 0, unc = 0, pending = 0, failed = 0;
    const nvmlReturn_t r = n.GetRemappedRows(d, &corr, &unc, &pending, &failed);
    answer(&a.remapped_correctable, r, corr);
    answer(&a.remapped_uncorrectable, r, unc);
    answer(&a.remap_pending, r, pending ? 1u : 0u);
    answer(&a.remap_failed, r, failed ? 1u : 0u);
    if (r == kGpuIsLost) lost_probe = kGpuIsLost;
  } else {
    for (auto* x : {&a.remapped_correctable, &a.remapped_uncorrectable, &a.remap_pending, &a.remap_failed})
      absent(x, "nvmlDeviceGetRemappedRows");
  }
  if (n.GetRetiredPages) {
    // pageCount 0 and no buffer: NVML returns the count (SUCCESS, or INSUFFICIENT_SIZE when some exist).
    for (auto [cause, out] : {std::pair{0u, &a.retired_sbe}, std::pair{1u, &a.retired_dbe}}) {
      unsigned count = 0;
      nvmlReturn_t r = n.GetRetiredPages(d, cause, &count, nullptr);
      if (r == kInsufficientSize) r = kSuccess;
      answer(out, r, count);
    }
  } else {
    absent(&a.retired_sbe, "nvmlDeviceGetRetiredPages");
    absent(&a.retired_dbe, "nvmlDeviceGetRetiredPages");
  }
  ask(n.GetRetiredPagesPendingStatus, &a.retired_pending, "nvmlDeviceGetRetiredPagesPendingStatus", [&](unsigned* v) {
    const nvmlReturn_t r = n.GetRetiredPagesPendingStatus(d, v);
    *v = flag(*v);
    return r;
  });
  ask(n.GetTotalEccErrors, &a.ecc_volatile_uncorrected, "nvmlDeviceGetTotalEccErrors",
      [&](unsigned long long* v) { return n.GetTotalEccErrors(d, kMemoryErrorUncorrected, kVolatileEcc, v); });
  ask(n.GetPersistenceMode, &a.persistence, "nvmlDeviceGetPersistenceMode", [&](unsigned* v) {
    const nvmlReturn_t r = n.GetPersistenceMode(d, v);
    *v = flag(*v);
    return r;
  });
  ask(n.GetMigMode, &a.mig, "nvmlDeviceGetMigMode", [&](unsigned* v) {
    unsigned pending = 0;
    const nvmlReturn_t r = n.GetMigMode(d, v, &pending);
    *v = flag(*v);
    return r;
  });
  ask(n.SystemGetConfComputeState, &a.cc_feature, "nvmlSystemGetConfComputeState", [&](unsigned* v) {
    nvmlConfComputeSystemState_t cc{};
    const nvmlReturn_t r = n.SystemGetConfComputeState(&cc);
    *v = cc.ccFeature;
    return r;
  });
  if (a.cc_feature.known && a.cc_feature.value == 1) {
    ask(n.SystemGetConfComputeGpusReadyState, &a.cc_ready, "nvmlSystemGetConfComputeGpusReadyState",
        [&](unsigned* v) { return n.SystemGetConfComputeGpusReadyState(v); });
  } else {
    a.cc_ready.missing = "not asked: confidential computing is not on";
  }
  if (n.GetNvLinkState) {
    std::vector<int> links;
    nvmlReturn_t last = kNotSupported;
    for (unsigned link = 0; link < kNvlinkMaxLinks; ++link) {
      unsigned active = 0;
      const nvmlReturn_t r = n.GetNvLinkState(d, link, &active);
      if (r == kSuccess) links.push_back(active ? 1 : 0);
      else if (r != kNotSupported && r != kInvalidArgument) last = r;
    }
    // No link answered: NVLink is absent (not supported), unless a real error came back.
    if (!links.empty() || last == kNotSupported) {
      a.nvlink.known = true;
      a.nvlink.value = links;
    } else {
      a.nvlink.missing = error_of(last);
    }
  } else {
    absent(&a.nvlink, "nvmlDeviceGetNvLinkState");
  }
  if (n.GetGpuFabricInfo) {
    nvmlGpuFabricInfo_t fi{};
    const nvmlReturn_t r = n.GetGpuFabricInfo(d, &fi);
    answer(&a.fabric_state, r, static_cast<unsigned>(fi.state));
    answer(&a.fabric_status, r, static_cast<unsigned>(fi.status));
  } else {
    absent(&a.fabric_state, "nvmlDeviceGetGpuFabricInfo");
    absent(&a.fabric_status, "nvmlDeviceGetGpuFabricInfo");
  }
  // Lost: any answer said so, or the clocks cannot be read for that reason (as nvml_health asks).
  unsigned v = 0;
  if (lost_probe == kGpuIsLost || (n.GetClockInfo && n.GetClockInfo(d, kClockSm, &v) == kGpuIsLost)) a.lost = true;
  return a;
}

XidWatch::XidWatch(const std::vector<std::string>& uuids, std::string* why_not) {
  const Nvml& n = nvml();
  auto fail = [&](const std::string& why) {
    if (why_not) *why_not = why;
    if (set_ && n.EventSetFree) n.EventSetFree(set_);
    set_ = nullptr;
  };
  if (!n.why_not.empty()) { fail("NVML unavailable: " + n.why_not); return; }
  if (!n.EventSetCreate || !n.RegisterEvents || !n.EventSetWait || !n.EventSetFree)
    { fail("this NVML has no event API"); return; }
  nvmlReturn_t r = n.EventSetCreate(&set_);
  if (r != kSuccess) { fail("nvmlEventSetCreate: " + error_of(r)); return; }
  for (const std::string& uuid : uuids) {
    std::string why;
    nvmlDevice_t d = handle(uuid, &why);
    if (!d) { fail(why); return; }
    unsigned long long want = kEventXidCritical | kEventDoubleBitEcc, supported = want;
    if (n.GetSupportedEventTypes && n.GetSupportedEventTypes(d, &supported) == kSuccess) want &= supported;
    if (!(want & kEventXidCritical)) { fail(uuid + " does not report Xid events through NVML"); return; }
    r = n.RegisterEvents(d, want, set_);
    if (r != kSuccess) { fail("nvmlDeviceRegisterEvents(" + uuid + "): " + error_of(r)); return; }
    devices_.emplace_back(d, uuid);
  }
}

XidWatch::~XidWatch() {
  if (set_ && nvml().EventSetFree) nvml().EventSetFree(set_);
}

bool XidWatch::next(XidEvent* out, unsigned timeout_ms) {
  if (!set_) return false;
  nvmlEventData_t data{};
  const nvmlReturn_t r = nvml().EventSetWait(set_, &data, timeout_ms);
  if (r != kSuccess) return false;  // timeout, or an error that the next health read will name
  out->uuid.clear();
  for (auto& [d, uuid] : devices_)
    if (d == data.device) out->uuid = uuid;
  out->at_s = std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  if (data.eventType & kEventXidCritical) {
    out->xid = data.eventData;
    out->what = "Xid " + std::to_string(data.eventData);
  } else {
    out->xid = 0;
    out->what = "double-bit ECC error";
  }
  return true;
}

}  // namespace cuconform
