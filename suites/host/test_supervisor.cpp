// Process isolation, deqp-runner style, proved without a GPU by the self-test fixtures:
// a crash, a hang and a "fault" each cost only their own case, and the cases after them
// still run and pass in a fresh worker.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <map>

#include "harness/runner/node_run.hpp"
#include "harness/runner/plan.hpp"
#include "harness/runner/supervisor.hpp"
#include "suites/host/test_temp_dir.hpp"

using namespace cuconform;

static const std::string kSpecs = std::string(CUCONFORM_TESTDATA) + "/specs";

static Verdict verdict_of(const SuperviseOutcome& out, const std::string& name) {
  for (auto& r : out.results)
    if (r.name == name) return r.obs.verdict;
  FAIL("no result for " << name);
  return Verdict::crash;
}

// Supervises the named cases of the specs in specs_dir (the catalog must load and hold them all).
static SuperviseOutcome supervise_named(const std::string& specs_dir, const std::vector<std::string>& names,
                                        SuperviseOptions opt = {}) {
  Catalog cat = load_catalog(specs_dir);
  for (auto& e : cat.errors) UNSCOPED_INFO(e.str());
  REQUIRE(cat.ok());
  std::vector<const Case*> cases;
  for (auto& n : names) {
    const Case* c = cat.find_case(n);
    INFO("case " << n);
    REQUIRE(c);
    cases.push_back(c);
  }
  opt.specs_dir = specs_dir;
  return supervise(cases, opt);
}

TEST_CASE("a crashing, hanging or faulting case does not disturb the cases after it", "[host][isolation]") {
  std::vector<std::string> order = {"selftest.behave.ok",    "selftest.behave.abort", "selftest.echo.value1",
                                    "selftest.behave.segv",  "selftest.behave.hang",  "selftest.echo.value2",
                                    "selftest.behave.throw", "selftest.behave.fault", "selftest.behave.pid"};
  SuperviseOptions opt;
  opt.slack_s = 1;
  SuperviseOutcome out = supervise_named(kSpecs, order, opt);
  REQUIRE(out.results.size() == order.size());
  CHECK(verdict_of(out, "selftest.behave.ok") == Verdict::pass);
  CHECK(verdict_of(out, "selftest.behave.abort") == Verdict::crash);
  CHECK(verdict_of(out, "selftest.echo.value1") == Verdict::pass);
  CHECK(verdict_of(out, "selftest.behave.segv") == Verdict::crash);
  CHECK(verdict_of(out, "selftest.behave.hang") == Verdict::timeout);
  CHECK(verdict_of(out, "selftest.echo.value2") == Verdict::fail);
  CHECK(verdict_of(out, "selftest.behave.throw") == Verdict::crash);
  CHECK(verdict_of(out, "selftest.behave.fault") == Verdict::fail);  // an unexpected fault
  CHECK(verdict_of(out, "selftest.behave.pid") == Verdict::pass);
  // abort, segv, hang and the poisoning fault each end a worker: 1 + 4 workers.
  CHECK(out.workers_started == 5);
  const CaseResult& crash = out.results[1];
  CHECK(crash.obs.reason.find("worker process killed by signal") == 0);
}

TEST_CASE("a violation expected to fault runs in a worker of its own", "[host][isolation]") {
  SuperviseOutcome out = supervise_named(
      kSpecs, {"selftest.behave.pid", "selftest.negative.violation.pid", "selftest.negative.control.pid"});
  CHECK(out.results[0].obs.verdict == Verdict::pass);
  CHECK(out.results[1].obs.verdict == Verdict::pass);  // faulted as documented
  CHECK(out.results[1].obs.expected == "device fault CUDA_ERROR_MISALIGNED_ADDRESS");
  CHECK(out.results[2].obs.verdict == Verdict::pass);
  // The two host-only cases share a worker of a host lane; the violation got a worker of
  // its own in the GPU lane (isolated cases always run there, one at a time).
  CHECK(out.workers_started == 2);
  CHECK(out.results[0].obs.measurements.at(0).second == out.results[2].obs.measurements.at(0).second);
  CHECK(out.timing.isolated_cases == 1);
}

