// Filters: alternatives within a filter, all filters together, and selecting nothing is an error.
#include <catch2/catch.hpp>

#include "harness/spec/selection.hpp"

using namespace cuconform;

TEST_CASE("filters select cases", "[host][filters]") {
  Catalog cat = load_catalog(CUCONFORM_SOURCE_SPECS_DIR);
  REQUIRE(cat.ok());
  std::vector<const Case*> out;
  std::string err;
  Selection s;
  s.rules = {"ldgsts.zero_fill"};
  REQUIRE(select_cases(cat, s, &out, &err));
  for (auto* c : out) CHECK(c->rule->id == "ldgsts.zero_fill");

  s = {};
  s.rules = {"ldgsts.zero_fill.cp16.*"};  // globs match case names too
  REQUIRE(select_cases(cat, s, &out, &err));
  CHECK(out.size() == 32);  // src 0..15, .ca and .cg (src-size must be less than cp-size)

  s = {};
  s.kinds = {"undefined"};
  s.tags = {"isolated"};
  REQUIRE(select_cases(cat, s, &out, &err));
  for (auto* c : out) CHECK(c->isolated);

  s = {};
  s.areas = {"ldgsts"};
  s.kinds = {"codegen", "performance"};
  REQUIRE(select_cases(cat, s, &out, &err));
  for (auto* c : out) CHECK((c->rule->kind == Kind::codegen || c->rule->kind == Kind::performance));
}

TEST_CASE("bad filters are errors", "[host][filters]") {
  Catalog cat = load_catalog(CUCONFORM_SOURCE_SPECS_DIR);
  std::vector<const Case*> out;
  std::string err;
  Selection s;
  s.areas = {"nosuch"};
  CHECK_FALSE(select_cases(cat, s, &out, &err));
  CHECK(err.find("unknown area 'nosuch'") == 0);
  s = {};
  s.kinds = {"weird"};
  CHECK_FALSE(select_cases(cat, s, &out, &err));
  CHECK(err.find("unknown kind") == 0);
  s = {};
  s.rules = {"no.such.rule*"};
  CHECK_FALSE(select_cases(cat, s, &out, &err));
  CHECK(err.find("the filters select no case") == 0);
}
