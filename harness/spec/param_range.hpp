#pragma once
// A spec parameter written as a range, "0..16": its values, or why it is not one. The bounds are
// read without a regex and without std::stol (which threw out_of_range, uncaught, on
// 0..99999999999999999999999), so a range of any length is an error with its line.
#include <string>
#include <vector>

namespace cuconform {

// The most values a range may stand for.
constexpr long kMaxRangeValues = 4096;

// Whether `text` has the form A..B (each an optional '-' and digits).
bool looks_like_range(const std::string& text);
// The values from A to B, both included; false with `error` when a bound is out of
// [-2^31, 2^31), B < A, or there would be more than kMaxRangeValues values.
bool range_values(const std::string& text, std::vector<std::string>* values, std::string* error);

}  // namespace cuconform
