#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <optional>

#include "cli/verbs.hpp"
#include "harness/driver/codegen.hpp"
#include "harness/runner/supervisor.hpp"
#include "harness/spec/catalog.hpp"
#include "harness/util/run_cache.hpp"
#include "harness/util/tools.hpp"
#include "reporters/console.hpp"
#include "reporters/junit_xml.hpp"
#include "reporters/known_summary.hpp"
#include "reporters/results_file.hpp"
#include "reporters/results_json.hpp"

namespace cuconform {
namespace {

std::atomic<int> g_stop{0};
extern "C" void on_stop_signal(int sig) { g_stop.store(sig); }

// A CI time limit or a cancelled job stops the run with a signal: the supervisor kills its
// workers and the results of the cases that finished are still written, marked as cut off.
void catch_stop_signals() {
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaction(sig, &sa, nullptr);
}

RunReport::Toolchain describe_toolchain(const Codegen& cg) {
  RunReport::Toolchain t;
  t.codegen = cg.name();
  t.disassembler = toolchain_tool("cuobjdump");
  if (cg.path == Codegen::Path::sass) {
    t.compiler = std::string("nvcc ") + CUCONFORM_TOOLKIT + " (SASS embedded at build time)";
    t.ptxas = find_tool("ptxas");
  } else if (cg.path == Codegen::Path::jit) {
    t.compiler = "driver JIT (the driver's version is the device's driver_version)";
  } else {
    const PtxasInfo& info = ptxas_info(cg.ptxas);
    t.compiler = "ptxas " + (info.version.empty() ? "?" : info.version);
    t.ptxas = cg.ptxas;
    t.max_ptx = info.max_ptx;
  }
  return t;
}

// The report of what has finished so far; every other case is listed as not run.
void fill_entries(RunReport& run, const std::vector<const Case*>& cases, const std::vector<CaseResult>& results,
                  const std::vector<bool>& finished) {
  run.entries.clear();
  run.not_run.clear();
  for (std::size_t i = 0; i < cases.size(); ++i) {
    if (finished[i]) run.entries.push_back({cases[i], results[i]});
    else run.not_run.push_back(cases[i]->name);
  }
}

int cmd_run(const Options& o) {
  const auto process_start = std::chrono::steady_clock::now();
  Catalog cat;
  if (!load_or_report(o, &cat)) return kExitBadInput;
  std::vector<const Case*> cases;
  std::string error;
  if (!select_cases(cat, o.sel, &cases, &error)) {
    std::cerr << "cuconform run: " << error << "\n";
    return kExitBadInput;
  }
  const std::string rerun_text = o.get("--rerun", "0");
  long reruns = 0;
  if (!whole_number(rerun_text, 0, 10, &reruns)) {
    std::cerr << "cuconform run: --rerun takes a whole number from 0 to 10, not '" << rerun_text << "'\n";
    return kExitBadInput;
  }
  const char* jobs_env = std::getenv("CUCONFORM_JOBS");
  const std::string jobs_text = o.get("--jobs", jobs_env ? jobs_env : "0");
  long jobs = 0;
  if (!whole_number(jobs_text, 0, 64, &jobs)) {
    std::cerr << "cuconform run: --jobs takes a whole number from 1 to 64 (0: automatic), not '" << jobs_text << "'"
              << (o.has("--jobs") ? "" : " (from $CUCONFORM_JOBS)") << "\n";
    return kExitBadInput;
  }
  Codegen codegen;
  if (!Codegen::parse(o.get("--codegen", "sass"), &codegen, &error)) {
    std::cerr << "cuconform run: " << error << "\n";
    return kExitBadInput;
  }
  setenv(kCodegenEnv, codegen.spec().c_str(), 1);  // the workers compile on the same path
  if (codegen.path == Codegen::Path::ptxas && !ptxas_info(codegen.ptxas).error.empty()) {
    std::cerr << "cuconform run: --codegen " << codegen.spec() << ": " << ptxas_info(codegen.ptxas).error << "\n";
    return kExitBadInput;
  }
  std::optional<KnownList> known;
  try {
    known = load_known_list(o, cat.dir, nullptr);  // the summary names the file
  } catch (const std::exception& e) {
    std::cerr << "cuconform run: known list: " << e.what() << "\n";
    return kExitBadInput;
  }
  std::string out_dir = o.get("--out", "results");
  std::string json_path = o.get("--json"), junit_path = o.get("--junit");
  if (json_path.empty() && junit_path.empty()) {
    json_path = out_dir + "/results.json";
    junit_path = out_dir + "/junit.xml";
  }
  const std::string cache = start_run_cache();
  struct RemoveCache {
    std::string dir;
    ~RemoveCache() { remove_run_cache(dir); }
  } remove_cache{cache};

  RunReport run;
  run.started_utc = utc_now_iso8601();
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  run.host = host;
  run.suite_version = CUCONFORM_VERSION;
  run.suite_commit = CUCONFORM_COMMIT;
  run.toolkit = CUCONFORM_TOOLKIT;
  run.archs = CUCONFORM_SASS_ARCHS;
  run.specs_dir = cat.dir;
  run.selection = o.sel.describe();
  if (codegen.path != Codegen::Path::sass) run.selection.push_back("--codegen " + codegen.spec());
  run.toolchain = describe_toolchain(codegen);
  const bool verbose = o.has("--verbose");

  // While the run goes on, a snapshot of the results is rewritten every few seconds: a job
  // killed outright (SIGKILL) still leaves the cases that finished, marked as cut off.
  std::mutex snap_mu;
  std::vector<CaseResult> so_far(cases.size());
  std::vector<bool> done(cases.size(), false);
  std::map<std::string, std::size_t> position;
  for (std::size_t i = 0; i < cases.size(); ++i) position[cases[i]->name] = i;
  auto last_snapshot = std::chrono::steady_clock::now();
  auto snapshot = [&]() {
    RunReport snap = run;
    snap.cut_off = "running";
    snap.finished_utc = utc_now_iso8601();
    snap.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - process_start).count();
    fill_entries(snap, cases, so_far, done);
    if (!json_path.empty()) write_file_atomically(json_path, results_json(snap));
  };

