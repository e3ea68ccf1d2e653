// Case expansion: names, where/exclude, substitution, CC gating.
#include <catch2/catch.hpp>

#include "harness/spec/catalog.hpp"
#include "harness/spec/constraint.hpp"
#include "harness/spec/expand.hpp"

using namespace cuconform;

static Catalog shipped() { return load_catalog(CUCONFORM_SOURCE_SPECS_DIR); }

TEST_CASE("case names are the rule id plus its parameters", "[host][spec]") {
  Catalog cat = shipped();
  REQUIRE(cat.ok());
  const Case* c = cat.find_case("ldgsts.zero_fill.cp16.src8.cg");
  REQUIRE(c != nullptr);
  CHECK(c->param("cp") == "16");
  CHECK(c->param_int("src") == 8);
  CHECK(c->rule->id == "ldgsts.zero_fill");
  // where: src <= cp and mode == ca || cp == 16
  CHECK(cat.find_case("ldgsts.zero_fill.cp4.src5.ca") == nullptr);
  CHECK(cat.find_case("ldgsts.zero_fill.cp4.src4.cg") == nullptr);
  CHECK(cat.find_case("ldgsts.zero_fill.cp4.src0.ca") != nullptr);
}

TEST_CASE("every rule x parameter combination is one case", "[host][spec]") {
  Catalog cat = shipped();
  int zero_fill = 0;
  for (auto& c : cat.cases) zero_fill += c.rule->id == "ldgsts.zero_fill";
  // cp4: src 0..3 (ca), cp8: 0..7 (ca), cp16: 0..15 (ca and cg): src-size must be less than
  // cp-size; src == cp is ldgsts.zero_fill_src_equals_cp_size's, recorded (2026-11-26)
  CHECK(zero_fill == 4 + 8 + 16 * 2);
}

TEST_CASE("negative rules expand to a control and a violation -- faults are isolated", "[host][spec]") {
  // No shipped rule expects a fault since 2026-11-26 (the one that did, ldgsts.alignment.size_aligned,
  // records the undefined misaligned access now): the harness's own spec keeps the form.
  Catalog cat = load_catalog(std::string(CUCONFORM_TESTDATA) + "/specs");
  REQUIRE(cat.ok());
  const Case* control = cat.find_case("selftest.negative.control.pid");
  const Case* violation = cat.find_case("selftest.negative.violation.pid");
  REQUIRE(control);
  REQUIRE(violation);
  CHECK_FALSE(control->isolated);
  CHECK(violation->isolated);
  CHECK(violation->expect.str("fault") == "CUDA_ERROR_MISALIGNED_ADDRESS");
  CHECK_FALSE(control->expect.has("fault"));
}

TEST_CASE("{param} in an expectation takes the case's value", "[host][spec]") {
  Catalog cat = shipped();
  const Case* c = cat.find_case("ldgsts.ptx.global_to_shared_only.violation.shared_shared");
  REQUIRE(c);
  CHECK(c->expect.str("ptx") == "cp.async.ca.shared.shared [%rd_g], [%rd_g], 16;");
  CHECK(c->expect.str("accepted") == "false");
}

TEST_CASE("where-expressions", "[host][spec]") {
  std::map<std::string, std::string> p = {{"cp", "16"}, {"src", "8"}, {"mode", "ca"}};
  CHECK(eval_constraint("src <= cp", p));
  CHECK_FALSE(eval_constraint("src > cp", p));
  CHECK(eval_constraint("mode == ca || cp == 4", p));
  CHECK_FALSE(eval_constraint("mode == cg && cp == 16", p));
  CHECK(eval_constraint("cp % src == 0 && !(src == 3)", p));
  CHECK(eval_constraint("(cp - src) * 2 == 16", p));
  CHECK_THROWS_AS(eval_constraint("src <= (cp", p), std::invalid_argument);
  CHECK_THROWS_AS(eval_constraint("mode < cp", p), std::invalid_argument);
}

TEST_CASE("compute capability gates", "[host][cc]") {
  ComputeCapability cc80, cc90, cc75, cc100;
  REQUIRE(ComputeCapability::parse("8.0", &cc80));
  REQUIRE(ComputeCapability::parse("9.0", &cc90));
  REQUIRE(ComputeCapability::parse("7.5", &cc75));
  REQUIRE(ComputeCapability::parse("10.0", &cc100));
  ComputeCapability bad;
  CHECK_FALSE(ComputeCapability::parse("8", &bad));
  CHECK_FALSE(ComputeCapability::parse("8.0.1", &bad));
  CHECK_FALSE(ComputeCapability::parse("eight", &bad));
  CHECK(cc_gate(cc80, "", cc90).empty());
  CHECK(cc_gate(cc80, "", cc75).find("cc too low") == 0);
  CHECK(cc_gate(cc90, "sm_90a", cc90).empty());
  CHECK(cc_gate(cc90, "sm_90a", cc100).find("arch-specific") == 0);
  CHECK(cc_gate(cc90, "", cc100).empty());
}
