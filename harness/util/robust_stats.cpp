#include "harness/util/robust_stats.hpp"

#include <algorithm>
#include <cmath>

namespace cuconform {

double median_of(std::vector<double> v) {
  if (v.empty()) return std::nan("");
  auto mid = v.begin() + static_cast<long>(v.size() / 2);
  std::nth_element(v.begin(), mid, v.end());
  double hi = *mid;
  if (v.size() % 2) return hi;
  double lo = *std::max_element(v.begin(), mid);
  return (lo + hi) / 2;
}

double mad_of(const std::vector<double>& v) {
  double m = median_of(v);
  std::vector<double> d;
  for (double x : v) d.push_back(std::fabs(x - m));
  return median_of(d);
}

}  // namespace cuconform