  SuperviseOptions so;
  so.specs_dir = cat.dir;
  so.stop = &g_stop;
  so.gpu_lanes = static_cast<int>(jobs);
  // CUCONFORM_PRESTART=0: start each isolated case's process only once the one before has exited
  // (to measure what starting it ahead saves, or where a driver dislikes an idle second context).
  if (const char* p = std::getenv("CUCONFORM_PRESTART")) so.prestart_isolated = std::string(p) != "0";
  // CUCONFORM_BATCH_RECORDS=0: each undefined-behaviour record in a process of its own (to check
  // that a record does not depend on the records before it in a shared worker).
  if (const char* p = std::getenv("CUCONFORM_BATCH_RECORDS")) so.records_share_workers = std::string(p) != "0";
  so.isolated_alone = !o.has("--isolated-beside");
  if (const char* p = std::getenv("CUCONFORM_ISOLATED_ALONE")) so.isolated_alone = so.isolated_alone && std::string(p) != "0";
  so.on_result = [&](const Case& c, const CaseResult& r) {
    print_case_line(std::cout, c, r, verbose);
    std::cout.flush();
    std::lock_guard<std::mutex> lock(snap_mu);
    auto it = position.find(c.name);
    if (it == position.end()) return;
    so_far[it->second] = r;
    done[it->second] = true;
    if (std::chrono::steady_clock::now() - last_snapshot > std::chrono::seconds(5)) {
      last_snapshot = std::chrono::steady_clock::now();
      try {
        snapshot();
      } catch (const std::exception&) {
        // a snapshot is a courtesy; the final write reports errors
      }
    }
  };
  catch_stop_signals();
  SuperviseOutcome out = supervise(cases, so);
  run.device = out.device;
  run.workers_started = out.workers_started;
  run.timing = out.timing;
  // Re-run policy: a failing case runs again (each time in a fresh worker) up to --rerun N
  // times; one that then passes is a flake, reported as such, never as a pass.
  for (std::size_t i = 0; i < cases.size() && reruns > 0 && !g_stop.load(); ++i) {
    CaseResult& first = out.results[i];
    if (!out.finished[i] || !is_failure(first.obs.verdict)) continue;
    for (int attempt = 1; attempt <= reruns; ++attempt) {
      SuperviseOutcome again = supervise({cases[i]}, so);
      ++run.workers_started;
      if (!again.finished.front()) break;
      if (again.results.front().obs.verdict == Verdict::pass) {
        CaseResult flake = again.results.front();
        flake.obs.verdict = Verdict::flake;
        flake.obs.reason = "failed, then passed on re-run " + std::to_string(attempt) + " of " + std::to_string(reruns) +
                           "; first attempt: " + std::string(to_string(first.obs.verdict)) + ": " + first.obs.reason;
        flake.obs.fact("first_attempt_observed", first.obs.observed);
        first = flake;
        break;
      }
    }
  }
  {
    std::lock_guard<std::mutex> lock(snap_mu);  // no snapshot may land after the final write
    fill_entries(run, cases, out.results, out.finished);
    if (const int sig = g_stop.load()) run.cut_off = std::string("SIG") + sigabbrev_np(sig);
    run.finished_utc = utc_now_iso8601();
    const auto report_start = std::chrono::steady_clock::now();
    try {
      run.wall_s = std::chrono::duration<double>(report_start - process_start).count();
      if (!json_path.empty()) write_file_atomically(json_path, results_json(run));
      if (!junit_path.empty()) write_file_atomically(junit_path, junit_xml(run));
      run.report_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - report_start).count();
      // The recorded wall time runs from process start to the reports written.
      run.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - process_start).count();
      if (!json_path.empty()) write_file_atomically(json_path, results_json(run));
    } catch (const std::exception& e) {
      std::cerr << "cuconform run: " << e.what() << "\n";
      return kExitBadInput;
    }
  }
  print_summary(std::cout, run);
  if (known && !json_path.empty()) {
    try {
      std::cout << known_failures_summary(load_results(json_path), *known);
    } catch (const std::exception& e) {
      std::cerr << "cuconform run: the known list was not applied: " << e.what() << "\n";
    }
  }
  if (const std::string left = smoke_left_out(cat, o.sel); !left.empty()) std::cout << left << "\n";
  if (o.has("--timing")) print_timing(std::cout, run);
  if (!json_path.empty()) std::cout << "results: " << json_path << "\n";
  if (!junit_path.empty()) std::cout << "junit:   " << junit_path << "\n";
  if (const int sig = g_stop.load()) return 128 + sig;
  if (run.no_gpu_ran()) {
    std::cout << "NO GPU: no case could run on a GPU (" << run.device.error
              << "). This run proves nothing about a device; exit code 3.\n";
    return kExitNoGpu;
  }
  return run.failures() ? kExitFailed : kExitOk;
}

}  // namespace

