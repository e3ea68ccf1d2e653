#pragma once
// Median and MAD: the robust centre and spread that the history's tolerances and the fleet's
// odd-one-out test both use (one or two wild values do not move them).
#include <vector>

namespace cuconform {

double median_of(std::vector<double> v);      // NaN for none
double mad_of(const std::vector<double>& v);  // median absolute deviation from the median

}  // namespace cuconform
