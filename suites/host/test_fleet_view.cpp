// cuconform fleet on a night folder made by hand (docs/fleet.md, "The night folder"): every
// node and GPU accounted for, retries named, partial attempts never read, drain lines, exit codes.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "reporters/fleet_view.hpp"
#include "suites/host/test_reporters_support.hpp"

using namespace cuconform;
using namespace cuconform::testing;
namespace fs = std::filesystem;

namespace {

// A synthetic run as GPU `i` of `node`; without a GPU when `gpu` is false.
std::string gpu_results(const std::string& node, int i, bool gpu = true) {
  auto s = synthetic_run();
  s->run.host = node;
  auto j = nlohmann::ordered_json::parse(results_json(s->run));
  if (gpu) {
    j["device"]["ordinal"] = i;
    j["device"]["uuid"] = "GPU-" + std::to_string(i) + "0000000-aaaa-bbbb-cccc-dddddddddddd";
  } else {
    j["device"] = {{"available", false}, {"error", "no CUDA driver: libcuda.so.1 could not be loaded"}};
  }
  return j.dump(1);
}

void marker(const std::string& dir, int exit, int gpus, const std::string& job) {
  write_text(dir + "/complete.json", "{\"schema\": \"cuconform-node-done/1\", \"node\": \"x\", \"job_id\": \"" + job +
                                         "\", \"attempt\": 1, \"exit\": " + std::to_string(exit) + ", \"gpus\": " + std::to_string(gpus) +
                                         ", \"finished\": \"2026-11-26T02:40:00Z\"}\n");
}

// node-a: 4 GPUs planned, retried once, GPU 2's file missing; node-b: 2 planned, both attempts
// failed; node-c: 2 planned, ran, no GPU; an attempt in .partial and a folder without a marker.
std::string make_night() {
  const std::string night = temp_dir("night") + "/night-20261126";
  fs::create_directories(night + "/nodes/node-a");
  fs::create_directories(night + "/nodes/node-c");
  fs::create_directories(night + "/nodes/node-d");
  fs::create_directories(night + "/.partial/node-e.77");
  write_text(night + "/plan.tsv", "# node\tgpus\nnode-a\t4\nnode-b\t2\nnode-c\t2\n");
  write_text(night + "/attempts.tsv",
             "# node\tattempt\tjob\tstate\texit\nnode-a\t1\t101\tFAILED\t137\nnode-b\t1\t102\tNODE_FAIL\t-\n"
             "node-c\t1\t103\tFAILED\t3\nnode-a\t2\t104\tCOMPLETED\t0\nnode-b\t2\t105\tFAILED\t1\n");
  for (int i : {0, 1, 3}) write_text(night + "/nodes/node-a/results.gpu" + std::to_string(i) + ".json", gpu_results("node-a", i));
  marker(night + "/nodes/node-a", 1, 4, "104");
  for (int i : {0, 1}) write_text(night + "/nodes/node-c/results.gpu" + std::to_string(i) + ".json", gpu_results("node-c", i, false));
  marker(night + "/nodes/node-c", 3, 2, "103");
  write_text(night + "/nodes/node-d/results.gpu0.json", "{\"schema\": \"cuconform-res");  // half a file, no marker
  write_text(night + "/.partial/node-e.77/results.gpu0.json", "{");
  return night;
}

}  // namespace

TEST_CASE("fleet: every node and GPU accounted for -- missing GPU, failed and retried nodes, drain lines", "[host][fleet]") {
  const std::string night = make_night();
  Night n = load_night(night);
  CHECK(n.name == "night-20261126");
  FleetView v = build_fleet_view(n);
  const std::string text = fleet_view_text(v);
  CHECK(has(text, "node-a: ran (run exit 1, job 104), RETRIED 2 attempts, 3 of 4 GPU(s) ran"));
  CHECK(has(text, "missing: GPU 2 of node-a"));
  CHECK(has(text, "node node-b: failed"));
  CHECK(has(text, "node-c: ran (run exit 3, job 103), 0 of 2 GPU(s) ran"));
  CHECK(has(text, "ignored: " + night + "/nodes/node-d/"));  // never read: no marker
  CHECK(has(text, "node-e.77: an attempt that did not finish"));
  CHECK_FALSE(has(text, "node-d: ran"));
  // Drain: node-a (GPU 2 gave nothing), node-b (no results after 2 attempts), node-c (no GPU).
  REQUIRE(v.drain.size() == 3);
  CHECK(v.drain[0].command() == "scontrol update nodename=node-a state=drain reason=\"cuconform night-20261126: GPU 2 gave no results\"");
  CHECK(has(v.drain[1].command(), "nodename=node-b state=drain reason=\"cuconform night-20261126: no results after 2 attempt(s), last attempt 2: job 105 FAILED, exit 1\""));
  CHECK(has(v.drain[2].reason, "GPU 0,1: no GPU opened (no CUDA driver"));
  CHECK(v.status == 1);  // missing and failed (1) outrank no GPU (3)

  // Markdown, JSON, HTML say the same.
  const std::string md = fleet_view_markdown(v);
  CHECK(has(md, "| node-a | ran (retried) |"));
  CHECK(has(md, "2: missing"));
  auto j = nlohmann::json::parse(fleet_view_json(v));
  CHECK(j["schema"] == "cuconform-fleet-view/1");
  CHECK(j["status"] == 1);
  CHECK(j["nodes"][0]["gpus"][2]["state"] == "missing");
  CHECK(j["nodes"][0]["retried"] == true);
  CHECK(j["drain"].size() == 3);
  const std::string html = fleet_view_html(v);
  CHECK(has(html, "scontrol update nodename=node-b"));
  CHECK_FALSE(has(html, "<script"));
}

