// The odd one out (reporters/odd_one_out.*): four GPUs of one node made from a committed
// baseline (compressed), one of them altered in its verdicts and one measurement; two GPUs; exact agreement.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "harness/util/input_file.hpp"
#include "reporters/fleet_view.hpp"
#include "reporters/odd_one_out.hpp"
#include "suites/host/test_reporters_support.hpp"

using namespace cuconform;
using namespace cuconform::testing;

namespace {

const char* kBaseline = CUCONFORM_BASELINES_DIR "/NVIDIA-H200_driver-580.159.04.json.gz";

std::string uuid_of(int i) { return "GPU-" + std::string(8, static_cast<char>('a' + i)) + "-1111-2222-3333-444444444444"; }

// GPU i of node "node-a": the baseline with its identity fields changed.
nlohmann::ordered_json gpu_copy(const nlohmann::ordered_json& base, int i) {
  auto j = base;
  j["device"]["ordinal"] = i;
  j["device"]["uuid"] = uuid_of(i);
  j["device"]["pci_bus_id"] = "0000:1" + std::to_string(i) + ":00.0";
  j["device"]["node"] = "node-a";
  j["run"]["host"] = "node-a";
  return j;
}

// The first passing case with a latency measurement, and that measurement's name.
std::pair<std::size_t, std::string> latency_case(const nlohmann::ordered_json& j) {
  for (std::size_t i = 0; i < j["cases"].size(); ++i) {
    auto& c = j["cases"][i];
    if (c["verdict"] != "pass" || !c.contains("measurements")) continue;
    for (auto& [k, v] : c["measurements"].items())
      if (k.find("cycles") != std::string::npos && v.is_number() && v.get<double>() > 100) return {i, k};
  }
  FAIL("the baseline has no passing case with a cycles measurement");
  return {0, ""};
}

std::size_t passing_case(const nlohmann::ordered_json& j, std::size_t skip) {
  for (std::size_t i = 0; i < j["cases"].size(); ++i)
    if (i != skip && j["cases"][i]["verdict"] == "pass") return i;
  return 0;
}

Fleet fleet_of(const std::vector<nlohmann::ordered_json>& gpus, const std::string& dir) {
  std::vector<Fleet> parts;
  for (std::size_t i = 0; i < gpus.size(); ++i) {
    std::string p = dir + "/results.gpu" + std::to_string(i) + ".json";
    write_text(p, gpus[i].dump(1));
    parts.push_back(load_results(p));
  }
  return merge_fleets(parts);
}

}  // namespace

