// A night reads each GPU's file with only the digest's fields (load_results_for_digest): the
// digest must be the one the whole file gives, for every committed baseline, known list applied.
#include <catch2/catch.hpp>

#include <filesystem>

#include "reporters/fleet_digest.hpp"
#include "reporters/known_list.hpp"
#include "suites/host/test_reporters_support.hpp"

using namespace cuconform;
using namespace cuconform::testing;

namespace {

void same_facts(const FleetDigest::RunFacts& a, const FleetDigest::RunFacts& b) {
  CHECK(a.counts == b.counts);
  CHECK(a.facts.no_gpu == b.facts.no_gpu);
  CHECK(a.facts.no_gpu_why == b.facts.no_gpu_why);
  CHECK(a.facts.preflight_stopped == b.facts.preflight_stopped);
  CHECK(a.facts.preflight_reason == b.facts.preflight_reason);
  CHECK(a.facts.unhealthy == b.facts.unhealthy);
  CHECK(a.facts.cut_off == b.facts.cut_off);
  CHECK(a.facts.new_failures == b.facts.new_failures);
  CHECK(a.facts.first_new_failure == b.facts.first_new_failure);
  CHECK(a.facts.known_failures == b.facts.known_failures);
  CHECK(a.facts.known_flakes == b.facts.known_flakes);
  CHECK(a.facts.flakes == b.facts.flakes);
  CHECK(a.facts.first_flake == b.facts.first_flake);
  CHECK(a.facts.toolchain_changes == b.facts.toolchain_changes);
  REQUIRE(a.throughput.size() == b.throughput.size());
  for (std::size_t i = 0; i < a.throughput.size(); ++i) {
    CHECK(a.throughput[i].case_name == b.throughput[i].case_name);
    CHECK(a.throughput[i].verdict == b.throughput[i].verdict);
    CHECK(a.throughput[i].rate_gbps == b.throughput[i].rate_gbps);
    CHECK(a.throughput[i].frac_d2d == b.throughput[i].frac_d2d);
    CHECK(a.throughput[i].frac_datasheet == b.throughput[i].frac_datasheet);
  }
}

}  // namespace

TEST_CASE("fleet: a results file read with only the digest's fields gives the digest of the whole file", "[host][fleet]") {
  const auto baselines = source_root() / "ci/baselines";
  const KnownList known = load_known((baselines / "known.yaml").string());
  int files = 0;
  for (auto& e : std::filesystem::directory_iterator(baselines)) {
    const std::string p = e.path().string();
    if (!is_results_file_name(p)) continue;
    INFO(p);
    ++files;
    const FleetDigest whole = digest_of(load_results(p), &known), fast = digest_of(load_results_for_digest(p), &known);
    REQUIRE(whole.runs.size() == fast.runs.size());
    for (std::size_t r = 0; r < whole.runs.size(); ++r) {
      CHECK(whole.runs[r].label == fast.runs[r].label);
      CHECK(whole.runs[r].suite_json == fast.runs[r].suite_json);
      CHECK(whole.runs[r].run_json == fast.runs[r].run_json);
      CHECK(whole.runs[r].device_json == fast.runs[r].device_json);
      CHECK(whole.runs[r].health_json == fast.runs[r].health_json);
      CHECK(whole.runs[r].action_json == fast.runs[r].action_json);
      same_facts(whole.facts[r], fast.facts[r]);
    }
    CHECK(whole.cases == fast.cases);
    CHECK(whole.categories == fast.categories);
    CHECK(whole.verdicts == fast.verdicts);
    CHECK(whole.measures == fast.measures);
    REQUIRE(whole.values.size() == fast.values.size());
    for (std::size_t r = 0; r < whole.values.size(); ++r) {
      CHECK(whole.values[r].measure == fast.values[r].measure);
      CHECK(whole.values[r].value == fast.values[r].value);
    }
  }
  CHECK(files >= 2);
}

TEST_CASE("fleet: a truncated results file read for the digest is named with its line", "[host][fleet][bad-input]") {
  const std::string path = temp_dir("digest-read") + "/cut.json";
  write_text(path, "{\"schema\": \"cuconform-results/1\",\n\"cases\": [{\"name\": \"a.b\", \"verdict\": \"pass\", \"source\": \"x");
  try {
    load_results_for_digest(path);
    FAIL("a truncated file read");
  } catch (const ResultsError& e) {
    CHECK_THAT(e.what(), Catch::StartsWith(path + ":2:"));
  }
}
