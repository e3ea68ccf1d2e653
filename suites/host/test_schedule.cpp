// Which cases get the GPU to themselves (harness/runner/schedule.hpp), read off the real specs:
// rates, latencies and frequencies of weak outcomes do; plain data checks do not.
#include <catch2/catch.hpp>

#include "harness/runner/schedule.hpp"
#include "harness/spec/catalog.hpp"

using namespace cuconform;

static std::string alone(const Catalog& cat, const std::string& prefix) {
  for (const Case& c : cat.cases)
    if (c.name.rfind(prefix, 0) == 0) return gpu_alone_reason(c);
  FAIL("no case starts with " << prefix);
  return "";
}

TEST_CASE("cases that time something or count weak outcomes need the GPU alone; data checks share it", "[host][schedule]") {
  Catalog cat = load_catalog(default_specs_dir());
  REQUIRE(cat.ok());
  CHECK(alone(cat, "ldgsts.l1.access_for_4_and_8") != "");      // clock64 latencies
  CHECK(alone(cat, "ldgsts.perf.align_128") != "");             // a performance rule
  CHECK(alone(cat, "mbarrier.try_wait.resumes_on_completion") != "");  // a wake-up bound in microseconds
  CHECK(alone(cat, "scopes.litmus.harness.interleaves") != "");  // requires the weak outcome to show
  CHECK(alone(cat, "scopes.litmus.recorded.lb_no_deps.violation") != "");  // records whether it shows
  CHECK(alone(cat, "scopes.litmus.mp.ordered") == "");          // forbidden stays forbidden under any load
  CHECK(alone(cat, "ldgsts.zero_fill") == "");
  CHECK(alone(cat, "ldgsts.ptx.") == "");                        // host tools never need the GPU
}

TEST_CASE("host cases have costs (nvcc, then SASS facts, then ptxas); the lane count says how it was chosen", "[host][schedule]") {
  Catalog cat = load_catalog(default_specs_dir());
  REQUIRE(cat.ok());
  int nvcc = 0, sass = 0;
  for (const Case& c : cat.cases) {
    nvcc += host_case_cost(c) >= 250;
    sass += host_case_cost(c) == 16;
  }
  CHECK(nvcc > 0);
  CHECK(sass > 0);
  CHECK(host_case_cost(*cat.find_case(cat.cases.front().name)) >= 1);
  std::string why;
  const int lanes = default_gpu_lanes(&why);
  CHECK(lanes >= 1);
  CHECK(lanes <= 8);
  CHECK_FALSE(why.empty());
}
