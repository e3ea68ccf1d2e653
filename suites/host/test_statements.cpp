// The statement index: the rules' `statements:` key, unknown ids as lint errors, and the
// coverage counts (proved > recorded > planned > not-testable > nothing).
#include <catch2/catch.hpp>

#include "harness/runner/tools.hpp"
#include "harness/spec/coverage.hpp"

using namespace cuconform;

static std::string testdata(const std::string& p) { return std::string(CUCONFORM_TESTDATA) + "/" + p; }

static ToolRun cli(std::vector<std::string> args) {
  args.insert(args.begin(), CUCONFORM_EXE);
  return run_tool(args, 120);
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
  ToolRun lint = cli({"lint", "--specs", testdata("specs")});
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
  ToolRun lint = cli({"lint", "--specs", testdata("coverage_unknown/specs")});
  INFO(lint.output);
  CHECK(lint.exit_code == 2);
  CHECK(lint.output.find("cov.yaml:10:40: rule cov.unknown names unknown statement") != std::string::npos);
}

TEST_CASE("coverage counts each statement once, strongest first", "[host][spec][statements]") {
  Catalog cat = load_catalog(testdata("coverage/specs"));
  StatementIndex idx = load_statements(statements_dir_for(cat.dir));
  for (auto& e : idx.errors) UNSCOPED_INFO(e.str());
  REQUIRE(idx.errors.empty());
  REQUIRE(idx.statements.size() == 6);
  CHECK(idx.find("doc.a.sec-two.eeeeee")->disposition == "not-testable");
  CoverageReport c = compute_coverage(cat, idx);
  CHECK(c.total.total() == 6);
  CHECK(c.total[CoverageStatus::proved] == 2);  // bbbbbb: an active rule beats the planned one
  CHECK(c.total[CoverageStatus::recorded] == 1);
  CHECK(c.total[CoverageStatus::planned] == 1);
  CHECK(c.total[CoverageStatus::not_testable] == 1);
  CHECK(c.total[CoverageStatus::none] == 1);
  REQUIRE(c.documents.size() == 1);
  REQUIRE(c.sections.size() == 2);
  CHECK(c.sections[0].section == "Sec one");
  CHECK(c.sections[0].counts[CoverageStatus::proved] == 2);
  CHECK(c.sections[1].counts.total() == 4);
  CHECK(c.sections[1].counts[CoverageStatus::none] == 1);

  ToolRun json = cli({"coverage", "--specs", testdata("coverage/specs"), "--format", "json"});
  INFO(json.output);
  CHECK(json.exit_code == 0);
  CHECK(json.output.find("\"nothing\": 1") != std::string::npos);
  ToolRun md = cli({"coverage", "--specs", testdata("coverage/specs"), "--format", "md"});
  CHECK(md.exit_code == 0);
  CHECK(md.output.find("| `doc.a.sec-two.gggggg` | doc/a.md:12 | G must be covered by someone. |") != std::string::npos);
  ToolRun unavailable = cli({"coverage", "--specs", testdata("specs")});
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
