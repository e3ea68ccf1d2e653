#pragma once
#include <string>

namespace cuconform {

// A compute capability "X.Y" (strings in specs; numbers on devices).
struct ComputeCapability {
  int major = 0, minor = 0;
  static bool parse(const std::string& s, ComputeCapability* out);  // strict "X.Y"
  int value() const { return major * 10 + minor; }
  std::string str() const { return std::to_string(major) + "." + std::to_string(minor); }
  bool operator<=(const ComputeCapability& o) const { return value() <= o.value(); }
  bool operator==(const ComputeCapability& o) const { return value() == o.value(); }
};

// Does a rule gated at min_cc (and optional exact arch "sm_90a") apply to a device of cc?
// Returns "" when it does, else why not.
std::string cc_gate(const ComputeCapability& min_cc, const std::string& arch,
                    const ComputeCapability& device);

bool valid_arch_gate(const std::string& arch);

}  // namespace cuconform
