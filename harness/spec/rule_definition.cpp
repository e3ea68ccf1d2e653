#include "harness/spec/rule_definition.hpp"

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <set>

namespace cuconform {

bool is_editorial_key(const std::string& key) {
  // relies: the consumers whose code relies on the rule (consumers/ index): who depends on it, like
  // statements, not what it checks.
  static const std::set<std::string> editorial = {"source", "notes", "statements", "relies", "errata", "tags", "tier", "shadow"};
  return editorial.count(key) != 0;
}

namespace {

nlohmann::json canonical(const YAML::Node& n) {
  if (n.IsScalar()) return n.Scalar();
  if (n.IsSequence()) {
    nlohmann::json a = nlohmann::json::array();
    for (const YAML::Node& x : n) a.push_back(canonical(x));
    return a;
  }
  if (n.IsMap()) {
    nlohmann::json o = nlohmann::json::object();  // std::map: keys sorted
    for (auto it = n.begin(); it != n.end(); ++it) o[it->first.as<std::string>("")] = canonical(it->second);
    return o;
  }
  return nullptr;
}

}  // namespace

std::string rule_definition_text(const YAML::Node& rule) {
  nlohmann::json j = canonical(rule);
  if (j.is_object())
    for (auto it = j.begin(); it != j.end();) it = is_editorial_key(it.key()) ? j.erase(it) : std::next(it);
  return j.dump();
}

std::string rule_definition_hash(const YAML::Node& rule) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : rule_definition_text(rule)) {
    h ^= c;
    h *= 1099511628211ull;
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

}  // namespace cuconform
