// The placement of every case of the real specs (harness/spec/placement.hpp) against the
// predicates that decided before it (schedule.cpp's gpu_alone_reason, runs_in_host_lanes,
// shares_isolated_worker and case_cost, as of 1c21a7b, kept here verbatim as the reference):
// the same decisions, by construction, on both code paths (sass and the driver's JIT).
#include <catch2/catch.hpp>

#include "harness/fixture/fixture.hpp"
#include "harness/spec/catalog.hpp"
#include "harness/spec/placement.hpp"

using namespace cuconform;

namespace legacy {

bool needs_driver(const Rule& r, bool jit) {
  if (r.needs_gpu()) return true;
  if (!jit) return false;
  return r.needs(Requirement::ptxas) || r.needs(Requirement::cuobjdump);
}
bool case_needs_driver(const Case& c, bool jit) { return !c.rule->planned && needs_driver(*c.rule, jit); }

std::string gpu_alone_reason(const Case& c) {
  const Rule& r = *c.rule;
  if (r.planned || !r.needs_gpu()) return "";
  if (c.isolated) return "it expects a fault or records undefined behaviour (a process of its own, nothing else on the GPU)";
  if (r.kind == Kind::performance) return "a performance rule: it compares rates or latencies";
  const FixtureInfo* fx = find_fixture(r.fixture);
  if (!fx) return "";
  return fx->gpu_alone ? fx->gpu_alone(c) : "";
}

bool runs_in_host_lanes(const Case& c, bool jit) {
  if (case_needs_driver(c, jit)) return false;
  const Rule& r = *c.rule;
  return !c.isolated || r.needs(Requirement::ptxas) || r.needs(Requirement::cuobjdump) || r.needs(Requirement::nvcc);
}

bool shares_isolated_worker(const Case& c) {
  return c.isolated && c.records && c.expect.str("fault").empty() && !c.rule->has_tag("faults") &&
         !c.rule->has_tag("fresh-process");
}

double case_cost(const Case& c) {
  if (c.rule->needs(Requirement::nvcc)) return 250;
  if (c.rule->needs(Requirement::cuobjdump)) return 16;
  return 1;
}

// The supervisor's lane (supervisor.cpp's partition as of 1c21a7b) and the worker it used.
std::pair<WorkerKind, GpuUse> lane(const Case& c, bool jit) {
  if (runs_in_host_lanes(c, jit)) return {WorkerKind::host, GpuUse::none};
  if (c.isolated) return {shares_isolated_worker(c) ? WorkerKind::records : WorkerKind::own, GpuUse::isolated};
  if (!gpu_alone_reason(c).empty()) return {WorkerKind::shared, GpuUse::alone};
  return {WorkerKind::shared, GpuUse::shared};
}

}  // namespace legacy

TEST_CASE("every case's placement is the decision the old predicates made, on both code paths", "[host][placement]") {
  Catalog cat = load_catalog(default_specs_dir());
  REQUIRE(cat.ok());
  REQUIRE(cat.cases.size() > 1000);
  std::map<std::string, int> counts;
  for (bool jit : {false, true}) {
    for (const Case& c : cat.cases) {
      INFO(c.name << (jit ? " (jit)" : " (sass)"));
      const Placement p = place_case(c, jit);
      const auto [worker, gpu] = legacy::lane(c, jit);
      CHECK(to_string(p.worker) == std::string(to_string(worker)));
      CHECK(to_string(p.gpu) == std::string(to_string(gpu)));
      CHECK(p.cost == legacy::case_cost(c));
      CHECK(p.gpus == (gpu == GpuUse::none ? 0 : c.rule->needs(Requirement::peer) ? 2 : 1));
      // The CTest path's lock: exclusive where the old gpu_alone_reason said why. The one
      // difference: with --codegen jit an isolated tool case (a record of the driver's JIT) locks
      // exclusively, as `run` always ran it (the isolated lane), where the old lock shared.
      const bool was_exclusive = !legacy::gpu_alone_reason(c).empty();
      if (!(jit && c.isolated && !c.rule->needs_gpu())) CHECK(p.exclusive() == (was_exclusive && gpu != GpuUse::none));
      CHECK_FALSE(p.why.empty());
      if (!jit) ++counts[std::string(to_string(p.worker)) + "/" + to_string(p.gpu)];
    }
  }
  // The real specs have each kind of placement.
  for (const char* k : {"host/none", "shared/shared", "shared/alone", "records/isolated", "own/isolated"}) {
    INFO(k);
    CHECK(counts[k] > 0);
  }
}

TEST_CASE("the catalog places every case as it loads; no case that may fault shares or leaves the isolated lane",
          "[host][placement]") {
  Catalog cat = load_catalog(default_specs_dir());
  REQUIRE(cat.ok());
  for (const Case& c : cat.cases) {
    INFO(c.name);
    const Placement& p = c.placement;
    CHECK(to_string(p.worker) == std::string(to_string(place_case(c, false).worker)));
    CHECK(to_string(p.gpu) == std::string(to_string(place_case(c, false).gpu)));
    // Safety: a GPU case that may fault on purpose has the GPU to itself, one process at a time.
    if (p.may_fault && p.gpu != GpuUse::none) CHECK(p.gpu == GpuUse::isolated);
    // A case expecting a fault never shares a worker.
    if (!c.expect.str("fault").empty() && p.gpu != GpuUse::none) CHECK(p.worker == WorkerKind::own);
    if (p.gpu == GpuUse::none) CHECK(p.worker == WorkerKind::host);
  }
}
