// The statement index: the rules' `statements:` key, unknown ids as lint errors, and the
// coverage counts (proved > recorded > planned > not-testable > nothing).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "harness/util/tools.hpp"
#include "harness/spec/coverage.hpp"
#include "suites/host/test_cli_run.hpp"
#include "suites/host/test_temp_dir.hpp"

using namespace cuconform;
using cuconform::testing::cli;

static std::string testdata(const std::string& p) { return std::string(CUCONFORM_TESTDATA) + "/" + p; }

// A specs folder the cuconform executable can load (planned rules need no fixture; the selftest
// fixtures live in the test binary only), with the testdata index beside it when `with_index`.
static std::string cli_specs(const std::string& name, bool with_index) {
  namespace fs = std::filesystem;
  fs::path root = cuconform::testing::temp_dir(name);
  fs::create_directories(root / "specs");
  if (with_index) fs::copy(testdata("coverage/statements"), root / "statements");
  std::ofstream(root / "specs" / "cov.yaml") << R"(area: cov
rules:
  - id: cov.recorded
    rule: Documented undefined behaviour is recorded.
    source: doc.a
    min_cc: "1.0"
    kind: undefined
    requires: [ptxas]
    fixture: ptx.assemble
    expect: {ptx: "membar.cta;"}
    statements: [doc.a.sec-one.bbbbbb]
    basis: undefined
  - id: cov.planned
    rule: A planned rule plans what it names.
    source: doc.a
    min_cc: "1.0"
    kind: positive
    status: planned
    reason: needs a fixture
    statements: [doc.a.sec-two.dddddd]
)";
  return (root / "specs").string();
}

TEST_CASE("statements: is read with each id's location", "[host][spec][statements]") {
  Catalog cat = load_catalog(testdata("coverage/specs"));
  for (auto& e : cat.errors) UNSCOPED_INFO(e.str());
  REQUIRE(cat.ok());
  const Rule* active = nullptr;
  for (auto& r : cat.rules)
    if (r->id == "cov.active") active = r.get();
  REQUIRE(active);
  REQUIRE(active->statements == std::vector<std::string>{"doc.a.sec-one.aaaaaa", "doc.a.sec-one.bbbbbb"});
  CHECK(active->statement_locs[1].line == 15);
  CHECK(active->statement_locs[1].col == 40);

  Catalog bad = load_spec_files({testdata("bad/bad_statements.yaml")});
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.errors.front().str().find("bad_statements.yaml:10:17: 'statements' must be a list") != std::string::npos);
}

TEST_CASE("the statements folder is the specs folder's sibling, and optional", "[host][spec][statements]") {
  CHECK(statements_dir_for("a/b/specs") == "a/b/statements");
  CHECK(statements_dir_for("a/b/specs/") == "a/b/statements");
  StatementIndex none = load_statements(statements_dir_for(testdata("specs")));
  CHECK_FALSE(none.available);
  CHECK(none.errors.empty());
  ToolRun lint = cli({"lint", "--specs", cli_specs("cov-noindex", false)});
  INFO(lint.output);
  CHECK(lint.exit_code == 0);
  CHECK(lint.output.find("coverage unavailable") != std::string::npos);
}

TEST_CASE("a rule naming an unknown statement is a lint error at file:line:col", "[host][spec][statements]") {
  Catalog cat = load_catalog(testdata("coverage_unknown/specs"));
  REQUIRE(cat.ok());
  StatementIndex idx = load_statements(statements_dir_for(cat.dir));
  REQUIRE(idx.available);
  auto errors = unknown_statement_refs(cat, idx);
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].str().find("cov.yaml:10:40: rule cov.unknown names unknown statement 'doc.a.sec-one.zzzzzz'") != std::string::npos);
  std::string dir = cli_specs("cov-unknown", true);
  std::ofstream(dir + "/cov.yaml", std::ios::app) << "  - id: cov.unknown\n    rule: Names an unknown id.\n    source: doc.a\n"
      << "    min_cc: \"1.0\"\n    kind: positive\n    status: planned\n    reason: test\n    statements: [doc.a.sec-one.zzzzzz]\n";
  ToolRun lint = cli({"lint", "--specs", dir});
  INFO(lint.output);
  CHECK(lint.exit_code == 2);
  CHECK(lint.output.find("cov.yaml:28:18: rule cov.unknown names unknown statement 'doc.a.sec-one.zzzzzz'") != std::string::npos);
}

