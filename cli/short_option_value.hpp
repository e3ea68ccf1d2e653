#pragma once
// "-o=out.json" read as "-o out.json", as "--json=out.json" is read as "--json out.json": CLI11
// takes what follows a one-letter option as its value, "=out.json" included, and `merge
// -o=out.json` wrote a file named "=out.json".
#include <functional>
#include <string>
#include <vector>

namespace cuconform {

// argv[1..] with each "-X=VALUE" whose "-X" `is_option` split in two; nothing after "--" is.
std::vector<std::string> split_short_option_values(int argc, const char* const* argv,
                                                   const std::function<bool(const std::string&)>& is_option);

}  // namespace cuconform
