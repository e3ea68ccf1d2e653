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
