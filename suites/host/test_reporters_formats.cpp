// The run writers agree with each other and with the reader: JUnit (the CTest/CI path) and
// the results file count the same verdicts, the results file holds the environment, and
// what results_json writes load_results reads back unchanged.
#include <catch2/catch.hpp>
#include <cmath>
#include <nlohmann/json.hpp>
#include <regex>

#include "reporters/junit_xml.hpp"
#include "reporters/results_file.hpp"
#include "suites/host/test_reporters_support.hpp"

using namespace cuconform;
using namespace cuconform::testing;

static int attr(const std::string& xml, const std::string& element, const std::string& name) {
  std::smatch m;
  std::regex re("<" + element + "\\b[^>]*\\b" + name + "=\"([0-9]+)\"");
  REQUIRE(std::regex_search(xml, m, re));
  return std::stoi(m[1].str());
}

static int occurrences(const std::string& text, const std::string& needle) {
  int n = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

TEST_CASE("JUnit and the results file agree on verdict counts", "[host][reporters]") {
  auto s = synthetic_run();
  std::string xml = junit_xml(s->run);
  auto j = nlohmann::json::parse(results_json(s->run));
  auto& sum = j["summary"];
  int total = sum["total"], fail = sum["fail"];
  int errors = sum["timeout"].get<int>() + sum["crash"].get<int>();
  // A flake (passed only on a re-run) is neither passed nor failed: JUnit says skipped.
  int skipped = sum["not-supported"].get<int>() + sum["planned"].get<int>() + sum["flake"].get<int>();
  REQUIRE(total == static_cast<int>(s->run.entries.size()));
  CHECK(total == sum["pass"].get<int>() + fail + errors + skipped);
  // The totals on <testsuites> and the elements themselves: skipped is never counted passed.
  CHECK(attr(xml, "testsuites", "tests") == total);
  CHECK(attr(xml, "testsuites", "failures") == fail);
  CHECK(attr(xml, "testsuites", "errors") == errors);
  CHECK(attr(xml, "testsuites", "skipped") == skipped);
  CHECK(occurrences(xml, "<testcase ") == total);
  CHECK(occurrences(xml, "<failure ") == fail);
  CHECK(occurrences(xml, "<error ") == errors);
  CHECK(occurrences(xml, "<skipped ") == skipped);
  // Case by case: the JUnit element matches the JSON verdict.
  for (auto& c : j["cases"]) {
    std::string name = c["name"], v = c["verdict"];
    auto at = xml.find("name=\"" + name + "\"");
    REQUIRE(at != std::string::npos);
    std::string body = xml.substr(at, xml.find("</testcase>", at) - at);
    INFO(name << " " << v);
    CHECK((body.find("<failure ") != std::string::npos) == (v == "fail"));
    CHECK((body.find("<error ") != std::string::npos) == (v == "timeout" || v == "crash"));
    CHECK((body.find("<skipped ") != std::string::npos) == (v == "not-supported" || v == "planned" || v == "flake"));
  }
}

TEST_CASE("the results file holds the environment and every case field", "[host][reporters]") {
  auto s = synthetic_run();
  auto j = nlohmann::json::parse(results_json(s->run));
  CHECK(j["schema"] == "cuconform-results/1");
  for (const char* k : {"version", "commit", "built_with_cuda", "archs", "specs_dir"}) CHECK(j["suite"].contains(k));
  for (const char* k : {"host", "started", "finished", "wall_s", "workers_started", "selection"}) CHECK(j["run"].contains(k));
  for (const char* k : {"available", "name", "uuid", "cc", "sm_count", "clock_khz", "mem_clock_khz", "driver_version",
                        "driver_cuda_version", "code_path"})
    CHECK(j["device"].contains(k));
  for (auto& c : j["cases"])
    for (const char* k : {"name", "rule", "area", "kind", "min_cc", "source", "params", "tags", "verdict", "reason",
                          "expected", "observed", "measurements", "facts", "duration_s"})
      CHECK(c.contains(k));
}

TEST_CASE("a results file reads back with the same cases, verdicts and measurements", "[host][reporters]") {
  auto s = synthetic_run();
  std::string dir = temp_dir("readback");
  write_text(dir + "/a.json", results_json(s->run));
  Fleet f = load_results(dir + "/a.json");
  REQUIRE(f.runs.size() == 1);
  CHECK(f.runs[0].dev("uuid") == "GPU-00000000-1111-2222-3333-444444444444");
  CHECK(f.runs[0].label == "NVIDIA H200 #0 00000000 @ gpu-node-1");  // the UUID tells two GPUs of one model apart
  REQUIRE(f.cases.size() == s->run.entries.size());
  for (std::size_t i = 0; i < f.cases.size(); ++i) {
    const auto& e = s->run.entries[i];
    REQUIRE(f.cases[i].by_run[0]);
    CHECK(f.cases[i].name == e.c->name);
    CHECK(f.cases[i].by_run[0]->verdict == e.r.obs.verdict);
    CHECK(f.cases[i].by_run[0]->measurements == e.r.obs.measurements);
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("the results file keeps numbers exact and strings that look like numbers strings", "[host][reporters]") {
  auto s = synthetic_run();
  RunReport::Entry& e = s->run.entries.front();
  e.r.obs.measurements = {{"third", 1.0 / 3}, {"big", 1e300}, {"count", 270336}, {"gone", std::nan("")}};
  e.r.obs.facts = {{"opcode", "12"}};
  std::string text = results_json(s->run);
  CHECK(text.find("\"count\": 270336,") != std::string::npos);  // a whole number stays an integer
  CHECK(text.find("\"gone\": null") != std::string::npos);
  CHECK(text.find("\"opcode\": \"12\"") != std::string::npos);
  std::string dir = temp_dir("exact");
  write_text(dir + "/a.json", text);
  Fleet f = load_results(dir + "/a.json");
  const Outcome& o = *f.cases.front().by_run[0];
  REQUIRE(o.measurements.size() == 4);
  CHECK(o.measurements[0].second == 1.0 / 3);
  CHECK(o.measurements[1].second == 1e300);
  CHECK(o.measurements[2].second == 270336);
  CHECK(std::isnan(o.measurements[3].second));
  CHECK(o.facts == std::vector<std::pair<std::string, std::string>>{{"opcode", "12"}});
  std::filesystem::remove_all(dir);
}
