#include "harness/util/number_text.hpp"

#include <cmath>
#include <cstdio>

namespace cuconform {

std::string number_text(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

}  // namespace cuconform
