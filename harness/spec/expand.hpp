#pragma once
#include <string>
#include <vector>

#include "harness/spec/catalog.hpp"

namespace cuconform {

// Appends the cases of `rule` to `out`: the cartesian product of its params (declared
// order, first outermost) less `exclude` entries and combinations failing `where`.
// Problems (bad where-expression) are appended to `errors`.
void expand_rule(const Rule& rule, std::vector<Case>& out, std::vector<SpecError>& errors);

// "<rule id>.<part>..." where a numeric value is written key+value (cp16) and any other
// value as itself (ca); characters outside [A-Za-z0-9_-] become '_'.
std::string case_name(const Rule& rule, const std::vector<std::pair<std::string, std::string>>& params);

}  // namespace cuconform
