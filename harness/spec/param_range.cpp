#include "harness/spec/param_range.hpp"

#include <cerrno>
#include <cstdlib>

namespace cuconform {
namespace {

bool whole(const std::string& s) {
  std::size_t i = !s.empty() && s[0] == '-' ? 1 : 0;
  if (i == s.size()) return false;
  for (; i < s.size(); ++i)
    if (s[i] < '0' || s[i] > '9') return false;
  return true;
}

// A bound within [-2^31, 2^31): false for longer numbers, whatever their digits.
bool bound(const std::string& s, long long* out) {
  constexpr long long kLimit = 1LL << 31;
  if (s.size() > 12) return false;
  errno = 0;
  long long v = std::strtoll(s.c_str(), nullptr, 10);
  if (errno != 0 || v < -kLimit || v >= kLimit) return false;
  *out = v;
  return true;
}

}  // namespace

bool looks_like_range(const std::string& text) {
  std::size_t dots = text.find("..");
  return dots != std::string::npos && whole(text.substr(0, dots)) && whole(text.substr(dots + 2));
}

bool range_values(const std::string& text, std::vector<std::string>* values, std::string* error) {
  std::size_t dots = text.find("..");
  long long lo = 0, hi = 0;
  const std::string shown = text.size() > 60 ? text.substr(0, 40) + "... (" + std::to_string(text.size()) + " characters)" : text;
  if (!bound(text.substr(0, dots), &lo) || !bound(text.substr(dots + 2), &hi)) {
    *error = "bad range " + shown + ": its bounds must lie in [-2^31, 2^31)";
    return false;
  }
  if (hi < lo || hi - lo >= kMaxRangeValues) {
    *error = "bad range " + shown + ": from a low to a high bound, at most " + std::to_string(kMaxRangeValues) + " values";
    return false;
  }
  for (long long i = lo; i <= hi; ++i) values->push_back(std::to_string(i));
  return true;
}

}  // namespace cuconform
