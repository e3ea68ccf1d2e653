#pragma once
// Where a run ran, as the report pages show it: the GPU, the suite and the run for one run; one
// row per device for several. Paths are shown relative or by their last component
// (display_path): a page names no folder of the machine that built or ran the suite.
#include <string>

#include "reporters/results_file.hpp"

namespace cuconform::html {

// Three small tables side by side (device, suite, run): known keys get a friendly name and unit,
// any other key is shown as is.
std::string environment_tables(const RunInfo& r);
// The devices of a fleet, one row each (D1, D2, ...), with their verdict bars.
std::string devices_table(const Fleet& f);

}  // namespace cuconform::html
