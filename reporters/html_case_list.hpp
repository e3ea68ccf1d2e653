#pragma once
// The case list of a report page: every case of every run, filtered in the page (search box,
// area, verdict, device, known list) and addressed as #cases?area=A&verdict=V so the matrix
// links to it. The cases travel as compact JSON in the page (names split into rule and
// parameters, reasons and measurement names stored once); the page's script draws the rows.
#include <string>

#include "reporters/known_list.hpp"
#include "reporters/results_file.hpp"

namespace cuconform::html {

// The <section id="cases">. For one run: a verdict, seconds, reason and the measurements per
// case; for several: one verdict column per run (headed D1, D2, ...).
std::string case_list_section(const Fleet& f, const KnownList* known);

}  // namespace cuconform::html
