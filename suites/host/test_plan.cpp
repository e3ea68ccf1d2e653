// Plans as data (harness/runner/plan.hpp), from the real specs: no process starts, no GPU opens.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <map>
#include <set>

#include "harness/runner/plan.hpp"
#include "harness/runner/schedule.hpp"
#include "harness/spec/catalog.hpp"
#include "harness/spec/selection.hpp"

using namespace cuconform;

namespace {

const Catalog& specs() {
  static Catalog cat = load_catalog(default_specs_dir());
  return cat;
}

std::vector<const Case*> all_cases() {
  std::vector<const Case*> v;
  for (const Case& c : specs().cases) v.push_back(&c);
  return v;
}

NodeGpu h200(int i) {
  NodeGpu g;
  g.ordinal = i;
  g.uuid = "GPU-0000000" + std::to_string(i) + "-0000-4000-8000-000000000000";
  g.name = "NVIDIA H200";
  g.sm_count = 132;
  g.total_mem = 150ull << 30;
  return g;
}

PlanOptions sixteen_cores() {
  PlanOptions o;
  o.cores = 16;
  return o;
}

// How many times each case appears in the steps of `gpu` (and the host step).
std::map<std::string, int> seen_on(const Plan& p, int gpu) {
  std::map<std::string, int> n;
  for (const PlanStep* s : p.steps_of(gpu))
    for (const Case* c : s->cases) ++n[c->name];
  for (const PlanStep* s : p.steps_of(-1))
    for (const Case* c : s->cases) ++n[c->name];
  for (const PlanStep& s : p.steps)
    if (s.gpu == gpu && s.peer >= 0)
      for (const Case* c : s.cases) ++n[c->name];
  return n;
}

}  // namespace

TEST_CASE("one GPU: host, parallel, alone, isolated, each case once, faults alone and last", "[host][plan]") {
  REQUIRE(specs().ok());
  const auto cases = all_cases();
  const Plan p = make_plan(cases, {h200(0)}, sixteen_cores());
  REQUIRE(p.gpus == 1);
  std::vector<Phase> phases;
  for (const PlanStep& s : p.steps) phases.push_back(s.phase);
  CHECK(phases == std::vector<Phase>{Phase::host, Phase::parallel, Phase::alone, Phase::isolated});
  const auto seen = seen_on(p, 0);
  CHECK(seen.size() == cases.size());
  for (auto& [name, times] : seen) {
    INFO(name);
    CHECK(times == 1);
  }
  for (const PlanStep& s : p.steps) {
    INFO(to_string(s.phase));
    std::size_t in_workers = 0;
    for (auto& w : s.workers) in_workers += w.size();
    CHECK(in_workers == s.cases.size());  // every case of a step is in exactly one of its workers
    for (const Case* c : s.cases) {
      if (c->placement.may_fault && c->placement.gpu != GpuUse::none) CHECK(s.phase == Phase::isolated);
      if (s.phase == Phase::isolated) CHECK(std::string(s.lock) == "exclusive");
      if (s.phase == Phase::host) CHECK(std::string(s.lock) == "none");
    }
  }
  const PlanStep& par = p.steps[1];
  CHECK(par.lanes == 8);  // 132 SMs / 16, 16 cores / 2, 150 GiB / 4, at most 8
  CHECK(par.lanes_why.find("automatic") != std::string::npos);
  CHECK(par.env == std::vector<std::string>{"CUCONFORM_DEVICE=0", "CUCONFORM_PEER_DEVICE=", "CUDA_VISIBLE_DEVICES=" + h200(0).uuid});
  // The isolated step: a process for each case that may not share, one for the records.
  const PlanStep& iso = p.steps[3];
  int own = 0, records = 0;
  for (const Case* c : iso.cases) (c->placement.worker == WorkerKind::records ? records : own)++;
  CHECK(records > 0);
  CHECK(iso.workers.size() == static_cast<std::size_t>(own + 1));
  CHECK(iso.prestart == 3);
}

