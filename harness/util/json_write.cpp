#include "harness/util/json_write.hpp"

#include <cmath>
#include <cstdint>

namespace cuconform {

Json json_number(double v) {
  if (!std::isfinite(v)) return nullptr;
  constexpr double kExactIntegers = 9007199254740992.0;  // 2^53: every integer below is a double
  if (std::trunc(v) == v && std::fabs(v) < kExactIntegers) return static_cast<std::int64_t>(v);
  return v;
}

std::string json_text(const Json& j, bool pretty) {
  if (!pretty) return j.dump(-1, ' ', false, Json::error_handler_t::replace);
  return j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace cuconform
