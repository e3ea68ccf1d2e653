#include "cli/options.hpp"

#include <cerrno>
#include <cstdlib>

namespace cuconform {

std::string Options::get(const std::string& k, const std::string& fallback) const {
  auto it = values.find(k);
  return it == values.end() ? fallback : it->second;
}

bool whole_number(const std::string& text, long lo, long hi, long* out) {
  char* end = nullptr;
  errno = 0;
  const long v = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end || errno == ERANGE || v < lo || v > hi) return false;
  *out = v;
  return true;
}

}  // namespace cuconform
