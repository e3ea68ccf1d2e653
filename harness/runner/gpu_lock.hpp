#pragma once
// Who may use a GPU beside whom when CTest runs one process per case: a lock file per device,
// taken shared by the cases that may share the GPU and exclusive by those that need it to
// themselves (rates, latencies, weak-outcome frequencies, and every isolated case: a fault beside
// running work once left an H100 needing a reset; harness/spec/placement.hpp). It replaces RUN_SERIAL, which
// made CTest wait for every running test, host-only ones included, before each such case.
#include <string>

#include "harness/spec/spec.hpp"

namespace cuconform {

class GpuLock {
 public:
  // Locks `path` (created when missing) for case `c`: nothing for a case that does not use the
  // driver, exclusive when its placement has the GPU alone or isolated, shared otherwise. Blocks until granted.
  // An empty path, or a file that cannot be opened, locks nothing (`error` says why).
  // `exclusive`: exclusive whatever the case (a two-GPU case's two GPUs).
  GpuLock(const std::string& path, const Case& c, bool exclusive = false);
  ~GpuLock();
  GpuLock(const GpuLock&) = delete;
  GpuLock& operator=(const GpuLock&) = delete;

  const char* mode() const { return mode_; }  // "none", "shared", "exclusive"
  double waited_s() const { return waited_s_; }
  const std::string& error() const { return error_; }

 private:
  int fd_ = -1;
  const char* mode_ = "none";
  double waited_s_ = 0;
  std::string error_;
};

// The lock file of CUDA device `device` beside the case server's socket.
std::string gpu_lock_path(const std::string& socket, int device);

}  // namespace cuconform
