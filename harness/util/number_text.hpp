#pragma once
// Numbers in text for people (console, reports, JUnit attributes): ten significant digits.
#include <string>

namespace cuconform {

// "57", "1.05", "1.501098803e+11"; NaN and infinities as "null", as the results file has them.
std::string number_text(double v);

}  // namespace cuconform
