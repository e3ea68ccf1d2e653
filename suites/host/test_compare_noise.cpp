// compare with the project's known list (ci/baselines/known.yaml): two runs of one configuration
// that differ only in what moves from run to run (race counts, litmus histograms, timings within
// their noise class, the two ways a hang is recorded) show no changed behaviour and no gating
// move; a changed category or a move beyond its class's tolerance shows.
#include <catch2/catch.hpp>

#include "reporters/known_list.hpp"
#include "suites/host/test_reporters_support.hpp"

using namespace cuconform;
using namespace cuconform::testing;

namespace {

struct Knobs {
  double stale = 30656, reads = 32768;  // a race count (recorded, undefined.record counts)
  std::string stale_category = "stale>0, reads>0";
  double weak = 23833;                   // a litmus histogram (recorded)
  std::string hang = "timeout (worker killed)";
  double l1 = 81, gbps = 2802, global_gops = 335.9, shared_gops = 2248, calls = 491;
};

std::string run_with(const std::string& dir, const std::string& file, const Knobs& k) {
  auto s = synthetic_run("NVIDIA H100 80GB HBM3");
  auto recorded = [&](const std::string& area, const std::string& rule, const std::string& suffix, const std::string& outcome,
                      const std::string& details, std::vector<std::pair<std::string, double>> m) {
    s->add(area, rule, suffix, Verdict::recorded, std::move(m));
    s->run.entries.back().r.obs.record(outcome, details);
  };
  recorded("cluster_dsmem", "cluster_dsmem.barrier.arrive_relaxed", "violation", k.stale_category,
           "stale=" + std::to_string(static_cast<long>(k.stale)) + ", reads=" + std::to_string(static_cast<long>(k.reads)),
           {{"stale", k.stale}, {"reads", k.reads}});
  recorded("scopes", "scopes.litmus.recorded.lb_no_deps", "violation.lb.relaxed.sm.gpu", "weak outcome r0=1_r1=1 observed",
           "weak outcome r0=1_r1=1 seen " + std::to_string(static_cast<long>(k.weak)) + " times in 1077248 runs",
           {{"runs", 1077248}, {"weak_count", k.weak}, {"outcome_r0=1_r1=1", k.weak}, {"weak_rate", k.weak / 1077248}});
  recorded("mbarrier", "mbarrier.try_wait.time_hint_bound", "violation.incomplete.token.hint1000.ptx",
           "never returned true; every call longer than the hint",
           "0 of " + std::to_string(static_cast<long>(k.calls)) + " calls returned true",
           {{"calls", k.calls}, {"mean_call_ns", 4010 + k.calls - 491}});
  recorded("cluster_dsmem", "cluster_dsmem.barrier.arrive_once", "violation", k.hang, k.hang, {});
  s->add("ldgsts", "ldgsts.l1.partial_line_reuse", "ca16.offset16", Verdict::pass, {{"reuse_cycles", k.l1}});
  s->add("async_group", "async_group.perf.batched_commit", "copies4.stages4", Verdict::pass, {{"batched_gbps", k.gbps}});
  s->add("scopes", "scopes.perf.narrow_scope_not_slower", "global.relaxed.cta_vs_gpu", Verdict::pass,
         {{"fast_gops", k.global_gops}, {"ratio", 1.2}});
  s->add("scopes", "scopes.perf.shared_not_slower", "shared_vs_global.cta.relaxed", Verdict::pass,
         {{"fast_gops", k.shared_gops}, {"ratio", 6.4}});
  write_text(dir + "/" + file, results_json(s->run));
  return dir + "/" + file;
}

std::string compare(const std::string& a, const std::string& b) {
  Exe e = cuconform_cli("compare '" + a + "' '" + b + "' --known '" CUCONFORM_KNOWN_FILE "'");
  INFO(e.out);
  CHECK((e.rc == 0 || e.rc == 1));
  return e.out + "\nexit " + std::to_string(e.rc);
}

}  // namespace

