// The nightly gate fails closed (issue 41): compare of a committed baseline against a run that did
// not judge what the baseline judged (half its cases not-run, a run cut off by a signal, cases
// missing, a GPU stopped as unhealthy) exits 1 and says why; a results file with no case is
// refused (exit 2, naming it); so is a baseline that does not read (a git-lfs pointer, a truncated
// .json.gz), never skipped for another; duplicate JSON keys are refused with FILE:LINE. Each of
// these came out green (exit 0) before 2026-11-28.
//
// The runs are made from ci/baselines/NVIDIA-H200_driver-580.159.04.json.gz (4,923 cases), as a GPU
// that died or a job that was killed would leave it.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "harness/util/gzip.hpp"
#include "harness/util/input_file.hpp"
#include "harness/util/json_read.hpp"
#include "history/store.hpp"
#include "reporters/results_file.hpp"
#include "suites/host/test_reporters_support.hpp"

using namespace cuconform;
using namespace cuconform::testing;

namespace {

const std::string kBase = std::string(CUCONFORM_BASELINES_DIR) + "/NVIDIA-H200_driver-580.159.04.json.gz";

nlohmann::ordered_json baseline() { return nlohmann::ordered_json::parse(read_input_file(kBase)); }

bool judged(const nlohmann::ordered_json& c) {
  const std::string v = c["verdict"];
  return (v == "pass" || v == "fail") && c.value("basis", "") != "toolchain";
}

std::string write(const std::string& dir, const std::string& name, const nlohmann::ordered_json& j) {
  const std::string path = dir + "/" + name;
  write_text(path, j.dump(1));
  return path;
}

std::string compare(const std::string& base, const std::string& now) { return "compare '" + base + "' '" + now + "'"; }

}  // namespace

TEST_CASE("compare of a baseline with itself exits 0 (the control of the gate tests below)", "[host][gate]") {
  Exe e = cuconform_cli(compare(kBase, kBase));
  INFO(e.out);
  CHECK(e.rc == 0);
  CHECK(has(e.out, "0 not judged"));
}

