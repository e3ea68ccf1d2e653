#pragma once
// What every strict YAML loader of the spec layer (specs, statements, tables) needs to report
// bad input as "file:line:col: message".
#include <yaml-cpp/yaml.h>

#include <functional>
#include <set>
#include <string>

#include "harness/spec/spec.hpp"

namespace cuconform {

// A yaml-cpp mark (0-based, -1 when unknown) as a 1-based source location (0 when unknown).
SourceLoc yaml_source_loc(const std::string& file, const YAML::Mark& m);

// map[key] as a non-empty scalar; otherwise calls `error` ("missing or empty 'key'") and returns "".
std::string required_scalar(const YAML::Node& map, const char* key,
                            const std::function<void(const YAML::Mark&, const std::string&)>& error);

// Calls `error` for each key of `map` not in `allowed` ("unknown key 'k' in WHAT (allowed: ...)")
// and for each key given twice ("duplicate key 'k' in WHAT").
void check_map_keys(const YAML::Node& map, const std::set<std::string>& allowed, const std::string& what,
                    const std::function<void(const YAML::Mark&, const std::string&)>& error);

}  // namespace cuconform