TEST_CASE("compare: runs differing only in counts within their noise class show no change, a category change shows",
          "[host][reporters]") {
  std::string dir = temp_dir("noise");
  const std::string a = run_with(dir, "a.json", Knobs{});
  Knobs noisy;  // what a second run of the same configuration does
  noisy.stale = 29001;
  noisy.weak = 30690;
  noisy.calls = 490;
  noisy.hang = "timeout";  // the worker's own bounded wait, not the supervisor, ended it this time
  noisy.l1 = 85;           // load-latency: 5% (same-GPU spread 5.2%, tolerance 50%)
  noisy.gbps = 2925;       // copy-throughput: 4.4%
  noisy.global_gops = 371.2;  // atomic-throughput-global: 10.5%
  noisy.shared_gops = 828;    // atomic-throughput-shared: informational
  const std::string b = run_with(dir, "b.json", noisy);
  std::string out = compare(a, b);
  INFO(out);
  CHECK(has(out, "0 regression(s)"));
  CHECK(has(out, "0 measurement(s) moved"));
  CHECK(has(out, "0 undefined behaviour(s) changed"));
  CHECK_FALSE(has(out, "UNDEFINED BEHAVIOUR CHANGED"));
  CHECK(has(out, "exit 0"));

  Knobs changed = noisy;  // the race never showed this time: a new category
  changed.stale = 0;
  changed.stale_category = "stale=0, reads>0";
  out = compare(a, run_with(dir, "c.json", changed));
  INFO(out);
  CHECK(has(out, "1 undefined behaviour(s) changed"));
  CHECK(has(out, "behaviour changed: cluster_dsmem.barrier.arrive_relaxed.violation"));
  CHECK(has(out, "exit 0"));  // never gating

  Knobs slower = noisy;  // an L1 hit that became a miss: beyond the load-latency class
  slower.l1 = 456;
  out = compare(a, run_with(dir, "d.json", slower));
  INFO(out);
  CHECK(has(out, "measurement moved: ldgsts.l1.partial_line_reuse.ca16.offset16  reuse_cycles 81 -> 456"));
  CHECK(has(out, "class load-latency"));
  CHECK(has(out, "exit 1"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("known list: every known failure names a finding class; an unknown class is an error with file:line",
          "[host][reporters]") {
  KnownList k = load_known(CUCONFORM_KNOWN_FILE);
  REQUIRE_FALSE(k.failures.empty());
  for (auto& e : k.failures) {
    INFO(e.what() << " " << e.where);
    CHECK(e.cls != FindingClass::none);
  }
  for (auto& t : k.tolerances) {
    INFO(t.glob);
    CHECK_FALSE(t.cls.empty());
    CHECK_FALSE(t.evidence.empty());
  }
  std::string dir = temp_dir("classes");
  write_text(dir + "/k.yaml", "known_failures:\n  - id: x\n    reason: r\n    class: wrong-data\n");
  CHECK_THROWS_WITH(load_known(dir + "/k.yaml"), Catch::Contains(dir + "/k.yaml:4: unknown class 'wrong-data'"));
  write_text(dir + "/k.yaml", "known_failures:\n  - id: x\n    reason: r\n");
  CHECK_THROWS_WITH(load_known(dir + "/k.yaml"), Catch::Contains(dir + "/k.yaml:2: 'x' needs a 'class'"));
  write_text(dir + "/k.yaml", "tolerances:\n  '*_cycles':\n    tolerance: 0.5\n    clas: latency\n");
  CHECK_THROWS_WITH(load_known(dir + "/k.yaml"), Catch::Contains(dir + "/k.yaml:4: unknown key 'clas'"));
  // Reports group known failures by class, runtime first.
  auto s = synthetic_run();
  write_text(dir + "/r.json", results_json(s->run));
  write_text(dir + "/k.yaml",
             "known_failures:\n  - regex: 'bypass_for_16'\n    reason: a perf finding\n    class: performance\n"
             "  - regex: 'oob_fill'\n    reason: wrong data\n    class: runtime\n");
  Exe rep = cuconform_cli("report '" + dir + "/r.json' --known '" + dir + "/k.yaml' --md '" + dir + "/r.md'");
  CHECK(rep.rc == 0);
  std::string md = read_text(dir + "/r.md");
  INFO(md);
  auto runtime = md.find("known, runtime"), perf = md.find("known, performance"), unknown = md.find("not in the known list");
  CHECK(unknown != std::string::npos);
  CHECK(runtime != std::string::npos);
  CHECK(perf != std::string::npos);
  CHECK(unknown < runtime);
  CHECK(runtime < perf);
  std::filesystem::remove_all(dir);
}
