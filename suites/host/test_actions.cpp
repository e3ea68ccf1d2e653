// The action per GPU and node (reporters/action_table.*, fleet_actions.*) and the Prometheus text
// (reporters/metrics_text.*): the table row by row on made-up facts; the facts of a results file
// made from the committed H200 baseline (a planted new failure drains with its name, a known one
// does not, a pre-flight stop and an unhealthy GPU give theirs); the metrics' labels and values;
// `cuconform export` and `fleet` naming the action in the drain line.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <functional>

#include "harness/util/input_file.hpp"
#include "reporters/metrics_text.hpp"
#include "suites/host/test_reporters_support.hpp"

using namespace cuconform;
using namespace cuconform::testing;

namespace {

const char* kBaseline = CUCONFORM_BASELINES_DIR "/NVIDIA-H200_driver-580.159.04.json.gz";

// The baseline as a clean run on node-a GPU `i`: every failure turned into a pass, so that what a
// test plants is the only failure.
nlohmann::ordered_json clean_gpu(int i) {
  static const auto base = nlohmann::ordered_json::parse(read_input_file(kBaseline));
  auto j = base;
  j["device"]["ordinal"] = i;
  j["device"]["uuid"] = "GPU-" + std::string(8, static_cast<char>('a' + i)) + "-1111-2222-3333-444444444444";
  j["device"]["node"] = "node-a";
  j["run"]["host"] = "node-a";
  for (auto& c : j["cases"]) {
    const std::string v = c["verdict"];
    if (v == "fail" || v == "timeout" || v == "crash" || v == "flake") c["verdict"] = "pass";
  }
  return j;
}

std::size_t first_passing(const nlohmann::ordered_json& j) {
  for (std::size_t i = 0; i < j["cases"].size(); ++i)
    if (j["cases"][i]["verdict"] == "pass" && j["cases"][i]["kind"] == "positive") return i;
  FAIL("no passing positive case");
  return 0;
}

std::string write_gpu(const std::string& dir, const nlohmann::ordered_json& j, int i) {
  const std::string p = dir + "/results.gpu" + std::to_string(i) + ".json";
  write_text(p, j.dump(1));
  return p;
}

// A night of two clean GPUs on node-a in which GPU 1 fails `planted`, the one new failure.
struct PlantedNight {
  std::string planted;
  std::vector<std::string> files;
};

PlantedNight planted_night(const std::string& dir) {
  auto j = clean_gpu(0);
  const std::size_t k = first_passing(j);
  PlantedNight n{j["cases"][k]["name"], {write_gpu(dir, j, 0)}};
  j = clean_gpu(1);
  j["cases"][k]["verdict"] = "fail";
  n.files.push_back(write_gpu(dir, j, 1));
  return n;
}

}  // namespace

TEST_CASE("action table: each row decides its action, in order", "[host][actions]") {
  ActionFacts ok;
  CHECK(decide_action(ok).action == Action::none);
  CHECK(decide_action(ok).row == "ok");

  ActionFacts f = ok;
  f.known_failures = 7;
  CHECK(decide_action(f).action == Action::none);
  CHECK(has(decide_action(f).why, "7 known failure(s) only"));

  // Each step adds facts to those before it; the row of the last (the highest so far) decides.
  using Step = std::pair<std::function<void(ActionFacts&)>, std::string>;
  const auto walk = [&](const std::vector<Step>& steps) {
    for (const auto& [add, want] : steps) {
      add(f);
      const GpuAction a = decide_action(f);
      CHECK(a.row + " " + to_string(a.action) == want);
    }
  };
  walk({{[](ActionFacts& x) { x.toolchain_changes = 1; }, "toolchain watch"},
        {[](ActionFacts& x) { x.odd_measurement = "ldgsts.x:l1_hit_cycles"; }, "odd-measurement watch"},
        {[](ActionFacts& x) { x.preflight_action = Action::watch, x.preflight_reason = "NVLink link(s) 3 down"; },
         "preflight-watch watch"},
        {[](ActionFacts& x) { x.flakes = 2, x.first_flake = "scopes.x"; }, "flake watch"},
        {[](ActionFacts& x) { x.cut_off = "SIGTERM"; }, "cut-off rerun"},
        {[](ActionFacts& x) { x.odd_verdict = "ldgsts.y (fail where pass)"; }, "odd-verdict drain"}});
  f.new_failures = 3;
  f.first_new_failure = "ldgsts.z";
  GpuAction a = decide_action(f);
  CHECK(a.row == "new-failure");
  CHECK(a.action == Action::drain);
  CHECK(a.why == "new failure ldgsts.z (+2 more)");
  CHECK(a.first_new_failure == "ldgsts.z");
  walk({{[](ActionFacts& x) { x.results = false; }, "no-results rerun"},
        {[](ActionFacts& x) { x.no_gpu = true, x.no_gpu_why = "no CUDA driver"; }, "no-gpu drain"},
        {[](ActionFacts& x) { x.unhealthy = "Xid 79 at case ldgsts.z"; }, "unhealthy reset"},
        {[](ActionFacts& x) { x.unhealthy = "a row remap failed"; }, "row-remap-failed replace"}});
  f.preflight_stopped = true;
  f.preflight_action = Action::reset;
  f.preflight_reason = "the driver's recovery action is GPU reset";
  a = decide_action(f);
  CHECK(a.row == "preflight");
  CHECK(a.action == Action::reset);
  CHECK(a.why == "unhealthy before the run: the driver's recovery action is GPU reset");

  // Every row of the documented table is one decide_action can answer, and the docs list them all.
  const std::string doc = read_text((source_root() / "docs/fleet.md").string());
  for (const ActionRow& r : action_rows()) CHECK(has(doc, std::string("`") + r.row + "`"));
}

