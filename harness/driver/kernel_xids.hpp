#pragma once
// The Xid errors the NVIDIA kernel driver logged since boot (as far back as the kernel's ring
// buffer holds), read from /dev/kmsg where this process may read it: NVML keeps no history of
// them, and a GPU that logged Xid 79 an hour ago tells the pre-flight something.
#include <string>
#include <vector>

namespace cuconform {

struct KernelXid {
  std::string pci;      // as the driver names the GPU: "0000:19:00" (domain:bus:device)
  unsigned xid = 0;
  std::string line;     // the message, cut at 200 characters
};

// One kernel log line: true with `out` filled when it is an "NVRM: Xid (PCI:0000:19:00): 79, ..."
// message. Pure, for tests.
bool parse_xid_line(const std::string& line, KernelXid* out);
// Whether `xid_pci` ("0000:19:00") names the GPU at `pci_bus_id` ("0000:19:00.0"; any case).
bool same_gpu(const std::string& xid_pci, const std::string& pci_bus_id);

// Every Xid in the kernel log now; false with `why_not` where the log cannot be read (no
// /dev/kmsg, no permission: an unprivileged container). Reads at most 100,000 records.
bool kernel_xids(std::vector<KernelXid>* out, std::string* why_not);

}  // namespace cuconform
