#include "cli/options.hpp"

#include <cerrno>
#include <cstdlib>

namespace cuconform {

std::string Options::get(const std::string& k, const std::string& fallback) const {
  auto it = values.find(k);
  return it == values.end() ? fallback : it->second;
}

bool whole_number(const std::string& text, long lo, long hi, long* out) {
  char* end = nullptr;
  errno = 0;
  const long v = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end || errno == ERANGE || v < lo || v > hi) return false;
  *out = v;
  return true;
}

bool parse_options(const std::string& verb, const VerbSpec& spec, int argc, char** argv, Options* out, std::string* error) {
  out->verb = verb;
  static const std::set<std::string> filters = {"--area", "--rule", "--tag", "--kind", "--profile"};
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](std::string* v) {
      if (i + 1 >= argc || std::string(argv[i + 1]).rfind("--", 0) == 0) {
        *error = a + " needs a value";
        return false;
      }
      *v = argv[++i];
      return true;
    };
    std::string v;
    if (a == "--specs") {
      if (!value(&out->specs)) return false;
    } else if (filters.count(a) && spec.filters) {
      if (!value(&v)) return false;
      if (a == "--area") out->sel.areas.push_back(v);
      if (a == "--rule") out->sel.rules.push_back(v);
      if (a == "--tag") out->sel.tags.push_back(v);
      if (a == "--kind") out->sel.kinds.push_back(v);
      if (a == "--profile") out->sel.profile = v;
    } else if (spec.value_flags.count(a)) {
      if (!value(&v)) return false;
      out->values[a] = v;
    } else if (spec.switch_flags.count(a)) {
      out->switches.insert(a);
    } else if (a.rfind("-", 0) == 0 && a.size() > 1) {
      *error = "unknown option '" + a + "' for '" + verb + "' (see cuconform help)";
      return false;
    } else {
      out->positional.push_back(a);
    }
  }
  int n = static_cast<int>(out->positional.size());
  if (n < spec.min_positional || n > spec.max_positional) {
    *error = "'" + verb + "' takes " +
             (spec.min_positional == spec.max_positional ? std::to_string(spec.min_positional)
                                                         : std::to_string(spec.min_positional) + " to " + std::to_string(spec.max_positional)) +
             " file argument(s), got " + std::to_string(n);
    return false;
  }
  return true;
}

}  // namespace cuconform