TEST_CASE("action per node: the most severe GPU's, named; the drain reason names action and failure", "[host][actions]") {
  GpuAction none, drain, reset;
  drain.action = Action::drain;
  drain.why = "new failure ldgsts.z";
  reset.action = Action::reset;
  reset.why = "became unhealthy: Xid 79";
  GpuAction n = node_action({{"gpu0", none}, {"gpu1", drain}, {"gpu2", none}});
  CHECK(n.action == Action::drain);
  CHECK(drain_reason(n) == "cuconform action=drain gpu1: new failure ldgsts.z");
  CHECK(node_action({{"gpu0", drain}, {"gpu3", reset}}).why == "gpu3: became unhealthy: Xid 79");
  CHECK(node_action({}).action == Action::none);
  CHECK(severity(Action::replace) == 5);
  Action parsed;
  REQUIRE(parse_action("rerun", &parsed));
  CHECK(parsed == Action::rerun);
  CHECK_FALSE(parse_action("evict", &parsed));
}

TEST_CASE("action facts of a results file: a planted new failure drains, a known one does not", "[host][actions]") {
  const std::string dir = temp_dir("actions-facts");
  auto j = clean_gpu(0);
  const std::size_t k = first_passing(j);
  const std::string planted = j["cases"][k]["name"];
  {
    Fleet f = load_results(write_gpu(dir, j, 0));
    CHECK(decide_action(action_facts(f, 0, nullptr)).action == Action::none);
  }
  j["cases"][k]["verdict"] = "fail";
  j["cases"][k]["reason"] = "planted";
  Fleet f = load_results(write_gpu(dir, j, 0));
  ActionFacts x = action_facts(f, 0, nullptr);
  CHECK(x.new_failures == 1);
  CHECK(x.first_new_failure == planted);
  GpuAction a = decide_action(x);
  CHECK(a.action == Action::drain);
  CHECK(a.why == "new failure " + planted);

  write_text(dir + "/known.yaml", "known_failures:\n  - id: " + planted + "\n    class: runtime\n    reason: \"planted\"\n");
  const KnownList known = load_known(dir + "/known.yaml");
  x = action_facts(f, 0, &known);
  CHECK(x.new_failures == 0);
  CHECK(x.known_failures == 1);
  CHECK(decide_action(x).action == Action::none);

  SECTION("a pre-flight stop in the device section decides") {
    j["device"]["preflight"] = {{"run", false}, {"action", "replace"}, {"reason", "a row remap failed"}};
    Fleet g = load_results(write_gpu(dir, j, 0));
    GpuAction b = decide_action(action_facts(g, 0, nullptr));
    CHECK(b.action == Action::replace);
    CHECK(b.row == "preflight");
  }
  SECTION("the health watch's verdict decides") {
    j["health"] = {{"verdict", "unhealthy: Xid 79 at case " + planted}};
    Fleet g = load_results(write_gpu(dir, j, 0));
    CHECK(decide_action(action_facts(g, 0, nullptr)).action == Action::reset);
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("the night's digest keeps each run's action facts, counts and throughput, with the known list", "[host][actions][fleet]") {
  const std::string dir = temp_dir("actions-digest");
  const auto [planted, files] = planted_night(dir);
  write_text(dir + "/known.yaml", "known_failures:\n  - id: " + planted + "\n    class: runtime\n    reason: \"planted\"\n");
  const KnownList known = load_known(dir + "/known.yaml");
  // Read with the known list, the planted failure is known: no action; without, it drains.
  const Night with = night_of_files(files, &known);
  const Night without = night_of_files(files);
  REQUIRE(with.fleet.facts.size() == 2);
  const Fleet f1 = load_results(files[1]);
  CHECK(with.fleet.facts[1].facts.known_failures == 1);
  CHECK(with.fleet.facts[1].facts.new_failures == 0);
  CHECK(without.fleet.facts[1].facts.new_failures == 1);
  CHECK(without.fleet.facts[1].facts.first_new_failure == planted);
  CHECK(with.fleet.facts[1].counts == f1.counts(0));
  CHECK(with.fleet.facts[1].counts.at("fail") == 1);
  CHECK(with.fleet.facts[1].throughput.size() == throughput_rows(f1, 0).size());
  CHECK(fleet_actions(build_fleet_view(with))[0].action.action == Action::none);
  CHECK(fleet_actions(build_fleet_view(without))[0].action.action == Action::drain);
  std::filesystem::remove_all(dir);
}

TEST_CASE("metrics: one file per GPU and per node, labelled, with the run's values", "[host][actions][metrics]") {
  const std::string dir = temp_dir("actions-metrics");
  const auto [planted, files] = planted_night(dir);
  FleetView v = build_fleet_view(night_of_files(files));
  const auto rows = fleet_actions(v);
  REQUIRE(rows.size() == 1);
  CHECK(rows[0].node == "node-a");
  CHECK(rows[0].action.action == Action::drain);
  CHECK(rows[0].action.why == "gpu1: new failure " + planted);
  const auto written = write_metrics(dir + "/metrics", v, rows);
  CHECK(written.size() == 3);
  const std::string g1 = read_text(dir + "/metrics/cuconform_node-a_gpu1.prom");
  const std::string labels =
      "node=\"node-a\",gpu_uuid=\"GPU-bbbbbbbb-1111-2222-3333-444444444444\",gpu_index=\"1\",model=\"NVIDIA H200\","
      "driver=\"580.159.04\",suite_version=\"" + clean_gpu(1)["suite"]["version"].get<std::string>() + "\"";
  CHECK(has(g1, "# TYPE cuconform_cases gauge\n"));
  CHECK(has(g1, "cuconform_cases{" + labels + ",verdict=\"fail\"} 1\n"));
  CHECK(has(g1, "cuconform_new_failures{" + labels + "} 1\n"));
  CHECK(has(g1, "cuconform_action{" + labels + ",action=\"drain\"} 1\n"));
  CHECK(has(g1, "cuconform_action{" + labels + ",action=\"none\"} 0\n"));
  CHECK(has(g1, "cuconform_action_severity{" + labels + "} 3\n"));
  CHECK(has(g1, "cuconform_run_duration_seconds{" + labels + "} "));
  CHECK(has(g1, "cuconform_run_start_timestamp_seconds{" + labels + "} 1795713219\n"));  // 2026-11-26T17:13:39Z
  CHECK(has(g1, "first_new_failure=\"" + planted + "\""));
  const std::string g0 = read_text(dir + "/metrics/cuconform_node-a_gpu0.prom");
  CHECK(has(g0, "cuconform_action{node=\"node-a\",gpu_uuid=\"GPU-aaaaaaaa-1111-2222-3333-444444444444\""));
  CHECK(has(g0, ",action=\"none\"} 1\n"));
  const std::string node = read_text(dir + "/metrics/cuconform_node-a.prom");
  CHECK(has(node, "cuconform_node_action{node=\"node-a\",action=\"drain\"} 1\n"));
  // Written atomically: no temporary file is left beside them.
  for (auto& e : std::filesystem::directory_iterator(dir + "/metrics")) CHECK(e.path().extension() == ".prom");
  std::filesystem::remove_all(dir);
}

TEST_CASE("export and fleet: the action per GPU, the metrics folder, the action in the drain line", "[host][actions][cli]") {
  const std::string dir = temp_dir("actions-cli");
  auto j = clean_gpu(0);
  const std::size_t k = first_passing(j);
  const std::string planted = j["cases"][k]["name"];
  j["cases"][k]["verdict"] = "fail";
  const std::string file = write_gpu(dir, j, 0);
  Exe e = cuconform_cli("export '" + file + "' --metrics '" + dir + "/m'");
  CHECK(e.rc == 0);
  CHECK(has(e.out, "action node=node-a gpu=0 action=drain row=new-failure why=\"new failure " + planted + "\""));
  CHECK(has(e.out, "action node=node-a action=drain row=new-failure why=\"gpu0: new failure " + planted + "\""));
  CHECK(std::filesystem::exists(dir + "/m/cuconform_node-a_gpu0.prom"));
  e = cuconform_cli("fleet '" + file + "'");
  CHECK(has(e.out, "scontrol update nodename=node-a state=drain reason=\""));
  CHECK(has(e.out, "action=drain gpu0: new failure " + planted));
  e = cuconform_cli("export '" + dir + "/nothing.json' --metrics '" + dir + "/m'");
  CHECK(e.rc == 2);
  std::filesystem::remove_all(dir);
}