const VerbRegistration kRunVerb("run", "run the selected cases on the local GPU; reports go to results/", cmd_run, [](Verb& v) {
  v.filters()
      .about("Exit 0: nothing failed, 1: something failed (known findings too: compare gates a night against its "
             "baseline), 3: no case could run on a GPU, 128+N: stopped by signal N (the results of the finished cases "
             "are still written, marked cut off).")
      .value("--out", "DIR", "where results.json and junit.xml go (default results/)", ValueHint::dir)
      .value("--json", "FILE", "the results file (instead of DIR/results.json)", ValueHint::file)
      .value("--junit", "FILE", "the JUnit file (instead of DIR/junit.xml)", ValueHint::file)
      .value("--rerun", "N", "re-run each failure up to N times (0-10) in a fresh worker; a later pass is a flake, never a pass")
      .value("--codegen", "sass|jit|ptxas=FILE",
             "the code path under test: the SASS nvcc embedded (default), the driver's JIT of the embedded PTX, or that "
             "PTX assembled by another ptxas", ValueHint::choices, {"sass", "jit", "ptxas="})
      .value("--jobs", "N",
             "GPU lanes side by side for shared cases (default: from the GPU's SMs and memory and the CPU cores, at most "
             "8; $CUCONFORM_JOBS); timed cases get the GPU to themselves, isolated cases run last, one at a time")
      .value("--known", "FILE",
             "the recorded findings the summary counts failures against (default: $CUCONFORM_KNOWN, else "
             "ci/baselines/known.yaml beside the specs; '' for none); the exit code does not change", ValueHint::file)
      .flag("--timing", "where the run's time went, and the 20 slowest rules")
      .flag("--verbose", "every case's expected and observed values")
      .flag("--isolated-beside",
            "run the isolated cases beside the parallel lanes: faster, and unsafe (twice a fault beside running work "
            "left an H100 needing a reset)");
});

}  // namespace cuconform
