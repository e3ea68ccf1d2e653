// The harness self-check of measured limits (harness/util/physical_bounds.hpp): the H200 figures
// of docs/runs/2026-11-26-010afcd.md hold; a d2d limit counted twice (above the datasheet), one
// counted half (a stream at 2 of it), and a clock above the GPU's maximum are breaches.
#include <catch2/catch.hpp>

#include "harness/util/physical_bounds.hpp"

using namespace cuconform;

namespace {

using M = std::vector<std::pair<std::string, double>>;
const PeakClocks kH200{1980, 3201};

M h200_stream(double d2d, double frac) {
  return {{"rate_gbps", d2d * frac}, {"d2d_gbps", d2d},          {"frac_d2d", frac},        {"datasheet_gbps", 4800},
          {"theoretical_gbps", 4815}, {"sm_mhz_before", 1980}, {"sm_mhz_after", 1980}, {"mem_mhz_before", 3201},
          {"mem_mhz_after", 3201}};
}

}  // namespace

TEST_CASE("self-check: measured limits within the hardware's bounds", "[host][self-check]") {
  // As measured: d2d 3995 GB/s (0.832 of the datasheet), a load stream at 0.999 of it.
  CHECK(physical_bound_breach(h200_stream(3995, 0.999), kH200).empty());
  CHECK(physical_bound_breach(h200_stream(3995, 1.05), kH200).empty());  // within the stated error
  // The d2d limit counted twice: above the datasheet's and the attributes' HBM figures.
  const std::string twice = physical_bound_breach(h200_stream(7990, 0.5), kH200);
  CHECK(twice.find("above the datasheet figure 4800") != std::string::npos);
  CHECK(twice.find("above the theoretical figure") != std::string::npos);
  // Counted half: the stream reads 2 of it.
  CHECK(physical_bound_breach(h200_stream(1997, 1.998), kH200).find("of the d2d copy, above 1") != std::string::npos);
  // A clock above the maximum.
  M m = h200_stream(3995, 0.9);
  m.emplace_back("sm_mhz_after", 2100);
  CHECK(physical_bound_breach(m, kH200).find("SM clock 2100 MHz (sm_mhz_after) above the GPU's maximum 1980") != std::string::npos);
  // Unknown peaks and figures are not checked (a GPU model the table does not know).
  CHECK(physical_bound_breach({{"d2d_gbps", 9000}, {"sm_mhz_before", 5000}}, PeakClocks{}).empty());
}
