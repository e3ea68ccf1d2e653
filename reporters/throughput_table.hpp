#pragma once
// "Throughput against the physical limit" (issue 36): every case of a run that states a rate
// against the same run's device-to-device copy (a `frac_d2d` measurement,
// fixtures/common/physical_limit.hpp), one row each: bytes/s, the fraction of the d2d copy and
// of the datasheet figure, the SM and memory clocks. The HTML and Markdown reports show it.
#include <optional>
#include <string>
#include <vector>

#include "reporters/results_file.hpp"

namespace cuconform {

struct ThroughputRow {
  std::string case_name;
  std::string verdict;
  double rate_gbps = 0;
  double frac_d2d = 0;
  std::optional<double> frac_datasheet;  // none where the model has no datasheet figure
  std::optional<double> sm_mhz, mem_mhz;  // after the measurement; none where NVML was unreadable
};

// The rows of run `run`, in the fleet's case order.
std::vector<ThroughputRow> throughput_rows(const Fleet& f, std::size_t run);
// The table in Markdown ("" when there are no rows), and as an HTML section ("" likewise).
std::string throughput_markdown(const std::vector<ThroughputRow>& rows);
std::string throughput_html(const std::vector<ThroughputRow>& rows);

}  // namespace cuconform
