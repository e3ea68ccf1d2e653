// The spec loader: the real specs are clean, and each kind of bad input is reported as
// file:line:col with a message naming the problem.
#include <catch2/catch.hpp>

#include "harness/fixture/param_decl.hpp"
#include "harness/spec/catalog.hpp"

using namespace cuconform;

static std::string bad(const std::string& name) { return std::string(CUCONFORM_TESTDATA) + "/bad/" + name + ".yaml"; }

static std::string only_error(const std::string& name) {
  Catalog cat = load_spec_files({bad(name)});
  REQUIRE_FALSE(cat.ok());
  return cat.errors.front().str();
}

TEST_CASE("the shipped specs load without errors", "[host][spec]") {
  Catalog cat = load_catalog(CUCONFORM_SOURCE_SPECS_DIR);
  for (auto& e : cat.errors) UNSCOPED_INFO(e.str());
  REQUIRE(cat.ok());
  REQUIRE(cat.cases.size() > 0);
}

TEST_CASE("bad specs are reported with file, line and column", "[host][spec]") {
  struct Want {
    const char* file;
    int line;
    const char* text;
  };
  for (Want w : {Want{"syntax", 4, "YAML syntax error"}, Want{"unknown_key", 9, "unknown key 'parms'"},
                 Want{"duplicate_id", 11, "duplicate rule id 'duplicate_id.a'"},
                 Want{"unknown_fixture", 8, "unknown fixture 'no.such.fixture'"},
                 Want{"bad_cc", 6, "min_cc 'eight' is not a compute capability"},
                 Want{"no_control", 3, "needs param 'variant: [control, violation]'"},
                 Want{"planned_no_reason", 3, "needs 'reason:'"},
                 Want{"bad_param", 11, "takes no parameter 'colour'"},
                 Want{"bad_where", 11, "bad where-expression"},
                 Want{"reserved_tag", 9, "tag 'host' is reserved"},
                 Want{"bad_erratum", 14, "unknown key 'evidense' in erratum"},
                 // Typed parameters (issue 45): a value outside the fixture's declaration, at its own line.
                 Want{"bad_op_value", 12, "param 'op': 'ca32' is not one of ca4|ca8|ca16|cg16"},
                 Want{"bad_fill_value", 14, "param 'fill': 'NaN' is not one of zero|nan"}}) {
    INFO(w.file);
    std::string e = only_error(w.file);
    INFO(e);
    CHECK(e.find(bad(w.file) + ":" + std::to_string(w.line) + ":") == 0);
    CHECK(e.find(w.text) != std::string::npos);
  }
}

TEST_CASE("a missing specs folder is an error, not a crash", "[host][spec]") {
  Catalog cat = load_catalog("/nonexistent/specs");
  REQUIRE_FALSE(cat.ok());
  CHECK(cat.errors.front().message == "specs folder not found");
}

TEST_CASE("typed parameters: declarations check values, give defaults, and are listed", "[host][spec][params]") {
  const ParamDecl* op = declared_param("ldgsts.copy", "op");
  REQUIRE(op);
  CHECK(op->refuse("ca16").empty());
  CHECK(op->refuse("ca32") == "'ca32' is not one of ca4|ca8|ca16|cg16");
  CHECK(op->refuse("CA16") != "");  // exact: no case folding
  const ParamDecl* per = declared_param("ldgsts.copy", "per_thread");
  REQUIRE(per);
  CHECK(per->fallback == "4");
  CHECK(per->refuse("0") != "");
  CHECK(per->refuse("8").empty());
  CHECK(per->refuse("8x") == "'8x' is not a whole number (1..64)");
  const ParamDecl* bytes = declared_param("performance.elect_issue", "bytes");
  REQUIRE(bytes);
  CHECK(bytes->refuse("256").empty());
  CHECK(bytes->refuse("24") == "'24' is outside 16..1024 step 16");
  // A fixture without declarations keeps working: names only.
  CHECK(declared_params("selftest.echo").empty());
  CHECK(declared_param("selftest.echo", "value") == nullptr);
}