TEST_CASE("fleet: a node drained or down at planning is listed with its reason, never drained again, and the header counts planned GPUs", "[host][fleet]") {
  const std::string night = make_night();
  write_text(night + "/skipped.tsv", "# node\tgpus\tstate\treason\nnode-f\t8\tdrained\tbad fan (ticket 4411)\nnode-g\t8\tdown*\tNot responding\n");
  FleetView v = build_fleet_view(load_night(night));
  const std::string text = fleet_view_text(v);
  INFO(text);
  CHECK(has(text, "node-f: skipped (drained: bad fan (ticket 4411)), 8 GPU(s) not run"));
  CHECK(has(text, "node node-g: skipped at planning (down*: Not responding)"));
  // 3 + 2 + 2 planned of the submitted nodes (node-a's GPU 2 missing, node-b failed with no file,
  // node-c no GPU): 3 ran of 8, the skipped nodes' 16 GPUs apart.
  CHECK(has(text, "fleet night-20261126: 5 node(s), 3 of 8 planned GPU(s) ran; 2 node(s) with 16 GPU(s) skipped (drained or down)"));
  for (auto& d : v.drain) CHECK(d.node != "node-f");  // the operator's reason stays
  for (auto& d : v.drain) CHECK(d.node != "node-g");
  CHECK(v.status == 1);  // the same as without them: skipped nodes are listed, not judged
  auto j = nlohmann::json::parse(fleet_view_json(v));
  CHECK(j["counts"]["skipped_gpus"] == 16);
  CHECK(j["counts"]["planned_gpus"] == 8);
  CHECK(has(fleet_view_html(v), "skipped (drained: bad fan (ticket 4411))"));
}

TEST_CASE("fleet: a drain reason past Slurm's length ends at a whole reason, never inside a parenthesis", "[host][fleet]") {
  DrainLine d;
  d.node = "n1";
  d.night = "night-x";
  std::string r;
  for (int i = 0; i < 12; ++i) r += (r.empty() ? "" : "; ") + std::string("GPU ") + std::to_string(i % 8) + " fails 3 case(s) its peers pass (ldgsts.zero_fill.cp16)";
  d.reason = r;
  const std::string c = d.command();
  INFO(c);
  const std::string reason = c.substr(c.find("reason=\"") + 8);
  CHECK(reason.size() <= 241);
  CHECK(has(reason, "more\""));
  CHECK(std::count(reason.begin(), reason.end(), '(') == std::count(reason.begin(), reason.end(), ')'));
}

