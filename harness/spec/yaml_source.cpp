#include "harness/spec/yaml_source.hpp"

namespace cuconform {

SourceLoc yaml_source_loc(const std::string& file, const YAML::Mark& m) {
  return SourceLoc{file, m.line >= 0 ? m.line + 1 : 0, m.column >= 0 ? m.column + 1 : 0};
}

std::string required_scalar(const YAML::Node& map, const char* key,
                            const std::function<void(const YAML::Mark&, const std::string&)>& error) {
  YAML::Node v = map[key];
  if (!v || !v.IsScalar() || v.Scalar().empty()) {
    error(v ? v.Mark() : map.Mark(), std::string("missing or empty '") + key + "'");
    return "";
  }
  return v.Scalar();
}

void check_map_keys(const YAML::Node& map, const std::set<std::string>& allowed, const std::string& what,
                    const std::function<void(const YAML::Mark&, const std::string&)>& error) {
  std::set<std::string> seen;
  for (auto it = map.begin(); it != map.end(); ++it) {
    std::string k = it->first.as<std::string>("");
    if (!allowed.count(k)) {
      std::string list;
      for (auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
      error(it->first.Mark(), "unknown key '" + k + "' in " + what + " (allowed: " + list + ")");
    }
    if (!seen.insert(k).second) error(it->first.Mark(), "duplicate key '" + k + "' in " + what);
  }
}

}  // namespace cuconform
