#pragma once
// The relied-upon section of `cuconform coverage --consumers` (harness/spec/consumer_coverage.hpp):
// per consumer the counts, then each behaviour with its status, the rules that prove or record it
// (or the reason it is not testable here) and where the consumer relies on it.
#include <string>
#include <vector>

#include "harness/spec/consumer_coverage.hpp"

namespace cuconform {

// `list`: every behaviour too (without it: the per-consumer counts and the summary line).
std::string consumers_text(const std::vector<ConsumerCoverage>& c, bool list);
std::string consumers_markdown(const std::vector<ConsumerCoverage>& c, bool list);
std::string consumers_json(const std::vector<ConsumerCoverage>& c);

}  // namespace cuconform