TEST_CASE("undefined behaviour is recorded whatever happens", "[host][isolation]") {
  SuperviseOptions opt;
  opt.slack_s = 1;
  SuperviseOutcome out = supervise_named(
      kSpecs,
      {"selftest.undefined.ok", "selftest.undefined.fault", "selftest.undefined.abort", "selftest.undefined.hang",
       "selftest.undefined.throw", "selftest.undefined_pair.control.ok", "selftest.undefined_pair.violation.ok"},
      opt);
  auto outcome = [&](std::size_t i) { return out.results[i].obs.fact_value("outcome"); };
  for (std::size_t i : {0, 1, 2, 3, 6}) {
    INFO(out.results[i].name << ": " << out.results[i].obs.reason);
    CHECK(out.results[i].obs.verdict == Verdict::recorded);
  }
  CHECK(outcome(0) == "ok");
  CHECK(outcome(1) == "fault CUDA_ERROR_MISALIGNED_ADDRESS");
  CHECK(outcome(2).find("worker killed by signal") == 0);
  CHECK(outcome(3) == "timeout (worker killed)");
  CHECK(out.results[4].obs.verdict == Verdict::crash);  // the fixture's own bug stays a crash
  CHECK(out.results[5].obs.verdict == Verdict::pass);   // the control is judged
  CHECK(out.timing.isolated_cases == 6);
  // The records share a worker until one ends it: ok and fault, then abort, then hang, then
  // throw and the violation.
  CHECK(out.timing.isolated_workers == 4);
  CHECK_FALSE(is_failure(Verdict::recorded));
}

TEST_CASE("GPU cases are not-supported without a GPU, and planned rules never pass", "[host][isolation]") {
  SuperviseOutcome out = supervise_named(kSpecs, {"selftest.gpu_needed.ok", "selftest.later"});
  if (out.device.available) {
    WARN("a GPU is present: the not-supported half of this test does not apply");
  } else {
    CHECK(out.results[0].obs.verdict == Verdict::not_supported);
    CHECK_FALSE(out.results[0].obs.reason.empty());
  }
  CHECK(out.results[1].obs.verdict == Verdict::planned);
  CHECK(out.results[1].obs.reason == "planned: nothing can test it yet");
}

TEST_CASE("on a GPU, a real device fault does not disturb the next case", "[host][isolation][gpu]") {
  SuperviseOutcome out = supervise_named(CUCONFORM_SOURCE_SPECS_DIR, {"ldgsts.copy.data.ca4.threads32.src_elem0",
                                                                      "ldgsts.alignment.size_aligned.violation.cg16.src",
                                                                      "ldgsts.copy.data.cg16.threads256.src_elem7"});
  if (!out.device.available) {
    WARN("no GPU (" << out.device.error << "): the device half of the isolation test did not run");
    CHECK(out.results[1].obs.verdict == Verdict::not_supported);
    return;
  }
  CHECK(out.results[0].obs.verdict == Verdict::pass);
  // A misaligned cp.async is undefined (it may fault or mask low address bits): recorded, and on
  // the H100 and H200 it faults with CUDA_ERROR_MISALIGNED_ADDRESS.
  CHECK(out.results[1].obs.verdict == Verdict::recorded);
  CHECK(out.results[1].obs.observed.find("CUDA_ERROR_MISALIGNED_ADDRESS") != std::string::npos);
  CHECK(out.results[2].obs.verdict == Verdict::pass);  // untouched by the fault
  // The two shared cases share a worker; the violation had a process of its own (the fault
  // poisons only that process's context).
  CHECK(out.workers_started == 2);
  CHECK(out.timing.isolated_cases == 1);
}

TEST_CASE("isolated cases run one at a time, whatever the lane count", "[host][isolation]") {
  const std::vector<std::string> names = {
      "selftest.undefined.ok",          "selftest.undefined.fault",          "selftest.undefined.abort",
      "selftest.undefined.hang",        "selftest.negative.violation.pid",   "selftest.undefined_pair.violation.ok",
      "selftest.undefined_pair.control.ok", "selftest.behave.pid"};
  SuperviseOptions one, four;
  one.slack_s = four.slack_s = 1;
  one.gpu_lanes = 1;
  four.gpu_lanes = 4;
  SuperviseOutcome a = supervise_named(kSpecs, names, one);
  SuperviseOutcome b = supervise_named(kSpecs, names, four);
  REQUIRE(a.results.size() == b.results.size());
  for (std::size_t i = 0; i < names.size(); ++i) {
    INFO(names[i]);
    CHECK(a.results[i].obs.verdict == b.results[i].obs.verdict);
    CHECK(a.results[i].obs.fact_value("outcome") == b.results[i].obs.fact_value("outcome"));
  }
  CHECK(a.timing.isolated_cases == 6);
  CHECK(b.timing.isolated_cases == 6);
  CHECK(a.workers_started == b.workers_started);  // 6 isolated + the host lane's worker
}

