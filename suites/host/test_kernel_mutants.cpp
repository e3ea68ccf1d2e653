// The kernel-mutant list (ci/kernel-mutants.yaml, run on a GPU by ci/kernel-mutation.py) stays
// runnable without a GPU: every find text occurs exactly once in its file, every rule glob
// selects cases, at least 30 mutants cover all 13 areas with kernel and checker edits.
#include <yaml-cpp/yaml.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <set>
#include <sstream>

#include "harness/spec/selection.hpp"

using namespace cuconform;

namespace {

std::string source_root() { return std::string(CUCONFORM_SOURCE_SPECS_DIR) + "/.."; }

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::size_t occurrences(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (auto at = text.find(needle); !needle.empty() && at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("kernel mutants: find texts unique, globs select cases, every area covered", "[host][mutants]") {
  const YAML::Node root = YAML::LoadFile(source_root() + "/ci/kernel-mutants.yaml");
  const YAML::Node list = root["mutants"];
  REQUIRE(list.IsSequence());
  CHECK(list.size() >= 30);
  Catalog cat = load_catalog(CUCONFORM_SOURCE_SPECS_DIR);
  REQUIRE(cat.ok());
  std::set<std::string> areas;  // every area of the specs
  for (const auto& r : cat.rules) areas.insert(r->area);
  std::set<std::string> ids, covered, kinds;
  for (const auto& m : list) {
    const std::string id = m["id"].as<std::string>("");
    INFO("mutant " << id);
    CHECK(ids.insert(id).second);
    for (const char* key : {"area", "kind", "file", "find", "replace", "why", "rules"}) CHECK(m[key].IsDefined());
    const std::string area = m["area"].as<std::string>(""), kind = m["kind"].as<std::string>("");
    CHECK(areas.count(area));
    covered.insert(area);
    CHECK((kind == "kernel" || kind == "checker"));
    kinds.insert(kind);
    const std::string file = m["file"].as<std::string>(""), find = m["find"].as<std::string>("");
    CHECK(occurrences(slurp(source_root() + "/" + file), find) == 1);
    CHECK(find != m["replace"].as<std::string>(""));
    REQUIRE(m["rules"].IsSequence());
    for (const auto& g : m["rules"]) {
      Selection s;
      s.rules = {g.as<std::string>()};
      std::vector<const Case*> out;
      std::string err;
      INFO("glob " << s.rules[0]);
      CHECK(select_cases(cat, s, &out, &err));
    }
  }
  CHECK(covered == areas);
  CHECK(kinds == std::set<std::string>{"checker", "kernel"});
}
