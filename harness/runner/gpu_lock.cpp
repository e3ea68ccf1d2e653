#include "harness/runner/gpu_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>


namespace cuconform {

GpuLock::GpuLock(const std::string& path, const Case& c, bool exclusive) {
  if (path.empty() || c.placement.gpu == GpuUse::none) return;
  fd_ = open(path.c_str(), O_RDONLY | O_CREAT | O_CLOEXEC, 0666);
  if (fd_ < 0) {
    error_ = "cannot open " + path + ": " + std::strerror(errno);
    return;
  }
  const bool alone = exclusive || c.placement.exclusive();
  const auto t0 = std::chrono::steady_clock::now();
  int rc;
  while ((rc = flock(fd_, alone ? LOCK_EX : LOCK_SH)) != 0 && errno == EINTR) {
  }
  waited_s_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (rc != 0) {
    error_ = "cannot lock " + path + ": " + std::strerror(errno);
    close(fd_);
    fd_ = -1;
    return;
  }
  mode_ = alone ? "exclusive" : "shared";
}

GpuLock::~GpuLock() {
  if (fd_ >= 0) close(fd_);  // closing releases the lock
}

std::string gpu_lock_path(const std::string& socket, int device) {
  return socket.empty() ? std::string() : socket + ".gpu" + std::to_string(device) + ".lock";
}

}  // namespace cuconform
