#pragma once
// The two kinds of report page (html_report() picks one): a single run, and a fleet or node
// (several runs side by side, one column per run). `extra`: ready sections placed before the
// footer (coverage, history).
#include <string>

#include "reporters/known_list.hpp"
#include "reporters/results_file.hpp"

namespace cuconform::html {

std::string run_page(const Fleet& f, const KnownList* known, const std::string& source, const std::string& extra,
                     const std::string& footer);
std::string fleet_page(const Fleet& f, const KnownList* known, const std::string& source, const std::string& extra,
                       const std::string& footer);

}  // namespace cuconform::html
