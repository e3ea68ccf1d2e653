#pragma once
// The measurement sections of a report page: for one run, charts per area (collapsed, one
// group per area); for several runs, the measurements that differ most between the runs, as a
// table and as charts of one bar per run.
#include <string>

#include "reporters/results_file.hpp"

namespace cuconform::html {

// <section id="measurements"> of a single run; `charts` gets the number drawn.
std::string run_measurements_section(const Fleet& f, int* charts = nullptr);
// <section id="measurements"> of a fleet (runs side by side).
std::string fleet_measurements_section(const Fleet& f);

}  // namespace cuconform::html
