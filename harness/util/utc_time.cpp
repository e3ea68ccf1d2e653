#include "harness/util/utc_time.hpp"

#include <cmath>

namespace cuconform {

double utc_seconds_of(const std::string& iso) {
  std::tm tm{};
  if (!strptime(iso.c_str(), "%Y-%m-%dT%H:%M:%SZ", &tm)) return NAN;
  return static_cast<double>(timegm(&tm));
}

std::string utc_iso8601(std::time_t t) {
  std::tm tm{};
  gmtime_r(&t, &tm);
  char b[32];
  std::strftime(b, sizeof b, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return b;
}

}  // namespace cuconform