TEST_CASE("coverage counts each statement once, strongest first", "[host][spec][statements]") {
  Catalog cat = load_catalog(testdata("coverage/specs"));
  StatementIndex idx = load_statements(statements_dir_for(cat.dir));
  for (auto& e : idx.errors) UNSCOPED_INFO(e.str());
  REQUIRE(idx.errors.empty());
  REQUIRE(idx.statements.size() == 8);
  CHECK(idx.find("doc.a.sec-two.eeeeee")->disposition == "not-testable");
  CoverageReport c = compute_coverage(cat, idx);
  CHECK(c.total.total() == 8);
  CHECK(c.total.normative() == 7);              // hhhhhh: judged non-normative
  CHECK(c.total[CoverageStatus::proved] == 3);  // bbbbbb: an active rule beats the planned one
  CHECK(c.total[CoverageStatus::non_normative] == 1);
  CHECK(c.above_cc90 == 1);                     // iiiiii: only a GPU rule gated at CC 10.0
  CHECK(c.total[CoverageStatus::recorded] == 1);
  CHECK(c.total[CoverageStatus::planned] == 1);
  CHECK(c.total[CoverageStatus::not_testable] == 1);
  CHECK(c.total[CoverageStatus::none] == 1);
  REQUIRE(c.documents.size() == 1);
  REQUIRE(c.sections.size() == 2);
  CHECK(c.sections[0].section == "Sec one");
  CHECK(c.sections[0].counts[CoverageStatus::proved] == 2);
  CHECK(c.sections[1].counts.total() == 6);
  CHECK(coverage_summary(c).find("proved or recorded: 4 of 7 normative statements (57.1%); 1 of them only by rules gated above CC 9.0") == 0);
  CHECK(c.sections[1].counts[CoverageStatus::none] == 1);

  std::string dir = cli_specs("cov-cli", true);
  ToolRun json = cli({"coverage", "--specs", dir, "--format", "json"});
  INFO(json.output);
  CHECK(json.exit_code == 0);
  CHECK(json.output.find("\"recorded\": 1") != std::string::npos);
  CHECK(json.output.find("\"nothing\": 4") != std::string::npos);  // aaaaaa, cccccc, gggggg, iiiiii (eeeeee: not-testable)
  CHECK(json.output.find("\"non-normative\": 1") != std::string::npos);
  ToolRun md = cli({"coverage", "--specs", dir, "--format", "md"});
  CHECK(md.exit_code == 0);
  CHECK(md.output.find("| `doc.a.sec-two.gggggg` | doc/a.md:12 | G must be covered by someone. |") != std::string::npos);
  ToolRun unavailable = cli({"coverage", "--specs", cli_specs("cov-noindex", false)});
  CHECK(unavailable.exit_code == 2);
  CHECK(unavailable.output.find("no statement index") != std::string::npos);
}

TEST_CASE("the shipped index loads and every rule's statements are in it", "[host][spec][statements]") {
  Catalog cat = load_catalog(CUCONFORM_SOURCE_SPECS_DIR);
  REQUIRE(cat.ok());
  StatementIndex idx = load_statements(statements_dir_for(CUCONFORM_SOURCE_SPECS_DIR));
  for (auto& e : idx.errors) UNSCOPED_INFO(e.str());
  REQUIRE(idx.available);
  REQUIRE(idx.errors.empty());
  auto unknown = unknown_statement_refs(cat, idx);
  for (auto& e : unknown) UNSCOPED_INFO(e.str());
  CHECK(unknown.empty());
  CHECK(idx.statements.size() > 500);
}
