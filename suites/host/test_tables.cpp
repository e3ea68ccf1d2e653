// The rule-table audit (tables/, issue 24): strict loading against the catalog (every rule id
// and glob must select a case that gives the row its disposition; exactly one disposition per
// row), the counts, and `cuconform coverage --tables` over the real tables.
#include <catch2/catch.hpp>

#include <filesystem>

#include "harness/spec/tables.hpp"
#include "harness/util/tools.hpp"
#include "reporters/coverage_report.hpp"

using namespace cuconform;

static std::string testdata(const std::string& p) { return std::string(CUCONFORM_TESTDATA) + "/" + p; }

static bool has_error(const TableAudit& a, const std::string& where, const std::string& what) {
  for (auto& e : a.errors)
    if (e.str().find(where) != std::string::npos && e.message.find(what) != std::string::npos) return true;
  return false;
}

TEST_CASE("tables: a good file loads, counts each disposition and marks rows only newer GPUs run",
          "[host][spec][tables]") {
  Catalog cat = load_catalog(testdata("tables/specs"));
  for (auto& e : cat.errors) UNSCOPED_INFO(e.str());
  REQUIRE(cat.ok());
  CHECK(tables_dir_for(testdata("tables/specs")) == testdata("tables/tables"));
  TableAudit a = load_tables(tables_dir_for(cat.dir), cat);
  for (auto& e : a.errors) UNSCOPED_INFO(e.str());
  REQUIRE(a.errors.empty());
  REQUIRE(a.available);
  REQUIRE(a.tables.size() == 2);
  const Table& t = a.tables[0];
  CHECK(t.id == "t.ops");
  REQUIRE(t.rows.size() == 8);
  CHECK(t.counts[RowDisposition::run] == 3);
  CHECK(t.counts[RowDisposition::assembled] == 1);
  CHECK(t.counts[RowDisposition::rejected] == 1);
  CHECK(t.counts[RowDisposition::not_testable] == 1);
  CHECK(t.counts[RowDisposition::planned] == 1);
  CHECK(t.counts[RowDisposition::gap] == 1);
  CHECK(a.total.total() == 9);
  CHECK(t.rows[0].cases == 2);          // t.gpu: both of its cases
  CHECK(t.rows[1].cases == 1);          // a case glob
  CHECK(t.rows[0].needs.empty());
  CHECK(t.rows[2].needs == "CC 10.0");  // t.gpu100
  CHECK(a.run_above_cc90 == 1);
  CHECK(t.rows[7].reason == "no rule yet");
  CHECK(t.rows[7].loc.line == 13);

  std::string text = tables_text(a, false);
  CHECK(text.find("t.ops") != std::string::npos);
  CHECK(text.find("t.spaces") != std::string::npos);
  CHECK(text.find("gap rows (1):") != std::string::npos);
  CHECK(text.find("good.yaml:13") != std::string::npos);
  CHECK(tables_summary(a) == "table audit: 2 tables, 9 rows: run 4, assembled 1, rejected 1, not-testable 1, planned 1, gap 1 "
                             "(1 run rows only on GPUs above CC 9.0)");
  std::string listed = tables_text(a, true);
  CHECK(listed.find("[only GPUs of CC 10.0 and above run it]") != std::string::npos);
  CHECK(tables_markdown(a, true).find("| `.xor.b32` | gap | no rule yet  (next) |") != std::string::npos);
  CHECK(tables_json(a).find("\"run_above_cc90\": 1") != std::string::npos);
}

TEST_CASE("tables: unknown rules, empty globs, wrong kinds and zero or two dispositions are errors at file:line",
          "[host][spec][tables]") {
  Catalog cat = load_catalog(testdata("tables/specs"));
  REQUIRE(cat.ok());
  TableAudit a = load_table_files({testdata("tables/bad/bad.yaml")}, cat);
  for (auto& e : a.errors) UNSCOPED_INFO(e.str());
  CHECK(has_error(a, "bad.yaml:6:", "'t.nosuch' is no rule id and selects no case"));
  CHECK(has_error(a, "bad.yaml:7:", "needs exactly one disposition"));
  CHECK(has_error(a, "bad.yaml:7:", "(it has run, gap)"));
  CHECK(has_error(a, "bad.yaml:8:", "(it has none)"));
  CHECK(has_error(a, "bad.yaml:9:", "none is a case that runs on the GPU"));
  CHECK(has_error(a, "bad.yaml:10:", "rule 't.later' is planned"));
  CHECK(has_error(a, "bad.yaml:11:", "'t.zz*' is no rule id and selects no case"));
  CHECK(has_error(a, "bad.yaml:12:", "duplicate row '.or.u32'"));
  CHECK(has_error(a, "bad.yaml:13:", "duplicate table id 't.bad'"));
  for (auto& e : a.errors) UNSCOPED_INFO(e.str());
  CHECK(a.errors.size() == 8);
}

TEST_CASE("tables: no folder means no audit, not an error", "[host][spec][tables]") {
  Catalog cat = load_catalog(testdata("coverage/specs"));
  REQUIRE(cat.ok());
  TableAudit a = load_tables(tables_dir_for(cat.dir), cat);
  CHECK_FALSE(a.available);
  CHECK(a.errors.empty());
}

TEST_CASE("tables: the project's tables load against its specs, every table has rows, and coverage --tables lists them",
          "[host][spec][tables]") {
  Catalog cat = load_catalog(default_specs_dir());
  for (auto& e : cat.errors) UNSCOPED_INFO(e.str());
  REQUIRE(cat.ok());
  TableAudit a = load_tables(tables_dir_for(cat.dir), cat);
  for (auto& e : a.errors) UNSCOPED_INFO(e.str());
  REQUIRE(a.errors.empty());
  REQUIRE(a.available);
  CHECK(a.tables.size() >= 10);
  int rows = 0;
  for (auto& t : a.tables) {
    INFO(t.id);
    CHECK_FALSE(t.rows.empty());
    CHECK(t.counts.total() == static_cast<int>(t.rows.size()));
    rows += static_cast<int>(t.rows.size());
  }
  CHECK(a.total.total() == rows);

  ToolRun run = run_tool({CUCONFORM_EXE, "coverage", "--tables", "--summary", "--specs", cat.dir}, 120);
  INFO(run.output);
  REQUIRE(run.exit_code == 0);
  for (auto& t : a.tables) CHECK(run.output.find(t.id) != std::string::npos);
  CHECK(run.output.find(tables_summary(a)) != std::string::npos);
  ToolRun lint = run_tool({CUCONFORM_EXE, "lint", "--specs", cat.dir}, 120);
  INFO(lint.output);
  CHECK(lint.exit_code == 0);
  CHECK(lint.output.find("tables: " + std::to_string(a.tables.size()) + " in ") != std::string::npos);
}
