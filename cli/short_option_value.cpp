#include "cli/short_option_value.hpp"

namespace cuconform {

std::vector<std::string> split_short_option_values(int argc, const char* const* argv,
                                                   const std::function<bool(const std::string&)>& is_option) {
  std::vector<std::string> out;
  bool options = true;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--") options = false;
    if (options && a.size() > 2 && a[0] == '-' && a[1] != '-' && a[2] == '=' && is_option(a.substr(0, 2))) {
      out.push_back(a.substr(0, 2));
      out.push_back(a.substr(3));
    } else {
      out.push_back(a);
    }
  }
  return out;
}

}  // namespace cuconform