TEST_CASE("two GPUs: the same cases on each, host cases once, two-GPU cases in pairs, lanes share the cores",
          "[host][plan]") {
  REQUIRE(specs().ok());
  const auto cases = all_cases();
  const Plan one = make_plan(cases, {h200(0)}, sixteen_cores());
  const Plan two = make_plan(cases, {h200(0), h200(1)}, sixteen_cores());
  REQUIRE(two.gpus == 2);
  int host_steps = 0, pairs = 0;
  for (const PlanStep& s : two.steps) {
    host_steps += s.phase == Phase::host;
    pairs += s.phase == Phase::pairs || s.phase == Phase::pairs_shared;
    if (s.phase == Phase::parallel) CHECK(s.lanes == 4);  // 16 cores, half each, / 2
    if (s.peer >= 0) {
      CHECK(s.peer == (s.gpu + 1) % 2);
      for (const Case* c : s.cases) CHECK(c->placement.gpus == 2);
    }
    if (s.gpu == 1) CHECK(s.env.back() == "CUDA_VISIBLE_DEVICES=" + h200(1).uuid + (s.peer >= 0 ? "," + h200(0).uuid : ""));
  }
  CHECK(host_steps == 1);
  CHECK(pairs > 0);
  // Each GPU runs every case of the one-GPU plan once (its pairs as the first GPU of a pair).
  for (int g = 0; g < 2; ++g) {
    const auto seen = seen_on(two, g);
    CHECK(seen.size() == cases.size());
  }
  // A step of each phase for each GPU, in phase order: the GPUs meet between phases.
  std::vector<std::pair<Phase, int>> order;
  for (const PlanStep& s : two.steps)
    if (s.peer < 0 && s.gpu >= 0) order.emplace_back(s.phase, s.gpu);
  CHECK(order == std::vector<std::pair<Phase, int>>{{Phase::parallel, 0}, {Phase::parallel, 1}, {Phase::alone, 0},
                                                    {Phase::alone, 1}, {Phase::isolated, 0}, {Phase::isolated, 1}});
  CHECK(two.processes() > one.processes());
}

TEST_CASE("host-only and filtered selections: only the steps they need", "[host][plan]") {
  REQUIRE(specs().ok());
  std::vector<const Case*> host, ldgsts;
  for (const Case& c : specs().cases) {
    if (c.placement.gpu == GpuUse::none) host.push_back(&c);
    if (c.rule->area == "ldgsts") ldgsts.push_back(&c);
  }
  REQUIRE(!host.empty());
  const Plan h = make_plan(host, {h200(0)}, sixteen_cores());
  REQUIRE(h.steps.size() == 1);
  CHECK(h.steps[0].phase == Phase::host);
  CHECK(h.steps[0].cases.size() == host.size());
  // Without GPUs (none found): the driver's default device, one lane, no environment.
  const Plan none = make_plan(ldgsts, {}, sixteen_cores());
  std::size_t total = 0;
  for (const PlanStep& s : none.steps) {
    total += s.cases.size();
    CHECK(s.env.empty());
    if (s.phase == Phase::parallel) CHECK(s.lanes == 1);
    for (const Case* c : s.cases) CHECK(c->rule->area == "ldgsts");
  }
  CHECK(total == ldgsts.size());
}

TEST_CASE("every scheduling switch is a plan option with its source; bad values are refused", "[host][plan]") {
  REQUIRE(specs().ok());
  setenv("CUCONFORM_BATCH_RECORDS", "0", 1);
  setenv("CUCONFORM_PRESTART", "0", 1);
  PlanOptions o = sixteen_cores();
  std::string error;
  REQUIRE(plan_options_from_env(&o, &error));
  unsetenv("CUCONFORM_BATCH_RECORDS");
  unsetenv("CUCONFORM_PRESTART");
  o.reruns = 2;
  o.sources.emplace_back("rerun", "--rerun");
  const Plan p = make_plan(all_cases(), {h200(0)}, o);
  std::map<std::string, std::string> opts(p.options.begin(), p.options.end());
  CHECK(opts["records share a worker"] == "no (a process a record) ($CUCONFORM_BATCH_RECORDS)");
  CHECK(opts["prestart isolated workers"] == "off ($CUCONFORM_PRESTART)");
  CHECK(opts["re-runs of failures"] == "2 (--rerun)");
  CHECK(opts["gpu lanes"] == "automatic (default)");
  for (const PlanStep& s : p.steps) {
    if (s.phase == Phase::isolated) {
      CHECK(s.workers.size() == s.cases.size());  // a process a case
      CHECK(s.prestart == 0);
    }
  }
  CHECK(p.steps.back().phase == Phase::rerun);
  const Json j = plan_json(p);
  CHECK(j["steps"].size() == p.steps.size());
  CHECK(j["options"]["records share a worker"] == opts["records share a worker"]);
  CHECK(plan_text(p, false).find("isolated") != std::string::npos);

  setenv("CUCONFORM_PRESTART_DEPTH", "zero", 1);
  PlanOptions bad;
  CHECK_FALSE(plan_options_from_env(&bad, &error));
  CHECK(error.find("CUCONFORM_PRESTART_DEPTH") != std::string::npos);
  unsetenv("CUCONFORM_PRESTART_DEPTH");
  setenv("CUCONFORM_BATCH_RECORDS", "no", 1);
  CHECK_FALSE(plan_options_from_env(&bad, &error));
  unsetenv("CUCONFORM_BATCH_RECORDS");
}

