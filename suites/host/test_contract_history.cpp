// history candidates (docs/contract.md): a rule in shadow that passed N runs in a row on M
// configurations is marked for promotion; a failure in a configuration's newest run holds it back.
#include <catch2/catch.hpp>

#include "harness/util/json_write.hpp"
#include "suites/host/test_reporters_support.hpp"

using namespace cuconform;
using namespace cuconform::testing;

namespace {

// One run on GPU `uuid` started at `started`: the shadow rule's two cases pass, or fail.
std::string night(const std::string& dir, const std::string& uuid, const std::string& started, bool fails) {
  auto s = synthetic_run();
  Json j = Json::parse(results_json(s->run));
  j["run"]["started"] = started;
  j["device"]["uuid"] = uuid;
  Json cases = Json::array();
  for (const char* v : {"value1", "value2"}) {
    Json c = j["cases"][0];
    c["name"] = std::string("contract_h.new_rule.") + v;
    c["rule"] = "contract_h.new_rule";
    c["area"] = "contract_h";
    c["shadow"] = true;
    c["verdict"] = fails && std::string(v) == "value2" ? "fail" : "pass";
    cases.push_back(c);
  }
  j["cases"] = cases;
  const std::string path = dir + "/" + uuid + "-" + started.substr(0, 10) + ".json";
  write_text(path, json_text(j, true));
  return "'" + path + "' ";
}

}  // namespace

TEST_CASE("history candidates: a rule in shadow that passed N runs on M configurations is ready for promotion", "[host][contract]") {
  const std::string dir = temp_dir("contract-history");
  std::filesystem::create_directories(dir + "/specs");
  write_text(dir + "/specs/contract_h.yaml", R"(area: contract_h
rules:
  - id: contract_h.new_rule
    rule: A rule that has just been written.
    source: test
    min_cc: "8.0"
    kind: positive
    basis: documented
    shadow: true
    fixture: ldgsts.copy
    params:
      op: [ca4, cg16]
      threads: [32]
      src_elem: [0]
)");
  const std::string db = dir + "/history.sqlite";
  std::string files;
  for (const char* uuid : {"GPU-aaaaaaaa-0000-0000-0000-000000000000", "GPU-bbbbbbbb-0000-0000-0000-000000000000"})
    for (int d = 1; d <= 3; ++d) files += night(dir, uuid, "2026-11-2" + std::to_string(d) + "T01:00:00Z", false);
  REQUIRE(cuconform_cli("history add --db '" + db + "' " + files).rc == 0);
  const std::string ask = "history candidates --db '" + db + "' --specs '" + dir + "/specs' --nights 3 --configs 2";
  Exe ready = cuconform_cli(ask);
  INFO(ready.out);
  CHECK(ready.rc == 0);
  CHECK(ready.out.find("PROMOTE contract_h.new_rule (tier core): 2 of 2 configuration(s) with 3+ passing runs in a row") != std::string::npos);
  CHECK(ready.out.find("promote: delete `shadow: true`") != std::string::npos);
  // Asked for more runs than there are: not yet.
  CHECK(cuconform_cli("history candidates --db '" + db + "' --specs '" + dir + "/specs' --nights 4 --configs 2").out.find("wait    contract_h.new_rule") !=
        std::string::npos);
  // A failure in one GPU's newest run holds it back.
  REQUIRE(cuconform_cli("history add --db '" + db + "' " + night(dir, "GPU-bbbbbbbb-0000-0000-0000-000000000000", "2026-11-24T01:00:00Z", true)).rc == 0);
  Exe held = cuconform_cli(ask);
  INFO(held.out);
  CHECK(held.out.find("wait    contract_h.new_rule (tier core): 1 of 2") != std::string::npos);
  CHECK(held.out.find("failed in its newest run") != std::string::npos);
}
