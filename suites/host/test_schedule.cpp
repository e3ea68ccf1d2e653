// Which cases get the GPU to themselves (harness/runner/schedule.hpp), read off the real specs:
// rates, latencies and frequencies of weak outcomes do; plain data checks do not.
#include <catch2/catch.hpp>

#include "harness/runner/schedule.hpp"
#include "harness/spec/catalog.hpp"

using namespace cuconform;

static std::string alone(const Catalog& cat, const std::string& prefix) {
  for (const Case& c : cat.cases)
    if (c.name.rfind(prefix, 0) == 0) return c.placement.exclusive() ? c.placement.why : "";
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
    nvcc += c.placement.cost >= 250;
    sass += c.placement.cost == 16;
  }
  CHECK(nvcc > 0);
  CHECK(sass > 0);
  CHECK(cat.cases.front().placement.cost >= 1);
  std::string why;
  const int lanes = default_gpu_lanes(&why);
  CHECK(lanes >= 1);
  CHECK(lanes <= 8);
  CHECK_FALSE(why.empty());
}

TEST_CASE("records share an isolated worker unless they read what earlier kernels left; expected faults never do",
          "[host][schedule]") {
  Catalog cat = load_catalog(default_specs_dir());
  REQUIRE(cat.ok());
  auto shares = [&](const std::string& name) {
    const Case* c = cat.find_case(name);
    INFO(name);
    REQUIRE(c);
    return c->placement.worker == WorkerKind::records;
  };
  CHECK(shares("async_group.syncthreads_not_a_wait.violation"));                 // a record
  CHECK_FALSE(shares("mbarrier.undefined.init_without_block_sync.violation"));   // fresh-process
  CHECK(shares("ldgsts.alignment.size_aligned.violation.cg16.src"));              // a record (a misaligned access)
  CHECK_FALSE(shares("ldgsts.hints.cache_policy.evict_last.ca4"));               // tagged faults
  CHECK_FALSE(shares("ldgsts.copy.data.ca4.threads32.src_elem0"));                // not isolated
}

TEST_CASE("host-tool cases run in the host lanes, isolated records of a tool's outcome too; GPU records never",
          "[host][schedule]") {
  Catalog cat = load_catalog(default_specs_dir());
  REQUIRE(cat.ok());
  auto host = [&](const std::string& name) {
    const Case* c = cat.find_case(name);
    INFO(name);
    REQUIRE(c);
    return c->placement.worker == WorkerKind::host;
  };
  CHECK(host("ldgsts.ptx.cg_is_16_only.violation"));                         // ptxas, judged
  CHECK(host("ldgsts.ptx.version_above_assembler.violation"));               // ptxas, recorded (isolated)
  CHECK(host("performance.elect.codegen.sm_90a"));                           // cuobjdump, recorded (isolated)
  CHECK_FALSE(host("ldgsts.alignment.size_aligned.violation.cg16.src"));      // a GPU record
  CHECK_FALSE(host("ldgsts.hints.cache_policy.evict_last.ca4"));              // a GPU case tagged faults
  CHECK_FALSE(host("ldgsts.copy.data.ca4.threads32.src_elem0"));              // a GPU case
}

TEST_CASE("isolated workers started ahead: the records' list, last, keeps up to the depth; a list before others keeps one spare", "[host][schedule]") {
  CHECK(isolated_workers_ahead(1, 3, false) == 1);   // its last case: no spare
  CHECK(isolated_workers_ahead(1, 3, true) == 1);
  CHECK(isolated_workers_ahead(40, 3, true) == 2);   // lists after it need their own workers ahead
  CHECK(isolated_workers_ahead(40, 3, false) == 3);  // the last list: the depth
  CHECK(isolated_workers_ahead(2, 6, false) == 2);   // never more than its cases left
  CHECK(isolated_workers_ahead(40, 1, false) == 2);  // a spare even at depth 1 (as before)
}

TEST_CASE("host lanes: the cores less two, 1 to 8", "[host][schedule]") {
  CHECK(default_host_lanes(1) == 1);
  CHECK(default_host_lanes(2) == 1);
  CHECK(default_host_lanes(9) == 7);
  CHECK(default_host_lanes(16) == 8);  // one H200 machine
  CHECK(default_host_lanes(64) == 8);  // more were slower for the whole suite (schedule.hpp)
}
