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

}  // namespace cuconform