TEST_CASE("lane chunks and host lanes are plan options: the parallel step's workers follow them", "[host][plan]") {
  REQUIRE(specs().ok());
  setenv("CUCONFORM_LANE_CHUNKS", "1", 1);
  setenv("CUCONFORM_HOST_LANES", "14", 1);
  setenv("CUCONFORM_HOST_LANES_LATE", "15", 1);
  PlanOptions o = sixteen_cores();
  std::string error;
  REQUIRE(plan_options_from_env(&o, &error));
  unsetenv("CUCONFORM_LANE_CHUNKS");
  unsetenv("CUCONFORM_HOST_LANES");
  unsetenv("CUCONFORM_HOST_LANES_LATE");
  const Plan one = make_plan(all_cases(), {h200(0)}, o);
  const Plan two = make_plan(all_cases(), {h200(0)}, sixteen_cores());
  std::map<std::string, std::string> opts(one.options.begin(), one.options.end());
  CHECK(opts["worker processes a parallel lane"] == "1 ($CUCONFORM_LANE_CHUNKS)");
  CHECK(opts["host lanes"] == "14 ($CUCONFORM_HOST_LANES)");
  CHECK(opts["host lanes after the GPU's alone step"] == "15 ($CUCONFORM_HOST_LANES_LATE)");
  auto step = [](const Plan& p, Phase ph) {
    for (const PlanStep& s : p.steps)
      if (s.phase == ph) return s;
    FAIL("no step");
    return PlanStep{};
  };
  const PlanStep p1 = step(one, Phase::parallel), p2 = step(two, Phase::parallel);
  CHECK(p1.lanes == p2.lanes);
  CHECK(p1.workers.size() == static_cast<std::size_t>(p1.lanes));
  CHECK(p2.workers.size() == static_cast<std::size_t>(2 * p2.lanes));
  CHECK(step(one, Phase::host).lanes == 14);
  CHECK(step(one, Phase::host).lanes_late == 15);
  for (const char* bad : {"0", "5", "two", "", "99999999999"}) {
    setenv("CUCONFORM_LANE_CHUNKS", bad, 1);
    PlanOptions b;
    CHECK_FALSE(plan_options_from_env(&b, &error));
    CHECK(error.find("CUCONFORM_LANE_CHUNKS") != std::string::npos);
  }
  unsetenv("CUCONFORM_LANE_CHUNKS");
}

TEST_CASE("lever faults_share: findings tagged faults join the records' worker; expected faults keep a process each",
          "[host][plan]") {
  REQUIRE(specs().ok());
  const auto cases = all_cases();
  PlanOptions on = sixteen_cores();
  on.faults_share = true;
  const Plan base = make_plan(cases, {h200(0)}, sixteen_cores());
  const Plan lever = make_plan(cases, {h200(0)}, on);
  const PlanStep* iso_base = base.steps_of(0).back();
  const PlanStep* iso_lever = lever.steps_of(0).back();
  REQUIRE(iso_base->phase == Phase::isolated);
  REQUIRE(iso_lever->phase == Phase::isolated);
  int joined = 0;
  for (const Case* c : iso_base->cases) {
    INFO(c->name);
    const bool joins = joins_records_worker(*c, true, true);
    joined += joins && c->placement.worker == WorkerKind::own;
    if (!c->expect.str("fault").empty()) CHECK_FALSE(joins);      // an expected fault: a process of its own
    if (c->rule->has_tag("fresh-process")) CHECK_FALSE(joins);
    CHECK_FALSE(joins_records_worker(*c, false, true));           // CUCONFORM_BATCH_RECORDS=0 wins
  }
  CHECK(joined > 0);
  CHECK(iso_lever->workers.size() + joined == iso_base->workers.size());
  CHECK(iso_lever->cases.size() == iso_base->cases.size());
  std::map<std::string, std::string> opts(lever.options.begin(), lever.options.end());
  CHECK(opts["findings tagged faults join the records' worker"] == "yes (default)");
}

