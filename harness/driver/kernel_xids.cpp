#include "harness/driver/kernel_xids.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <regex>

namespace cuconform {

bool parse_xid_line(const std::string& line, KernelXid* out) {
  static const std::regex re(R"(NVRM: Xid \((?:PCI:)?([0-9A-Fa-f]{4,8}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2})[^)]*\): (\d+))");
  std::smatch m;
  if (!std::regex_search(line, m, re)) return false;
  out->pci = m[1].str();
  out->xid = static_cast<unsigned>(std::stoul(m[2].str()));
  const std::size_t at = static_cast<std::size_t>(m.position(0));
  out->line = line.substr(at, 200);
  return true;
}

bool same_gpu(const std::string& xid_pci, const std::string& pci_bus_id) {
  auto lower = [](std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
  };
  // NVML and the Driver API write an 8-digit domain ("00000000:19:00.0") or a 4-digit one; the
  // kernel log a 4-digit one. Compare bus and device, and the domain's value.
  auto parts = [&](const std::string& s, unsigned long* dom, std::string* rest) {
    const std::size_t c = s.find(':');
    if (c == std::string::npos) return false;
    *dom = std::strtoul(s.substr(0, c).c_str(), nullptr, 16);
    *rest = lower(s.substr(c + 1, 5));  // "19:00"
    return true;
  };
  unsigned long da = 0, db = 0;
  std::string ra, rb;
  return parts(xid_pci, &da, &ra) && parts(pci_bus_id, &db, &rb) && da == db && ra == rb;
}

bool kernel_xids(std::vector<KernelXid>* out, std::string* why_not) {
  out->clear();
  const int fd = ::open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    *why_not = std::string("/dev/kmsg: ") + std::strerror(errno);
    return false;
  }
  // Each read returns one record, from the oldest the buffer holds; EAGAIN at the end.
  char buf[8192];
  for (int records = 0; records < 100000; ++records) {
    const ssize_t got = ::read(fd, buf, sizeof buf - 1);
    if (got < 0) {
      if (errno == EPIPE) continue;  // records overwritten while reading: go on with the next
      if (errno == EAGAIN) break;
      *why_not = std::string("/dev/kmsg: ") + std::strerror(errno);
      ::close(fd);
      return false;
    }
    if (got == 0) break;
    buf[got] = 0;
    const char* msg = std::strchr(buf, ';');
    KernelXid x;
    if (msg && parse_xid_line(std::string(msg + 1, std::strcspn(msg + 1, "\n")), &x)) out->push_back(x);
  }
  ::close(fd);
  return true;
}

}  // namespace cuconform
