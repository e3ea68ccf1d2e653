// Errata: the loader keeps each {says, wrong, fix, evidence} with its line, rejects a
// malformed one, and `cuconform errata` prints them on their own (with the filters).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "harness/util/tools.hpp"
#include "harness/spec/catalog.hpp"
#include "suites/host/test_temp_dir.hpp"

using cuconform::testing::temp_dir;

using namespace cuconform;

static const std::string kDir = std::string(CUCONFORM_TESTDATA) + "/errata";

TEST_CASE("errata load with their place in the file", "[host][spec][errata]") {
  Catalog cat = load_spec_files({kDir + "/errata.yaml"});
  for (auto& e : cat.errors) UNSCOPED_INFO(e.str());
  REQUIRE(cat.ok());
  REQUIRE(cat.rules.size() == 2);
  const Rule& r = *cat.rules[0];
  REQUIRE(r.errata.size() == 2);
  CHECK(r.errata[0].says == "compute(out, in);");
  CHECK(r.errata[0].wrong == "compute is never declared");
  CHECK(r.errata[1].fix == "cp_async_wait<0>()");
  CHECK(r.errata[0].loc.line == 11);
  CHECK(cat.rules[1]->errata.empty());
}

TEST_CASE("an erratum missing a field is an error", "[host][spec][errata]") {
  std::string dir = temp_dir("errata-missing");
  {
    std::ofstream f(dir + "/m.yaml");
    f << "area: m\nrules:\n  - id: m.a\n    rule: r\n    source: s\n    min_cc: \"8.0\"\n    kind: positive\n"
         "    fixture: selftest.echo\n    params: {value: [1]}\n    errata:\n      - says: x\n        wrong: y\n        fix: z\n"
         "    basis: documented\n";
  }
  Catalog cat = load_spec_files({dir + "/m.yaml"});
  REQUIRE_FALSE(cat.ok());
  CHECK(cat.errors.front().str().find(dir + "/m.yaml:11:") == 0);
  CHECK(cat.errors.front().message.find("missing required key 'evidence'") != std::string::npos);
}

TEST_CASE("cuconform errata prints every erratum and honours the filters", "[host][cli][errata]") {
  ToolRun all = run_tool({CUCONFORM_EXE, "errata", "--specs", kDir}, 60);
  INFO(all.output);
  CHECK(all.exit_code == 0);
  CHECK(all.output.find("errata.literal_example") != std::string::npos);
  CHECK(all.output.find("evidence: error: identifier \"compute\" is undefined") != std::string::npos);
  CHECK(all.output.find("errata.clean_example") == std::string::npos);
  CHECK(all.output.find("2 errata in 1 rule(s)") != std::string::npos);

  ToolRun none = run_tool({CUCONFORM_EXE, "errata", "--specs", kDir, "--rule", "errata.clean_example"}, 60);
  CHECK(none.exit_code == 0);
  CHECK(none.output.find("0 errata in 0 rule(s)") != std::string::npos);

  ToolRun shipped = run_tool({CUCONFORM_EXE, "errata", "--area", "examples"}, 60);
  INFO(shipped.output);
  CHECK(shipped.exit_code == 0);
  CHECK(shipped.output.find("0 errata") == std::string::npos);  // the seeds' examples carry errata
}