TEST_CASE("compare: a run with half its judged cases not-run gates (exit 1), each case named with its reason", "[host][gate]") {
  const std::string dir = temp_dir("gate-not-run");
  auto j = baseline();
  int n = 0, flipped = 0;
  for (auto& c : j["cases"])
    if (judged(c) && n++ % 2 == 0) {
      c["verdict"] = "not-run";
      c["reason"] = "not run: GPU unhealthy, Xid 79 (fell off the bus) at case x";
      ++flipped;
    }
  REQUIRE(flipped > 2000);
  Exe e = cuconform_cli(compare(kBase, write(dir, "half-not-run.json", j)));
  CHECK(e.rc == 1);
  CHECK(has(e.out, std::to_string(flipped) + " not judged"));
  CHECK(has(e.out, "NOT JUDGED IN NEW"));
  CHECK(has(e.out, "[pass -> not-run]  -- not run: GPU unhealthy, Xid 79"));
  CHECK(has(e.out, "RESULT: REGRESSION (exit 1)"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("compare: a run cut off by SIGTERM gates (exit 1), and so do cases missing from a run that finished", "[host][gate]") {
  const std::string dir = temp_dir("gate-cut-off");
  auto j = baseline();
  nlohmann::ordered_json kept = nlohmann::ordered_json::array(), not_run = nlohmann::ordered_json::array();
  for (auto& c : j["cases"]) {
    if (kept.size() < 926) kept.push_back(c);
    else not_run.push_back(c["name"]);
  }
  const std::size_t of = j["cases"].size();
  j["cases"] = kept;
  j["run"]["cut_off"] = {{"by", "SIGTERM"}, {"finished", kept.size()}, {"of", of}, {"not_run", not_run}};
  Exe cut = cuconform_cli(compare(kBase, write(dir, "cut.json", j)));
  INFO(cut.out);
  CHECK(cut.rc == 1);
  CHECK(has(cut.out, "NOT JUDGED: NEW was cut off by SIGTERM, 926 of " + std::to_string(of) + " cases finished"));
  CHECK(has(cut.out, "not run: NEW was cut off by SIGTERM"));

  // The same cases gone with no cut-off record: missing, gating.
  j["run"].erase("cut_off");
  Exe missing = cuconform_cli(compare(kBase, write(dir, "missing.json", j)));
  INFO(missing.out);
  CHECK(missing.rc == 1);
  CHECK(has(missing.out, "missing from NEW"));
  CHECK_FALSE(has(missing.out, "NOT JUDGED: NEW was cut off"));

  // A run that chose fewer cases on purpose (--area) is not missing the others.
  j["run"]["selection"] = nlohmann::ordered_json::array({"--area ldgsts"});
  nlohmann::ordered_json ldgsts = nlohmann::ordered_json::array();
  const auto whole = baseline();
  for (auto& c : whole["cases"])
    if (c["area"] == "ldgsts") ldgsts.push_back(c);
  REQUIRE(ldgsts.size() > 100);
  j["cases"] = ldgsts;
  Exe filtered = cuconform_cli(compare(kBase, write(dir, "filtered.json", j)));
  INFO(filtered.out);
  CHECK(filtered.rc == 0);
  std::filesystem::remove_all(dir);
}

TEST_CASE("compare: a results file with no case is refused (exit 2, naming it), as NEW and as BASE", "[host][gate]") {
  const std::string dir = temp_dir("gate-empty");
  auto j = baseline();
  j["cases"] = nlohmann::ordered_json::array();
  const std::string empty = write(dir, "empty.json", j);
  for (const std::string& args : {compare(kBase, empty), compare(empty, kBase)}) {
    Exe e = cuconform_cli(args);
    INFO(args << "\n" << e.out);
    CHECK(e.rc == 2);
    CHECK(has(e.out, empty + ": no case in it"));
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("compare: a run whose GPU the health watch stopped gates (exit 1) on the health verdict", "[host][gate]") {
  const std::string dir = temp_dir("gate-unhealthy");
  // GPU 1 of two stand-in GPUs reports Xid 79 after its 10th case (as test_node_run.cpp).
  Exe run = cuconform_cli("run --devices all --area async_group --out '" + dir + "'", "CUCONFORM_FAKE_GPUS=2 CUCONFORM_HEALTH_INJECT=1:79:10");
  INFO(run.out);
  REQUIRE(run.rc == 4);
  Exe healthy = cuconform_cli(compare(dir + "/results.gpu0.json", dir + "/results.gpu0.json"));
  INFO(healthy.out);
  CHECK(healthy.rc == 0);
  Exe e = cuconform_cli(compare(dir + "/results.gpu0.json", dir + "/results.gpu1.json"));
  INFO(e.out);
  CHECK(e.rc == 1);
  CHECK(has(e.out, "NOT JUDGED: NEW's GPU was stopped as unhealthy: Xid 79"));
  // A node run records what --devices chose (the history keys its series by it, below).
  CHECK(nlohmann::json::parse(read_text(dir + "/results.gpu1.json"))["run"]["selection"].dump() == "[\"--area async_group\",\"--devices all\"]");
  std::filesystem::remove_all(dir);
}

TEST_CASE("history: a GPU's run in a node (run --devices) is a series apart from a lone run of the same GPU", "[host][gate]") {
  const std::string dir = temp_dir("gate-series");
  auto lone = baseline();
  auto node = baseline();
  node["run"]["selection"] = nlohmann::ordered_json::array({"--devices all"});
  auto smoke_node = baseline();
  smoke_node["run"]["selection"] = nlohmann::ordered_json::array({"--profile smoke", "--devices 0,1"});
  const RunIdentity a = run_identity(load_results(write(dir, "lone.json", lone)).runs[0]);
  const RunIdentity b = run_identity(load_results(write(dir, "node.json", node)).runs[0]);
  const RunIdentity c = run_identity(load_results(write(dir, "smoke-node.json", smoke_node)).runs[0]);
  CHECK(a.uuid == b.uuid);
  CHECK(a.selection == "");
  CHECK(b.selection == "--devices all");
  CHECK(c.selection == "--profile smoke --devices 0,1");
  CHECK(a.series_label() != b.series_label());
  CHECK(has(b.series_label(), "--devices all"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("compare: an unreadable file in the baselines folder is exit 2 naming it, never skipped", "[host][gate]") {
  const std::string dir = temp_dir("gate-baselines");
  const std::string data = read_text(kBase);
  write_text(dir + "/NVIDIA-H200_driver-580.159.04.json.gz", data);
  Exe good = cuconform_cli(compare(dir, kBase));
  INFO(good.out);
  CHECK(good.rc == 0);
  // A git-lfs pointer where the H100's baseline should be; then a truncated copy of the H200's.
  const std::string lfs = dir + "/NVIDIA-H100-80GB-HBM3_driver-580.159.04.json.gz";
  write_text(lfs, "version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 262144\n");
  Exe pointer = cuconform_cli(compare(dir, kBase));
  INFO(pointer.out);
  CHECK(pointer.rc == 2);
  CHECK(has(pointer.out, lfs + ":"));
  CHECK(has(pointer.out, "git-lfs pointer"));
  std::filesystem::remove(lfs);
  const std::string cut = dir + "/NVIDIA-H200_driver-580.159.04_jit.json.gz";
  write_text(cut, data.substr(0, data.size() / 2));
  Exe truncated = cuconform_cli(compare(dir, kBase));
  INFO(truncated.out);
  CHECK(truncated.rc == 2);
  CHECK(has(truncated.out, cut + ": truncated gzip"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("duplicate JSON keys are refused with FILE:LINE: a trailing \"cases\": [] no longer empties a run", "[host][gate]") {
  try {
    JsonDoc doc("{\"a\": 1,\n \"b\": {\"x\": 1,\n  \"x\": 2}}", "d.json");
    FAIL("accepted a repeated key");
  } catch (const JsonError& e) {
    CHECK(std::string(e.what()).rfind("d.json:3:", 0) == 0);
    CHECK(has(e.what(), "b: key \"x\" appears twice"));
  }
  CHECK_NOTHROW(JsonDoc("{\"a\": {\"x\": 1}, \"b\": {\"x\": 2}, \"c\": [{\"x\": 1}, {\"x\": 2}]}", "ok.json"));

  const std::string dir = temp_dir("gate-duplicate");
  std::string text = baseline().dump(1);
  text.insert(text.rfind('}'), ",\n \"cases\": []\n");
  const std::string dup = dir + "/dup.json";
  write_text(dup, text);
  Exe e = cuconform_cli(compare(kBase, dup));
  INFO(e.out);
  CHECK(e.rc == 2);
  const std::size_t lines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
  CHECK(has(e.out, dup + ":" + std::to_string(lines) + ":"));
  CHECK(has(e.out, "key \"cases\" appears twice"));
  std::filesystem::remove_all(dir);
}