TEST_CASE("fleet: a night where every GPU saw no GPU exits 3 -- nothing at all is bad input", "[host][fleet]") {
  const std::string night = temp_dir("night3") + "/n";
  fs::create_directories(night + "/nodes/node-c");
  write_text(night + "/plan.tsv", "node-c\t2\n");
  for (int i : {0, 1}) write_text(night + "/nodes/node-c/results.gpu" + std::to_string(i) + ".json", gpu_results("node-c", i, false));
  marker(night + "/nodes/node-c", 3, 2, "1");
  CHECK(build_fleet_view(load_night(night)).status == 3);
  // Today's single results.json (a run without --devices) is GPU 0 of its node.
  fs::remove(night + "/nodes/node-c/results.gpu1.json");
  fs::rename(night + "/nodes/node-c/results.gpu0.json", night + "/nodes/node-c/results.json");
  write_text(night + "/plan.tsv", "node-c\t1\n");
  FleetView v = build_fleet_view(load_night(night));
  REQUIRE(v.night.nodes.at(0).gpus.size() == 1);
  CHECK(v.night.nodes[0].gpus[0].state == NightGpu::State::no_gpu);
  CHECK(v.status == 3);
  // run --devices without a driver writes one file for the node: its other GPUs saw no GPU
  // either (not missing); with a second file (a run per GPU) a GPU without one is missing.
  write_text(night + "/plan.tsv", "node-c\t4\n");
  fs::rename(night + "/nodes/node-c/results.json", night + "/nodes/node-c/results.gpu0.json");
  v = build_fleet_view(load_night(night));
  REQUIRE(v.night.nodes.at(0).gpus.size() == 4);
  for (auto& g : v.night.nodes[0].gpus) CHECK(g.state == NightGpu::State::no_gpu);
  CHECK(v.status == 3);
  write_text(night + "/nodes/node-c/results.gpu1.json", gpu_results("node-c", 1, false));
  v = build_fleet_view(load_night(night));
  CHECK(v.night.nodes.at(0).gpus.at(2).state == NightGpu::State::missing);
  CHECK(v.status == 1);
  CHECK_THROWS_AS(load_night(temp_dir("empty")), ResultsError);
}

TEST_CASE("cuconform fleet: formats, exit status, bad input named with file and line", "[host][fleet]") {
  const std::string night = make_night();
  Exe e = cuconform_cli("fleet '" + night + "' --html '" + night + "/fleet.html' --json '" + night + "/fleet.json'");
  CHECK(e.rc == 1);
  CHECK(has(e.out, "scontrol update nodename=node-a state=drain"));
  CHECK(fs::exists(night + "/fleet.html"));
  CHECK(nlohmann::json::parse(read_text(night + "/fleet.json"))["status"] == 1);
  CHECK(cuconform_cli("fleet '" + night + "' --format md").out.find("## Fleet night-20261126") != std::string::npos);
  CHECK(cuconform_cli("fleet '" + night + "' --format yaml").rc == 2);
  write_text(night + "/plan.tsv", "node-a\t4\nnode-b\ttwo\n");
  e = cuconform_cli("fleet '" + night + "'");
  CHECK(e.rc == 2);
  CHECK(has(e.out, night + "/plan.tsv:2: GPUs: expected a whole number, got 'two'"));
  write_text(night + "/plan.tsv", "node-a\t4\n");
  write_text(night + "/nodes/node-a/complete.json", "{\"schema\": \"cuconform-node-done/1\",\n \"exit\": \"x\"}");
  e = cuconform_cli("fleet '" + night + "'");
  CHECK(e.rc == 2);
  CHECK(has(e.out, "complete.json:2: exit"));
}

TEST_CASE("cuconform fleet --history: since which night an odd GPU has differed", "[host][fleet]") {
  const std::string dir = temp_dir("oddsince");
  // Three nights of four GPUs of node-a; GPU 2 fails the L1 case from the second night on.
  const std::string kCase = "ldgsts.l1.access_for_4_and_8.ptx_ca.size4";
  std::vector<std::string> tonight;
  for (int night = 1; night <= 3; ++night) {
    std::vector<std::string> files;
    for (int i = 0; i < 4; ++i) {
      auto j = nlohmann::ordered_json::parse(gpu_results("node-a", i));
      j["run"]["started"] = "2026-11-2" + std::to_string(3 + night) + "T02:17:00Z";
      if (i == 2 && night >= 2)
        for (auto& c : j["cases"])
          if (c["name"] == kCase) c["verdict"] = "fail";
      const std::string f = dir + "/n" + std::to_string(night) + ".gpu" + std::to_string(i) + ".json";
      write_text(f, j.dump(1));
      files.push_back("'" + f + "'");
    }
    std::string args;
    for (auto& f : files) args += " " + f;
    REQUIRE(cuconform_cli("history add --db '" + dir + "/h.sqlite'" + args).rc == 0);
    if (night == 3) tonight = files;
  }
  std::string args;
  for (auto& f : tonight) args += " " + f;
  Exe e = cuconform_cli("fleet" + args + " --history '" + dir + "/h.sqlite' --format json");
  CHECK(e.rc == 1);
  auto j = nlohmann::json::parse(e.out);
  REQUIRE(j["odd_one_out"]["odd"].size() == 1);
  const std::string who = j["odd_one_out"]["odd"][0]["gpu"];
  CHECK(who == "NVIDIA H200 #2 20000000 @ node-a");
  CHECK(j["since"][who]["since"] == "2026-11-25T02:17:00Z");
  CHECK(j["since"][who]["runs"] == 2);
  // Without the history the view says it cannot tell.
  e = cuconform_cli("fleet" + args);
  CHECK(has(e.out, "no history database given"));
}