TEST_CASE("a small parallel step gets fewer GPU lanes and its cores go to the host lanes", "[host][plan]") {
  REQUIRE(specs().ok());
  const auto cases = all_cases();
  auto step = [](const Plan& p, Phase ph) {
    for (const PlanStep& s : p.steps)
      if (s.phase == ph) return s;
    FAIL("no step " << to_string(ph));
    return PlanStep{};
  };
  // The first 448 cases that may share the GPU (the smoke profile's number), and every host case.
  std::vector<const Case*> small;
  std::size_t shared = 0;
  for (const Case* c : cases)
    if (c->placement.gpu == GpuUse::none) small.push_back(c);
    else if (c->placement.gpu == GpuUse::shared && shared < 448) small.push_back(c), ++shared;
  REQUIRE(shared == 448);
  const Plan p = make_plan(small, {h200(0)}, sixteen_cores());
  CHECK(step(p, Phase::parallel).lanes == 4);  // 448 / 112; the GPU allows 8
  CHECK(step(p, Phase::parallel).lanes_why.find("448 cases / 112") != std::string::npos);
  CHECK(step(p, Phase::host).lanes == 12);  // the 16 cores less the 4 GPU lanes, at most 12
  // The whole suite keeps 8 and 8; a set number of lanes wins; a node keeps the cores less two.
  const Plan whole = make_plan(cases, {h200(0)}, sixteen_cores());
  CHECK(step(whole, Phase::parallel).lanes == 8);
  CHECK(step(whole, Phase::host).lanes == 8);
  PlanOptions set = sixteen_cores();
  set.gpu_lanes = 6;
  CHECK(step(make_plan(small, {h200(0)}, set), Phase::parallel).lanes == 6);
  CHECK(step(make_plan(small, {h200(0)}, set), Phase::host).lanes == 10);
  CHECK(step(make_plan(small, {h200(0), h200(1)}, sixteen_cores()), Phase::host).lanes == 8);
  // As the executor plans its one GPU: no GPU list, the lanes it sized itself.
  PlanOptions executor = sixteen_cores();
  executor.gpu_lanes = 4;
  CHECK(step(make_plan(small, {}, executor), Phase::host).lanes == 12);
  CHECK(gpu_lanes_for_cases(0) == 1);
  CHECK(gpu_lanes_for_cases(112) == 1);
  CHECK(gpu_lanes_for_cases(113) == 2);
  CHECK(host_lanes_beside(16, 8) == 8);
  CHECK(host_lanes_beside(16, 1) == 12);
  CHECK(host_lanes_beside(4, 3) == 2);  // never fewer than default_host_lanes
}

TEST_CASE("the host step widens once the GPU's alone step is over, on one GPU only", "[host][plan]") {
  REQUIRE(specs().ok());
  auto host_step = [](const Plan& p) {
    for (const PlanStep& s : p.steps)
      if (s.phase == Phase::host) return s;
    FAIL("no host step");
    return PlanStep{};
  };
  const auto cases = all_cases();
  const PlanStep one = host_step(make_plan(cases, {h200(0)}, sixteen_cores()));
  CHECK(one.lanes == 8);
  CHECK(one.lanes_late == 16);  // the cores, at most 16
  CHECK(one.lanes_why.find("then 16 once the GPU's alone step is over") != std::string::npos);
  PlanOptions set = sixteen_cores();
  set.host_lanes_late = 10;
  CHECK(host_step(make_plan(cases, {h200(0)}, set)).lanes_late == 10);
  // A node's host step runs beside every GPU's steps: no GPU's alone step frees the cores.
  CHECK(host_step(make_plan(cases, {h200(0), h200(1)}, sixteen_cores())).lanes_late == 0);
  // Host cases alone (a node's host executor): nothing to wait for.
  std::vector<const Case*> host;
  for (const Case* c : cases)
    if (c->placement.gpu == GpuUse::none) host.push_back(c);
  CHECK(host_step(make_plan(host, {h200(0)}, sixteen_cores())).lanes_late == 0);
}
