#include "harness/util/physical_bounds.hpp"

#include <cmath>
#include <sstream>

namespace cuconform {

namespace {

const double* find(const std::vector<std::pair<std::string, double>>& m, const std::string& key) {
  for (const auto& [k, v] : m)
    if (k == key && std::isfinite(v)) return &v;
  return nullptr;
}

std::string num(double v) {
  std::ostringstream os;
  os.precision(4);
  os << v;
  return os.str();
}

}  // namespace

std::string physical_bound_breach(const std::vector<std::pair<std::string, double>>& m, const PeakClocks& peak) {
  std::string out;
  auto add = [&](const std::string& s) { out += (out.empty() ? "" : "; ") + s; };
  const double* d2d = find(m, "d2d_gbps");
  for (const char* figure : {"datasheet_gbps", "theoretical_gbps"}) {
    const double* f = find(m, figure);
    if (d2d && f && *f > 0 && *d2d > *f * (1 + kBandwidthFigureError))
      add("d2d copy " + num(*d2d) + " GB/s above the " + std::string(figure, std::string(figure).find('_')) + " figure " +
          num(*f) + " GB/s (+" + num(100 * kBandwidthFigureError) + "%)");
  }
  if (const double* f = find(m, "frac_d2d"); f && *f > 1 + kFractionOfD2dError)
    add("rate " + num(*f) + " of the d2d copy, above 1 beyond the stated error " + num(kFractionOfD2dError));
  for (const auto& [key, v] : m) {  // every clock read, however many the record holds
    const bool sm = key.rfind("sm_mhz_", 0) == 0, mem = key.rfind("mem_mhz_", 0) == 0;
    const double limit = sm ? peak.sm_mhz : mem ? peak.mem_mhz : 0;
    if (limit > 0 && std::isfinite(v) && v > limit * (1 + kClockError))
      add(std::string(sm ? "SM" : "memory") + " clock " + num(v) + " MHz (" + key + ") above the GPU's maximum " + num(limit) +
          " MHz");
  }
  return out;
}

}  // namespace cuconform