TEST_CASE("an isolated case's process started ahead runs nothing before the case before it has exited", "[host][isolation]") {
  std::vector<std::string> names;
  for (int n = 1; n <= 6; ++n) names.push_back("selftest.isolated_window.n" + std::to_string(n));
  names.push_back("selftest.undefined.fault");
  names.push_back("selftest.undefined.hang");
  names.push_back("selftest.undefined.ok");
  SuperviseOptions ahead, after;
  ahead.slack_s = after.slack_s = 1;
  after.prestart_isolated = false;
  ahead.records_share_workers = after.records_share_workers = false;  // a process a case: the gate is what is tested
  SuperviseOutcome a = supervise_named(kSpecs, names, ahead);
  SuperviseOutcome b = supervise_named(kSpecs, names, after);
  REQUIRE(a.results.size() == names.size());
  for (std::size_t i = 0; i < names.size(); ++i) {
    INFO(names[i]);
    CHECK(a.finished[i]);
    CHECK(a.results[i].obs.verdict == b.results[i].obs.verdict);
    CHECK(a.results[i].obs.fact_value("outcome") == b.results[i].obs.fact_value("outcome"));
  }
  // The windows, in the order run, do not overlap (each case sleeps 40 ms in its window).
  for (std::size_t i = 0; i + 1 < 6; ++i) {
    const auto& m0 = a.results[i].obs.measurements;
    const auto& m1 = a.results[i + 1].obs.measurements;
    REQUIRE(m0.size() >= 2);
    REQUIRE(m1.size() >= 2);
    INFO("case " << i + 1 << " ended at " << m0.at(1).second << " us, case " << i + 2 << " began at " << m1.at(0).second);
    CHECK(m1.at(0).second >= m0.at(1).second);
  }
  CHECK(a.timing.isolated_cases == 9);
  CHECK(a.workers_started == b.workers_started);  // one process a case either way, none left over
}

TEST_CASE("records share a worker until one faults, hangs or kills it, with the outcomes of one process a record",
          "[host][isolation]") {
  const std::vector<std::string> names = {
      "selftest.isolated_window.n1", "selftest.isolated_window.n2", "selftest.undefined.fault",
      "selftest.isolated_window.n3", "selftest.undefined.hang",     "selftest.isolated_window.n4",
      "selftest.undefined.abort",    "selftest.isolated_window.n5", "selftest.isolated_window.n6",
      "selftest.undefined.ok"};
  SuperviseOptions shared, own;
  shared.slack_s = own.slack_s = 1;
  own.records_share_workers = false;
  SuperviseOutcome a = supervise_named(kSpecs, names, shared);
  SuperviseOutcome b = supervise_named(kSpecs, names, own);
  REQUIRE(a.results.size() == names.size());
  for (std::size_t i = 0; i < names.size(); ++i) {
    INFO(names[i]);
    CHECK(a.finished[i]);
    CHECK(a.results[i].obs.verdict == Verdict::recorded);
    CHECK(a.results[i].obs.verdict == b.results[i].obs.verdict);
    CHECK(a.results[i].obs.fact_value("outcome") == b.results[i].obs.fact_value("outcome"));
  }
  // Four workers: n1 n2 fault | n3 hang | n4 abort | n5 n6 ok (the spare takes over after the
  // case that ended the worker before it); one process a record without sharing.
  CHECK(a.timing.isolated_workers == 4);
  CHECK(b.timing.isolated_workers == 10);
  CHECK(a.timing.isolated_cases == 10);
  auto pid = [&](std::size_t i) { return a.results[i].obs.measurements.at(2).second; };
  CHECK(pid(0) == pid(1));
  CHECK(pid(3) != pid(1));
  CHECK(pid(5) != pid(3));
  CHECK(pid(7) != pid(5));
  CHECK(pid(7) == pid(8));
  // One at a time: the windows, in the order run, do not overlap, across a worker's end too.
  const std::vector<std::size_t> windows = {0, 1, 3, 5, 7, 8};
  for (std::size_t k = 0; k + 1 < windows.size(); ++k) {
    const auto& m0 = a.results[windows[k]].obs.measurements;
    const auto& m1 = a.results[windows[k + 1]].obs.measurements;
    CHECK(m1.at(0).second >= m0.at(1).second);
  }
}