TEST_CASE("odd one out: of four GPUs, the one with an altered verdict and measurement is named, and nothing else", "[host][fleet]") {
  const std::string dir = temp_dir("odd4");
  const auto base = nlohmann::ordered_json::parse(read_input_file(kBaseline));
  std::vector<nlohmann::ordered_json> gpus;
  for (int i = 0; i < 4; ++i) gpus.push_back(gpu_copy(base, i));

  SECTION("control: four unaltered copies name nobody") {
    Fleet f = fleet_of(gpus, dir);
    OddResult r = find_odd_ones(f);
    CHECK(r.groups.size() == 1);
    CHECK(r.odd.empty());
    CHECK(r.splits.empty());
    CHECK(has(odd_text(f, r), "no GPU differs from its peers"));
  }

  SECTION("GPU 2: one verdict pass -> fail, one latency doubled") {
    auto [mcase, mname] = latency_case(base);
    const std::size_t vcase = passing_case(base, mcase);
    gpus[2]["cases"][vcase]["verdict"] = "fail";
    gpus[2]["cases"][vcase]["reason"] = "planted";
    const double was = gpus[2]["cases"][mcase]["measurements"][mname].get<double>();
    gpus[2]["cases"][mcase]["measurements"][mname] = was * 2;
    Fleet f = fleet_of(gpus, dir);
    OddResult r = find_odd_ones(f);
    REQUIRE(r.odd.size() == 1);
    const OddGpu& o = r.odd[0];
    CHECK(f.runs[o.run].dev("uuid") == uuid_of(2));
    REQUIRE(o.verdicts.size() == 1);
    CHECK(o.verdicts[0].case_name == base["cases"][vcase]["name"].get<std::string>());
    CHECK(o.verdicts[0].category == "fail");
    CHECK(o.verdicts[0].majority == "pass");
    CHECK(o.verdicts[0].majority_count == 3);
    CHECK(o.failing());
    REQUIRE(o.measurements.size() == 1);
    CHECK(o.measurements[0].measurement == mname);
    CHECK(o.measurements[0].median == Approx(was));
    CHECK(r.splits.empty());

    // Every output names GPU 2 and no other GPU (by name or uuid), and states its rule.
    const std::string odd_name = f.runs[o.run].label;
    CHECK(odd_name == "NVIDIA H200 #2 cccccccc @ node-a");
    FleetView v = build_fleet_view(night_of_files({dir + "/results.gpu0.json", dir + "/results.gpu1.json", dir + "/results.gpu2.json",
                                                   dir + "/results.gpu3.json"}));
    const std::string html = fleet_view_html(v);
    const auto from = html.find("<h2>The odd one out"), to = html.find("<h2>Drain");
    REQUIRE(from != std::string::npos);
    REQUIRE(to != std::string::npos);
    for (const std::string& out : {odd_text(f, r), odd_markdown(f, r), odd_json(f, r).dump(), html.substr(from, to - from)}) {
      CHECK(has(out, odd_name));
      CHECK(has(out, "modified z-score"));
      for (int other : {0, 1, 3}) {
        CHECK_FALSE(has(out, f.runs[static_cast<std::size_t>(other)].label));
        CHECK_FALSE(has(out, std::string(8, static_cast<char>('a' + other))));
      }
    }
    // The fleet view drains the node of the failing GPU, and says why.
    REQUIRE(v.drain.size() == 1);
    CHECK(has(v.drain[0].command(), "scontrol update nodename=node-a state=drain reason=\""));
    CHECK(has(v.drain[0].reason, odd_name));
    CHECK(v.status == 1);
  }

  SECTION("a latency 5% off (under the 10% floor) is not named; peers that agree exactly still name 20% off") {
    auto [mcase, mname] = latency_case(base);
    const double was = base["cases"][mcase]["measurements"][mname].get<double>();
    gpus[1]["cases"][mcase]["measurements"][mname] = was * 1.05;
    CHECK(find_odd_ones(fleet_of(gpus, dir)).odd.empty());
    gpus[1]["cases"][mcase]["measurements"][mname] = was * 1.2;
    OddResult r = find_odd_ones(fleet_of(gpus, dir));
    REQUIRE(r.odd.size() == 1);
    CHECK(r.odd[0].measurements.size() == 1);
    CHECK(std::isinf(r.odd[0].measurements[0].z));  // MAD 0: the floor alone decided
    CHECK(r.odd[0].verdicts.empty());
  }

  SECTION("a recorded outcome that differs is a verdict difference, but not a failure") {
    std::size_t rec = 0;
    for (std::size_t i = 0; i < base["cases"].size(); ++i)
      if (base["cases"][i]["verdict"] == "recorded") rec = i;
    gpus[3]["cases"][rec]["facts"]["outcome"] = "something else happened";
    OddResult r = find_odd_ones(fleet_of(gpus, dir));
    REQUIRE(r.odd.size() == 1);
    CHECK(r.odd[0].verdicts.at(0).category == "recorded: something else happened");
    CHECK_FALSE(r.odd[0].failing());
  }
}

TEST_CASE("odd one out: two GPUs have no majority -- differences are splits, nobody is named", "[host][fleet]") {
  const std::string dir = temp_dir("odd2");
  const auto base = nlohmann::ordered_json::parse(read_input_file(kBaseline));
  std::vector<nlohmann::ordered_json> gpus = {gpu_copy(base, 0), gpu_copy(base, 1)};
  auto [mcase, mname] = latency_case(base);
  const std::size_t vcase = passing_case(base, mcase);
  gpus[1]["cases"][vcase]["verdict"] = "fail";
  gpus[1]["cases"][mcase]["measurements"][mname] = gpus[1]["cases"][mcase]["measurements"][mname].get<double>() * 2;
  Fleet f = fleet_of(gpus, dir);
  OddResult r = find_odd_ones(f);
  CHECK(r.odd.empty());
  REQUIRE(r.splits.size() == 2);
  CHECK(r.splits[0].measurement.empty());
  CHECK(r.splits[0].values.size() == 2);
  CHECK(r.splits[1].measurement == mname);
  CHECK(has(odd_text(f, r), "split, no majority"));
}

TEST_CASE("odd one out: other models, drivers and runs without a GPU are not peers", "[host][fleet]") {
  const std::string dir = temp_dir("oddgroups");
  const auto base = nlohmann::ordered_json::parse(read_input_file(kBaseline));
  std::vector<nlohmann::ordered_json> gpus;
  for (int i = 0; i < 3; ++i) gpus.push_back(gpu_copy(base, i));
  gpus[2]["device"]["driver_version"] = "590.1";
  gpus[2]["cases"][passing_case(base, 0)]["verdict"] = "fail";  // alone on its driver: nobody to differ from
  auto nogpu = gpu_copy(base, 3);
  nogpu["device"] = {{"available", false}, {"error", "no CUDA driver"}};
  gpus.push_back(nogpu);
  Fleet f = fleet_of(gpus, dir);
  OddResult r = find_odd_ones(f);
  CHECK(r.groups.size() == 2);
  CHECK(r.without_gpu.size() == 1);
  CHECK(r.odd.empty());
  CHECK(r.splits.empty());
}
