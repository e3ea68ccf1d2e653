#pragma once
// "Did you mean": the known names nearest to a mistyped verb or option (CLI11 has no such thing).
#include <string>
#include <vector>

namespace cuconform {

// Edit distance counting a swap of two neighbours as one edit (lsit -> list: 1).
std::size_t edit_distance(const std::string& a, const std::string& b);

// The candidates nearest to `typed`: at most 1 edit for names up to 4 characters, else 2 (leading
// dashes not counted), or those `typed` begins (at least 3 characters). Nearest first.
std::vector<std::string> nearest(const std::string& typed, const std::vector<std::string>& candidates);

// "; did you mean 'list'?", "; did you mean '--area' or '--arch'?" or "".
std::string did_you_mean(const std::string& typed, const std::vector<std::string>& candidates);

}  // namespace cuconform
