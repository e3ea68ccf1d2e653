// Every GPU of a node in one run (`run --devices`), tested without a GPU: the GPU list and its
// selection, the pairs of two-GPU cases, and whole runs over stand-in GPUs (CUCONFORM_FAKE_GPUS:
// workers find no device, so every GPU case is not-supported, as on a node without a driver)
// with the files, the host cases run once, the health watch's stop (CUCONFORM_HEALTH_INJECT)
// and the exit codes.
#include <algorithm>
#include <catch2/catch.hpp>
#include <set>
#include <tuple>
#include <nlohmann/json.hpp>

#include "harness/driver/gpu_list.hpp"
#include "harness/runner/bisect.hpp"
#include "harness/runner/node_run.hpp"
#include "suites/host/test_reporters_support.hpp"

using namespace cuconform;
using namespace cuconform::testing;

namespace {
std::vector<NodeGpu> four() {
  std::vector<NodeGpu> g;
  const char* uuids[] = {"GPU-5f0c2a9e-1111-2222-3333-444455556666", "GPU-5f0c2b00-1111-2222-3333-444455556666",
                         "GPU-77aa0000-1111-2222-3333-444455556666", "GPU-88bb0000-1111-2222-3333-444455556666"};
  for (int i = 0; i < 4; ++i) g.push_back({i, uuids[i], "NVIDIA H200", "0000:1" + std::to_string(i) + ":00.0", "9.0", 132, 0});
  return g;
}
std::string names(const std::vector<NodeGpu>& g) {
  std::string s;
  for (auto& x : g) s += std::to_string(x.ordinal);
  return s;
}
}  // namespace

TEST_CASE("run --devices selects all, ordinals and UUIDs (or a unique prefix) and refuses the rest", "[host][node]") {
  std::vector<NodeGpu> out;
  std::string err;
  REQUIRE(select_gpus("all", four(), &out, &err));
  CHECK(names(out) == "0123");
  REQUIRE(select_gpus("2,0", four(), &out, &err));
  CHECK(names(out) == "20");
  REQUIRE(select_gpus("GPU-77aa0000-1111-2222-3333-444455556666, 1", four(), &out, &err));
  CHECK(names(out) == "21");
  REQUIRE(select_gpus("gpu-88bb", four(), &out, &err));
  CHECK(names(out) == "3");
  CHECK_FALSE(select_gpus("GPU-5f0c", four(), &out, &err));  // two GPUs start so
  CHECK(err.find("more than one GPU") != std::string::npos);
  CHECK_FALSE(select_gpus("4", four(), &out, &err));
  CHECK(err.find("no GPU 4") != std::string::npos);
  CHECK_FALSE(select_gpus("1,1", four(), &out, &err));
  CHECK(err.find("named twice") != std::string::npos);
  CHECK_FALSE(select_gpus("0,,1", four(), &out, &err));
  CHECK_FALSE(select_gpus("all", {}, &out, &err));
}

TEST_CASE("two-GPU cases pair each GPU with the next, and no GPU is in two pairs of a round", "[host][node]") {
  CHECK(peer_rounds(1).empty());
  for (int n = 2; n <= 8; ++n) {
    INFO(n << " GPUs");
    auto rounds = peer_rounds(n);
    int pairs = 0;
    for (auto& round : rounds) {
      std::set<int> busy;
      for (auto [a, b] : round) {
        CHECK(b == (a + 1) % n);
        CHECK(busy.insert(a).second);
        CHECK(busy.insert(b).second);
        ++pairs;
      }
    }
    CHECK(pairs == n);
    CHECK(rounds.size() <= 3u);
  }
}

