// The command line as a user meets it: exit codes, messages, and the reports of a run.
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "harness/util/tools.hpp"
#include "suites/host/test_cli_run.hpp"
#include "suites/host/test_temp_dir.hpp"

using cuconform::testing::temp_dir;

using namespace cuconform;
using cuconform::testing::cli;

static int count_lines_with(const std::string& text, const std::string& needle) {
  std::istringstream in(text);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) n += line.find(needle) != std::string::npos;
  return n;
}

TEST_CASE("lint passes on specs/ and names file:line for a broken spec", "[host][cli]") {
  ToolRun ok = cli({"lint"});
  INFO(ok.output);
  CHECK(ok.exit_code == 0);
  CHECK(ok.output.find("specs OK") != std::string::npos);

  std::string dir = temp_dir("lint-test");
  std::filesystem::copy(std::string(CUCONFORM_TESTDATA) + "/bad/unknown_fixture.yaml", dir + "/unknown_fixture.yaml");
  ToolRun bad = cli({"lint", "--specs", dir});
  INFO(bad.output);
  CHECK(bad.exit_code == 2);
  CHECK(bad.output.find(dir + "/unknown_fixture.yaml:8:14: unknown fixture 'no.such.fixture'") != std::string::npos);
}

TEST_CASE("list --cc plans for another GPU", "[host][cli]") {
  ToolRun a100 = cli({"list", "--area", "ldgsts", "--cc", "8.0"});
  CHECK(a100.exit_code == 0);
  CHECK(count_lines_with(a100.output, "ldgsts.") >= 20);
  // cp.async needs sm_80: no copy case runs on a Turing GPU (the area's assembler rules about
  // older instructions, such as prefetchu, still apply there).
  ToolRun turing = cli({"list", "--area", "ldgsts", "--kind", "positive", "--cc", "7.5"});
  CHECK(turing.exit_code == 0);
  CHECK(count_lines_with(turing.output, "ldgsts.") == 0);
  CHECK(turing.output.find("0 case(s) apply to cc 7.5") != std::string::npos);
  CHECK(count_lines_with(cli({"list", "--area", "ldgsts", "--kind", "positive", "--cc", "8.0"}).output, "ldgsts.") >= 20);
}

TEST_CASE("bad input exits 2 with a clear message", "[host][cli]") {
  ToolRun flag = cli({"run", "--frobnicate"});
  CHECK(flag.exit_code == 2);
  CHECK(flag.output.find("unknown option '--frobnicate'") != std::string::npos);
  ToolRun none = cli({"list", "--rule", "no.such.*"});
  CHECK(none.exit_code == 2);
  CHECK(none.output.find("the filters select no case") != std::string::npos);
  ToolRun area = cli({"run", "--area", "nosuch"});
  CHECK(area.exit_code == 2);
  ToolRun cc = cli({"list", "--cc", "nine"});
  CHECK(cc.exit_code == 2);
  ToolRun verb = cli({"frobnicate"});
  CHECK(verb.exit_code == 2);
  ToolRun value = cli({"run", "--json"});
  CHECK(value.exit_code == 2);
  CHECK(value.output.find("--json needs a value") != std::string::npos);
}

TEST_CASE("a run with no GPU writes its reports, says so and exits 3", "[host][cli]") {
  std::string dir = temp_dir("run-test");
  ToolRun run = cli({"run", "--area", "ldgsts", "--kind", "positive", "--out", dir});
  INFO(run.output);
  ToolRun device = cli({"device"});
  if (device.exit_code == 0) {
    WARN("a GPU is present: this test covers machines without one");
    return;
  }
  CHECK(run.exit_code == 3);
  CHECK(run.output.find("NO GPU") != std::string::npos);
  CHECK(run.output.find("\n0 passed, 0 failed, ") != std::string::npos);
  std::ifstream json(dir + "/results.json"), junit(dir + "/junit.xml");
  REQUIRE(json.good());
  REQUIRE(junit.good());
  std::stringstream j, x;
  j << json.rdbuf();
  x << junit.rdbuf();
  CHECK(j.str().find("\"schema\": \"cuconform-results/1\"") != std::string::npos);
  CHECK(j.str().find("\"verdict\": \"pass\"") == std::string::npos);
  CHECK(j.str().find("no CUDA driver") != std::string::npos);
  CHECK(x.str().find("<skipped message=\"not-supported: no CUDA driver") != std::string::npos);
}