// The executor runs what the plan says: each step it records is a step of make_plan for the same
// cases and options (phase and case count), every case of the step got a result, and the steps
// hold every case once.
TEST_CASE("the executor runs the plan's steps and records each one's time", "[host][isolation][plan]") {
  const std::vector<std::string> names = {"selftest.behave.pid", "selftest.echo.value1", "selftest.negative.violation.pid",
                                          "selftest.undefined.ok", "selftest.undefined.fault"};  // host, then isolated
  Catalog cat = load_catalog(kSpecs);
  REQUIRE(cat.ok());
  std::vector<const Case*> cases;
  for (auto& n : names) cases.push_back(cat.find_case(n));
  SuperviseOptions opt;
  opt.slack_s = 1;
  opt.specs_dir = kSpecs;
  SuperviseOutcome out = supervise(cases, opt);
  const Plan plan = make_plan(cases, {}, plan_options_of(opt));
  REQUIRE_FALSE(out.timing.steps.empty());
  int total = 0;
  for (const StepTiming& s : out.timing.steps) {
    INFO("step " << s.phase);
    const PlanStep* p = nullptr;
    for (const PlanStep& ps : plan.steps)
      if (s.phase == to_string(ps.phase)) p = &ps;
    REQUIRE(p);
    CHECK(s.cases == static_cast<int>(p->cases.size()));
    CHECK(s.finished == s.cases);
    CHECK(s.workers == static_cast<int>(p->workers.size()));  // no case here ends its worker early
    CHECK(s.start_s >= 0);
    CHECK(s.wall_s >= 0);
    CHECK(s.stopped == StopKind::none);
    total += s.cases;
  }
  CHECK(total == static_cast<int>(names.size()));
  CHECK(out.stop == StopKind::none);
}

TEST_CASE("a stop is typed: a signal or the GPU taken out, and the steps it cut short say so", "[host][isolation]") {
  for (const int flag : {15, kStoppedUnhealthy}) {
    INFO("stop flag " << flag);
    std::atomic<int> stop{flag};
    SuperviseOptions opt;
    opt.stop = &stop;
    SuperviseOutcome out = supervise_named(kSpecs, {"selftest.behave.pid", "selftest.undefined.ok"}, opt);
    const StopKind want = flag > 0 ? StopKind::signal : StopKind::gpu_down;
    CHECK(out.stop == want);
    CHECK(out.stopped_by == (flag > 0 ? flag : 0));
    REQUIRE_FALSE(out.timing.steps.empty());
    for (const StepTiming& s : out.timing.steps) {
      CHECK(s.finished == 0);
      CHECK(s.stopped == want);
    }
  }
}

TEST_CASE("the node run's re-run step: a failure that passes again is a flake, one that fails again stays a failure",
          "[host][isolation][rerun]") {
  Catalog cat = load_catalog(kSpecs);
  REQUIRE(cat.ok());
  std::vector<const Case*> cases;
  for (const char* n : {"selftest.behave.ok", "selftest.echo.value2", "selftest.flaky.fail_once"}) {
    INFO("case " << n);
    REQUIRE(cat.find_case(n));
    cases.push_back(cat.find_case(n));
  }
  auto run = [&](int reruns, std::map<std::string, CaseResult>* by_name) {
    const std::string mark = testing::temp_dir("rerun") + "/mark";  // fail_once fails until it exists
    setenv("CUCONFORM_SELFTEST_MARK", mark.c_str(), 1);
    NodeRunOptions opt;
    opt.base.specs_dir = kSpecs;
    opt.reruns = reruns;
    NodeOutcome out = run_node(cases, opt);
    unsetenv("CUCONFORM_SELFTEST_MARK");
    REQUIRE(out.host.results.size() == out.host_cases.size());
    for (std::size_t k = 0; k < out.host_cases.size(); ++k) (*by_name)[out.host_cases[k]->name] = out.host.results[k];
    return out.host.workers_started;
  };
  std::map<std::string, CaseResult> once, again;
  const int workers_once = run(0, &once), workers_again = run(2, &again);
  REQUIRE(once.size() == 3);
  CHECK(once["selftest.flaky.fail_once"].obs.verdict == Verdict::fail);
  CHECK(again["selftest.behave.ok"].obs.verdict == Verdict::pass);
  // Always failing: re-run twice, still a failure.
  CHECK(again["selftest.echo.value2"].obs.verdict == Verdict::fail);
  // Failing once: passes on its first re-run, reported as a flake with its first attempt.
  const CaseResult& flake = again["selftest.flaky.fail_once"];
  CHECK(flake.obs.verdict == Verdict::flake);
  CHECK(flake.obs.reason.find("failed, then passed on re-run 1 of 2; first attempt: fail") != std::string::npos);
  CHECK(workers_again == workers_once + 3);  // two for the failure, one for the flake
}
