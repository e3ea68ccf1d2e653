#include "harness/spec/compute_capability.hpp"

#include <regex>

namespace cuconform {

bool ComputeCapability::parse(const std::string& s, ComputeCapability* out) {
  static const std::regex re("^([1-9][0-9]?)\\.([0-9])$");
  std::smatch m;
  if (!std::regex_match(s, m, re)) return false;
  out->major = std::stoi(m[1]);
  out->minor = std::stoi(m[2]);
  return true;
}

bool valid_arch_gate(const std::string& arch) {
  static const std::regex re("^sm_[1-9][0-9]?[0-9][af]?$");
  return std::regex_match(arch, re);
}

std::string cc_gate(const ComputeCapability& min_cc, const std::string& arch,
                    const ComputeCapability& device) {
  if (!(min_cc <= device))
    return "cc too low: needs " + min_cc.str() + ", device is " + device.str();
  if (!arch.empty()) {
    // sm_90a: arch-specific features exist on cc 9.0 exactly; sm_100f: the family (same major).
    std::string digits = arch.substr(3);
    char suffix = digits.back();
    if (suffix == 'a' || suffix == 'f') digits.pop_back();
    int v = std::stoi(digits);
    bool ok = suffix == 'f' ? v / 10 == device.major && v % 10 <= device.minor
                            : v == device.value();
    if (!ok) return "arch-specific: needs " + arch + ", device is sm_" + std::to_string(device.value());
  }
  return "";
}

}  // namespace cuconform
