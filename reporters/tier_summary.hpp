#pragma once
// The reports' "Verdicts by tier" (docs/contract.md): per tier (core, extended, informational),
// how many cases and how each ended, and how many of the failures are of rules in shadow.
// Files written before suite 1.0.0 carry no tier: their cases count as "(no tier)".
#include <string>

#include "reporters/results_file.hpp"

namespace cuconform {

std::string tier_summary_markdown(const Fleet& f);
std::string tier_summary_html(const Fleet& f);  // a <section id="tiers">

}  // namespace cuconform
