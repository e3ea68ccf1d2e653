#pragma once
// NVML (libnvidia-ml.so.1), opened at run time like the Driver API: what the suite reads of a
// GPU's identity and health. Nothing here changes a GPU's settings. Without the library every
// call says why (once per process is enough to print), and the run goes on without it.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cuconform {

// Whether NVML is loaded and initialised; "" when it is, else why not.
std::string nvml_unavailable();

// The driver's own version ("580.159.04"): the Driver API only tells the CUDA version, so NVML,
// else the kernel module's /proc file; "" when neither says.
std::string driver_version_text();

// A GPU's identity beyond the Driver API's, read at the start of a run.
struct GpuIdentity {
  std::string serial;            // "" where the driver gives none
  std::string vbios;
  std::string ecc_mode;          // enabled | disabled | unknown
  std::string mig_mode;          // enabled | disabled | unsupported | unknown
  std::string persistence_mode;  // enabled | disabled | unknown
};
std::optional<GpuIdentity> nvml_identity(const std::string& uuid, std::string* why_not);

// A GPU's state at one moment (cuconform health; around phases and performance measurements).
struct GpuHealth {
  bool readable = false;
  std::string error;  // why not readable ("GPU is lost", "NVML unavailable: ...")
  unsigned sm_mhz = 0, mem_mhz = 0;
  unsigned temperature_c = 0;
  double power_w = 0;
  std::uint64_t throttle_reasons = 0;  // NVML's clocks-event reason bits
  // ECC error counts since the driver loaded (volatile); -1 where unsupported.
  long long ecc_corrected = -1, ecc_uncorrected = -1;
  // Row remapping (Ampere and later): rows remapped for corrected / uncorrected errors, a remap
  // pending (needs a reset), a remap that failed; -1 where unsupported.
  long long remapped_correctable = -1, remapped_uncorrectable = -1;
  int remap_pending = -1, remap_failed = -1;
  int retired_pages_pending = -1;  // page retirement (pre-Ampere): a retirement pending a reboot
};
GpuHealth nvml_health(const std::string& uuid);

// Why a GPU in state `h` needs attention before it runs anything ("" when it does not): lost, a
// failed or pending row remap, a pending page retirement. New uncorrected ECC errors are judged
// against a start count by the caller (the health watch).
std::string needs_attention(const GpuHealth& h);

// The throttle reasons that slow a measurement down, in words ("sw power cap, hw thermal
// slowdown"); "" when none. Idle and application-clock settings are not slowdowns.
std::string slowdown_reasons(std::uint64_t bits);

// NVML's own view of a GPU's health before a run (the pre-flight, harness/runner/preflight.hpp):
// each answer as NVML gave it, or why there is none. Every call may be missing (an older
// driver's NVML, a GPU that does not support it) and says so in `missing`; nothing is judged here.
template <class T>
struct NvmlAnswer {
  bool known = false;
  T value{};
  std::string missing;  // why not known: "not supported", "nvmlDeviceGetX missing from this NVML", ...
};
struct GpuPreflightAnswers {
  std::string uuid;
  std::string unavailable;  // NVML not loaded, or it does not know the GPU: nothing else was asked
  bool lost = false;        // NVML says the GPU is lost (fallen off the bus)
  // NVML_FI_DEV_GET_GPU_RECOVERY_ACTION: 0 none, 1 GPU reset, 2 node reboot, 3 drain P2P,
  // 4 drain and reset (5 recover the IMEX domain, 6 bus reset, 7 system reboot in newer drivers).
  NvmlAnswer<unsigned> recovery_action;
  // nvmlDeviceGetRemappedRows: rows remapped for correctable / uncorrectable errors, a remap
  // pending (needs a reset), a remap that failed.
  NvmlAnswer<unsigned> remapped_correctable, remapped_uncorrectable, remap_pending, remap_failed;
  // nvmlDeviceGetRetiredPages (pre-Ampere page retirement): pages retired for multiple single-bit
  // and for double-bit errors; nvmlDeviceGetRetiredPagesPendingStatus.
  NvmlAnswer<unsigned> retired_sbe, retired_dbe, retired_pending;
  NvmlAnswer<unsigned long long> ecc_volatile_uncorrected;  // since the driver loaded
  NvmlAnswer<unsigned> persistence, mig;                     // 1 enabled, 0 disabled (current mode)
  NvmlAnswer<unsigned> cc_feature, cc_ready;  // confidential computing: feature on; GPUs accepting work
  // nvmlDeviceGetNvLinkState per link: 1 active, 0 inactive; the links the GPU does not have
  // (NOT_SUPPORTED / INVALID_ARGUMENT) are left out; known with no links: no NVLink.
  NvmlAnswer<std::vector<int>> nvlink;
  // nvmlDeviceGetGpuFabricInfo: state 0 not supported, 1 not started, 2 in progress, 3 completed;
  // status: NVML's return code of the registration (read when completed).
  NvmlAnswer<unsigned> fabric_state, fabric_status;
};
GpuPreflightAnswers nvml_preflight_answers(const std::string& uuid);

// Critical events (Xid errors, double-bit ECC) of the GPUs named, as they happen.
struct XidEvent {
  std::string uuid;
  unsigned long long xid = 0;  // the Xid number; 0 for a non-Xid event (then `what` says)
  std::string what;            // "Xid 79", "double-bit ECC error"
  double at_s = 0;             // seconds on the steady clock's epoch, when it was heard
};

class XidWatch {
 public:
  // Registers for critical events of every GPU in `uuids`; `why_not` when it cannot (no NVML,
  // events not supported on this platform): the run goes on without it.
  XidWatch(const std::vector<std::string>& uuids, std::string* why_not);
  ~XidWatch();
  XidWatch(const XidWatch&) = delete;
  XidWatch& operator=(const XidWatch&) = delete;
  bool active() const { return set_ != nullptr; }
  // Waits up to `timeout_ms` for the next event; false when none came.
  bool next(XidEvent* out, unsigned timeout_ms);

 private:
  void* set_ = nullptr;
  std::vector<std::pair<void*, std::string>> devices_;  // NVML handle, uuid
};

}  // namespace cuconform