TEST_CASE("run --devices all on a node of four stand-in GPUs: a file per GPU, the node file last, host cases once", "[host][node]") {
  const std::string dir = temp_dir("node");
  Exe e = cuconform_cli("run --devices all --area async_group --out '" + dir + "'", "CUCONFORM_FAKE_GPUS=4");
  INFO(e.out);
  CHECK(e.rc == 3);  // no case could run on a GPU
  for (int i = 0; i < 4; ++i) {
    const auto path = dir + "/results.gpu" + std::to_string(i) + ".json";
    REQUIRE(std::filesystem::exists(path));
    auto j = nlohmann::json::parse(read_text(path));
    CHECK(j["device"]["ordinal"] == i);
    CHECK(j["device"]["uuid"].get<std::string>().rfind("GPU-", 0) == 0);
    CHECK(j["device"]["node"].is_string());
    int host_cases = 0, node_once = 0;
    for (auto& c : j["cases"]) {
      bool host_tool = false;
      for (auto& t : c["tags"]) host_tool |= t == "host-tool";
      host_cases += host_tool;
      node_once += c["facts"].contains("ran_for_node");
    }
    CHECK(host_cases > 0);
    CHECK(node_once == host_cases);  // every host case ran once for the node and is copied here
  }
  auto node = nlohmann::json::parse(read_text(dir + "/node.json"));
  CHECK(node["schema"] == "cuconform-fleet/1");
  REQUIRE(node["runs"].size() == 4);
  std::set<std::string> labels;
  for (auto& r : node["runs"]) labels.insert(r["label"].get<std::string>());
  CHECK(labels.size() == 4);
  // The host cases ran once: one line each in the output, marked [node].
  CHECK(e.out.find("[node] ") != std::string::npos);
  CHECK(e.out.find("[gpu3] ") != std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("run --devices all with two-GPU cases: each GPU's file holds every case of the selection, once", "[host][node]") {
  // The node plan places the two-GPU cases in its pairs steps and the rest on each GPU; what it
  // places must come back in every GPU's report, whatever the step.
  const std::string dir = temp_dir("node-pairs");
  Exe e = cuconform_cli("run --devices all --area multi_gpu --out '" + dir + "'", "CUCONFORM_FAKE_GPUS=3");
  INFO(e.out);
  CHECK(e.rc == 3);
  // The plan of the same stand-in GPUs (a host's real GPUs do not change it): every case it places.
  Exe plan = cuconform_cli("run --devices all --area multi_gpu --plan --json -", "CUCONFORM_FAKE_GPUS=3");
  REQUIRE(plan.rc == 0);
  const auto p = nlohmann::json::parse(plan.out.substr(plan.out.find('{')));
  std::set<std::string> placed;
  bool pairs = false;
  for (auto& s : p["steps"]) {
    pairs |= s["phase"] == "pairs-shared" || s["phase"] == "pairs";
    for (auto& w : s["workers"])
      for (auto& c : w) placed.insert(c.get<std::string>());
  }
  CHECK(pairs);
  for (int i = 0; i < 3; ++i) {
    auto j = nlohmann::json::parse(read_text(dir + "/results.gpu" + std::to_string(i) + ".json"));
    std::set<std::string> names;
    for (auto& c : j["cases"]) CHECK(names.insert(c["name"].get<std::string>()).second);
    CHECK(names == placed);
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("a GPU the health watch stops: its cases left are not-run with the Xid, the others complete, exit 4", "[host][node]") {
  const std::string dir = temp_dir("unhealthy");
  // GPU 1 reports Xid 79 (fell off the bus) after its 10th case.
  Exe e = cuconform_cli("run --devices all --area async_group --out '" + dir + "'",
                        "CUCONFORM_FAKE_GPUS=2 CUCONFORM_HEALTH_INJECT=1:79:10");
  INFO(e.out);
  CHECK(e.rc == 4);
  CHECK(e.out.find("GPU UNHEALTHY: Xid 79") != std::string::npos);
  auto g0 = nlohmann::json::parse(read_text(dir + "/results.gpu0.json"));
  auto g1 = nlohmann::json::parse(read_text(dir + "/results.gpu1.json"));
  auto count = [](const nlohmann::json& j, const std::string& v) {
    int n = 0;
    for (auto& c : j["cases"]) n += c["verdict"] == v;
    return n;
  };
  CHECK(count(g0, "not-run") == 0);
  CHECK(count(g1, "not-run") > 0);
  CHECK(g0["cases"].size() == g1["cases"].size());  // every case has a verdict on both GPUs
  for (auto& c : g1["cases"])
    if (c["verdict"] == "not-run") {
      CHECK(c["reason"].get<std::string>().find("not run: GPU unhealthy, Xid 79") == 0);
      break;
    }
  CHECK(g1["health"]["verdict"].get<std::string>().find("unhealthy: Xid 79") == 0);
  CHECK(g0["health"]["verdict"] == "healthy");
  std::filesystem::remove_all(dir);
}

TEST_CASE("run --out to a folder that cannot be written is refused before any case runs", "[host][node]") {
  const std::string dir = temp_dir("outcheck");
  write_text(dir + "/file", "x");
  Exe e = cuconform_cli("run --area async_group --out '" + dir + "/file/sub'");
  INFO(e.out);
  CHECK(e.rc == 2);
  CHECK(e.out.find("cannot write the results there") != std::string::npos);
  CHECK(e.out.find("[not-supported]") == std::string::npos);  // no case ran
  std::filesystem::remove_all(dir);
}

TEST_CASE("run --devices that names no GPU of the node is bad input", "[host][node]") {
  Exe e = cuconform_cli("run --devices 7 --area async_group --out /tmp", "CUCONFORM_FAKE_GPUS=2");
  CHECK(e.rc == 2);
  CHECK(e.out.find("no GPU 7") != std::string::npos);
}

TEST_CASE("run --shuffle records its seed, reorders the cases and keeps every verdict", "[host][node]") {
  const std::string dir = temp_dir("shuffle");
  Exe a = cuconform_cli("run --area async_group --json '" + dir + "/a.json'", "CUCONFORM_DEVICE=4096");
  Exe b = cuconform_cli("run --area async_group --shuffle 7 --json '" + dir + "/b.json'", "CUCONFORM_DEVICE=4096");
  INFO(b.out);
  CHECK(b.out.find("shuffle seed: 7") != std::string::npos);
  auto ja = nlohmann::json::parse(read_text(dir + "/a.json")), jb = nlohmann::json::parse(read_text(dir + "/b.json"));
  CHECK(jb["run"]["shuffle_seed"] == "7");
  CHECK_FALSE(ja["run"].contains("shuffle_seed"));
  std::map<std::string, std::string> va, vb;
  for (auto& c : ja["cases"]) va[c["name"]] = c["verdict"];
  for (auto& c : jb["cases"]) vb[c["name"]] = c["verdict"];
  CHECK(va == vb);
  // The GPU lane's cases ran in another order: (worker, order) sorts them as they ran.
  auto ran = [](const nlohmann::json& j) {
    std::vector<std::tuple<int, int, std::string>> v;
    for (auto& c : j["cases"]) {
      bool gpu = false, isolated = false;
      for (auto& t : c["tags"]) gpu |= t == "gpu", isolated |= t == "isolated";
      if (gpu && !isolated && c.contains("worker")) v.emplace_back(c["worker"], c["order"], c["name"]);
    }
    std::sort(v.begin(), v.end());
    std::vector<std::string> names;
    for (auto& t : v) names.push_back(std::get<2>(t));
    return names;
  };
  const auto order_a = ran(ja), order_b = ran(jb);
  CHECK(order_a.size() > 10);
  CHECK(order_a.size() == order_b.size());
  CHECK(order_a != order_b);
  Exe bad = cuconform_cli("run --area async_group --shuffle tomorrow --json '" + dir + "/c.json'");
  CHECK(bad.rc == 2);
  std::filesystem::remove_all(dir);
}

TEST_CASE("bisect names the one earlier case that changes a case, and says when nothing does", "[host][node]") {
  std::vector<std::string> before;
  for (int i = 0; i < 37; ++i) before.push_back("c" + std::to_string(i));
  // c23 leaves something behind that makes `t` fail.
  const ReplayFn replay = [](const std::vector<std::string>& list) {
    return std::find(list.begin(), list.end(), "c23") != list.end() ? std::string("fail") : std::string("pass");
  };
  BisectResult b = bisect_order("t", before, replay);
  CHECK(b.reproduced);
  CHECK(b.alone == "pass");
  CHECK(b.with_all == "fail");
  REQUIRE(b.culprits.size() == 1);
  CHECK(b.culprits[0] == "c23");
  CHECK(b.replays <= 2 + 2 * 6);
  CHECK(b.summary.find("c23") != std::string::npos);
  // Two cases together (c3 then c30): neither half alone does it.
  const ReplayFn pair = [](const std::vector<std::string>& list) {
    const bool a = std::find(list.begin(), list.end(), "c3") != list.end();
    const bool z = std::find(list.begin(), list.end(), "c30") != list.end();
    return a && z ? std::string("recorded: weak outcome observed") : std::string("recorded: weak outcome not observed");
  };
  b = bisect_order("t", before, pair);
  CHECK(b.reproduced);
  CHECK(b.culprits.size() > 1);
  // Nothing changes it: not reproduced.
  b = bisect_order("t", before, [](const std::vector<std::string>&) { return std::string("pass"); });
  CHECK_FALSE(b.reproduced);
  CHECK(b.summary.find("not reproduced") == 0);
}
