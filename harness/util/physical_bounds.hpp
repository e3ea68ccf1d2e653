#pragma once
// The harness held to the hardware (issue 45): a measured limit beyond what the GPU can do is a
// fault of the measurement, not a result. Read from the measurements every stated rate carries
// (fixtures/common/physical_limit.hpp: d2d_gbps, datasheet_gbps, theoretical_gbps, frac_d2d,
// sm_mhz_before/after, mem_mhz_before/after) and the GPU's peak clocks (Driver API attributes).
#include <string>
#include <utility>
#include <vector>

namespace cuconform {

struct PeakClocks {
  double sm_mhz = 0;   // CU_DEVICE_ATTRIBUTE_CLOCK_RATE / 1000 (0: unknown, not checked)
  double mem_mhz = 0;  // CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE / 1000
};

// The stated errors. A rate's fraction of the same worker's d2d copy: a load-only stream reads
// 0.999 of the copy's bytes read plus written on an H200 (docs/runs/2026-11-26-010afcd.md), and a
// median of 5 moves by a few percent run to run; 10% above it is no noise. The d2d copy itself
// (bytes read plus written) against the datasheet's and the attributes' HBM figure: 2% for the
// rounding of the published figure. Clocks: 0.5% for NVML's MHz against the attribute's kHz.
constexpr double kFractionOfD2dError = 0.10;
constexpr double kBandwidthFigureError = 0.02;
constexpr double kClockError = 0.005;

// "" when every bound holds, else each breach in words ("d2d copy 9600 GB/s above the
// datasheet's 4800 GB/s (+2%)"), "; "-separated.
std::string physical_bound_breach(const std::vector<std::pair<std::string, double>>& measurements, const PeakClocks& peak);

}  // namespace cuconform
