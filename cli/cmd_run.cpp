#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <optional>
#include <random>

#include "cli/verbs.hpp"
#include "harness/driver/codegen.hpp"
#include "harness/driver/gpu_list.hpp"
#include "harness/runner/gpu_identity.hpp"
#include "harness/runner/node_run.hpp"
#include "harness/runner/plan.hpp"
#include "harness/runner/preflight.hpp"
#include "harness/runner/schedule.hpp"
#include "harness/runner/supervisor.hpp"
#include "harness/spec/catalog.hpp"
#include "harness/util/output_file.hpp"
#include "harness/util/run_cache.hpp"
#include "harness/util/tools.hpp"
#include "reporters/console.hpp"
#include "reporters/junit_xml.hpp"
#include "reporters/known_summary.hpp"
#include "reporters/metrics_text.hpp"
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
    if (!t.ptxas.empty()) t.ptxas_version = ptxas_info(t.ptxas).version;  // a known finding of a ptxas names its version
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

// The per-GPU file name: FILE with ".gpu<N>" before ".json" ("results.gpu1.json").
std::string per_gpu_path(const std::string& path, int index) {
  if (path.empty()) return path;
  std::string stem = path, ext;
  for (const char* e : {".json.gz", ".json", ".xml"})
    if (stem.size() > std::strlen(e) && stem.compare(stem.size() - std::strlen(e), std::strlen(e), e) == 0) {
      ext = e;
      stem.resize(stem.size() - ext.size());
      break;
    }
  return stem + ".gpu" + std::to_string(index) + ext;
}

// `--out DIR` (and the folders of --json/--junit) made and written to before the first case, so
// an unwritable folder costs nothing but a message (exit 2).
bool check_writable(const std::vector<std::string>& files, std::string* error) {
  namespace fs = std::filesystem;
  for (const std::string& f : files) {
    if (f.empty() || !output_replaces_file(f)) continue;  // stdout, a FIFO, a device: written into at the end
    const fs::path dir = fs::path(f).has_parent_path() ? fs::path(f).parent_path() : fs::path(".");
    std::error_code ec;
    fs::create_directories(dir, ec);
    const fs::path probe = dir / (".cuconform-write-test." + std::to_string(getpid()));
    std::FILE* fp = std::fopen(probe.c_str(), "w");
    if (!fp) {
      *error = dir.string() + ": cannot write the results there (" + std::strerror(errno) + ")";
      return false;
    }
    std::fclose(fp);
    fs::remove(probe, ec);
  }
  return true;
}

// What a GPU's run is doing, for the snapshot written every few seconds.
struct GpuProgress {
  std::vector<CaseResult> so_far;
  std::vector<bool> done;
};

// The GPUs of the run: CUCONFORM_FAKE_GPUS=N (a test hook: N stand-in GPUs whose workers find no
// device, for the fleet scripts' tests on machines without one), else the driver's.
std::vector<NodeGpu> gpus_here(std::string* why_none) {
  if (const char* fake = std::getenv("CUCONFORM_FAKE_GPUS")) {
    std::vector<NodeGpu> out;
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    const unsigned h = static_cast<unsigned>(std::hash<std::string>{}(host)) & 0xffffffu;
    for (int i = 0; i < std::atoi(fake) && i < 64; ++i) {
      char uuid[64];
      std::snprintf(uuid, sizeof uuid, "GPU-%06x%02x-0000-4000-8000-00000000%04x", h, i, i);
      out.push_back({i, uuid, "stand-in GPU (CUCONFORM_FAKE_GPUS)", "0000:00:00." + std::to_string(i), "", 0, 0});
    }
    return out;
  }
  return list_gpus(why_none);
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
  // --shuffle SEED | nightly: the order of the cases drawn from a seed (nightly: a new seed each
  // run, recorded in the results so that the run can be repeated with --shuffle SEED).
  std::string shuffle_seed;
  if (o.has("--shuffle")) {
    const std::string v = o.get("--shuffle");
    long long seed = 0;
    if (v == "nightly") {
      seed = static_cast<long long>(std::random_device{}() & 0x7fffffffu);
    } else {
      long parsed = 0;
      if (!whole_number(v, 0, 2147483647L, &parsed)) {
        std::cerr << "cuconform run: --shuffle takes a seed (a whole number from 0 to 2147483647) or 'nightly', not '" << v << "'\n";
        return kExitBadInput;
      }
      seed = parsed;
    }
    shuffle_seed = std::to_string(seed);
  }
  Codegen codegen;
  if (!Codegen::parse(o.get("--codegen", "sass"), &codegen, &error)) {
    std::cerr << "cuconform run: " << error << "\n";
    return kExitBadInput;
  }
  setenv(kCodegenEnv, codegen.spec().c_str(), 1);  // the workers compile on the same path
  // The code path decides where tool cases run (the driver's JIT makes them GPU cases).
  for (Case& c : cat.cases) c.placement = place_case(c, codegen.path == Codegen::Path::jit);
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

  // Which GPUs: --devices (or $CUCONFORM_DEVICES) names them; without it, device 0 (or
  // CUCONFORM_DEVICE) as before, and the results are one file.
  const char* devices_env = std::getenv("CUCONFORM_DEVICES");
  const bool node_mode = o.has("--devices") || (devices_env && *devices_env);
  const std::string devices_spec = o.has("--devices") ? o.get("--devices") : (devices_env ? devices_env : "");
  std::string why_none;
  const std::vector<NodeGpu> all_gpus = gpus_here(&why_none);
  std::vector<NodeGpu> gpus;
  if (node_mode && !all_gpus.empty()) {
    if (!select_gpus(devices_spec, all_gpus, &gpus, &error)) {
      std::cerr << "cuconform run: " << error << (o.has("--devices") ? "" : " (from $CUCONFORM_DEVICES)") << "\n";
      return kExitBadInput;
    }
  } else if (!node_mode) {
    const char* dev = std::getenv("CUCONFORM_DEVICE");
    const int want = dev ? std::atoi(dev) : 0;
    for (const NodeGpu& g : all_gpus)
      if (g.ordinal == want) gpus.push_back(g);
  }
  const int n = std::max<int>(1, static_cast<int>(gpus.size()));

  // Every scheduling switch is a plan option; `--plan` prints the plan and runs nothing.
  PlanOptions po;
  po.gpu_lanes = static_cast<int>(jobs);
  if (jobs > 0) po.sources.emplace_back("jobs", o.has("--jobs") ? "--jobs" : "$CUCONFORM_JOBS");
  po.reruns = static_cast<int>(reruns);
  if (reruns > 0) po.sources.emplace_back("rerun", "--rerun");
  po.shuffle_seed = shuffle_seed;
  if (!shuffle_seed.empty()) po.sources.emplace_back("shuffle", "--shuffle");
  po.codegen = codegen.spec();
  if (o.has("--codegen")) po.sources.emplace_back("codegen", "--codegen");
  po.isolated_alone = !o.has("--isolated-beside");
  if (o.has("--isolated-beside")) po.sources.emplace_back("isolated_beside", "--isolated-beside");
  if (!plan_options_from_env(&po, &error)) {
    std::cerr << "cuconform run: " << error << "\n";
    return kExitBadInput;
  }
  if (std::getenv("CUCONFORM_NODE_PHASES"))
    std::cerr << "cuconform run: $CUCONFORM_NODE_PHASES is no longer read: a node's GPUs always keep their phases in step\n";
  if (o.has("--plan")) {
    const Plan plan = make_plan(cases, gpus, po);
    // --json FILE: the plan as JSON there ('-': standard output) instead of the table.
    const std::string file = o.get("--json");
    if (file.empty()) {
      std::cout << plan_text(plan, o.has("--verbose"));
    } else if (file == "-") {
      std::cout << json_text(plan_json(plan), true) << "\n";
    } else {
      try {
        write_file_atomically(file, json_text(plan_json(plan), true) + "\n");
      } catch (const std::exception& e) {
        std::cerr << "cuconform run: " << e.what() << "\n";
        return kExitBadInput;
      }
      std::cout << "plan: " << file << "\n";
    }
    return kExitOk;
  }

  std::string out_dir = o.get("--out", "results");
  std::string json_path = o.get("--json"), junit_path = o.get("--junit");
  // Node mode: one results file per GPU (BASE.gpu<N>.json), the node's fleet file at --json FILE
  // (BASE = FILE), by default DIR/node.json beside DIR/results.gpu<N>.json.
  std::string gpu_json_base = json_path.empty() ? out_dir + "/results.json" : json_path;
  if (json_path.empty() && junit_path.empty()) {
    json_path = out_dir + (node_mode ? "/node.json" : "/results.json");
    junit_path = out_dir + "/junit.xml";
  }
  std::vector<std::string> json_of(static_cast<std::size_t>(n)), junit_of(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    const int index = gpus.empty() ? 0 : gpus[static_cast<std::size_t>(i)].ordinal;
    json_of[static_cast<std::size_t>(i)] = node_mode ? per_gpu_path(gpu_json_base, index) : json_path;
    junit_of[static_cast<std::size_t>(i)] = node_mode ? per_gpu_path(junit_path, index) : junit_path;
  }
  if (!check_writable({json_path, junit_path}, &error)) {
    std::cerr << "cuconform run: " << error << "\n";
    return kExitBadInput;
  }
  const std::string cache = start_run_cache();
  struct RemoveCache {
    std::string dir;
    ~RemoveCache() { remove_run_cache(dir); }
  } remove_cache{cache};

  char host[256] = {};
  gethostname(host, sizeof host - 1);
  RunReport common;
  common.started_utc = utc_now_iso8601();
  common.host = host;
  common.suite_version = CUCONFORM_VERSION;
  common.suite_commit = CUCONFORM_COMMIT;
  common.toolkit = CUCONFORM_TOOLKIT;
  common.archs = CUCONFORM_SASS_ARCHS;
  common.specs_dir = cat.dir;
  common.selection = o.sel.describe();
  if (codegen.path != Codegen::Path::sass) common.selection.push_back("--codegen " + codegen.spec());
  if (node_mode) common.selection.push_back("--devices " + devices_spec);  // a node's GPU: a history series of its own
  common.toolchain = describe_toolchain(codegen);
  common.shuffle_seed = shuffle_seed;
  if (const Json job = job_from_environment(); !job.is_null()) common.job_json = json_text(job, false);
  std::vector<Json> identity;
  for (const NodeGpu& g : gpus) identity.push_back(gpu_identity(g, host));
  const bool verbose = o.has("--verbose");
  if (node_mode) {
    std::cout << "node " << host << ": " << gpus.size() << " GPU(s)";
    for (const NodeGpu& g : gpus) std::cout << "\n  gpu" << g.ordinal << " " << g.name << " " << g.uuid << " " << g.pci_bus_id;
    std::cout << (gpus.empty() ? " (" + why_none + ")" : "") << "\n";
  }

  // While the run goes on, a snapshot of the results is rewritten every few seconds: a job
  // killed outright (SIGKILL) still leaves the cases that finished, marked as cut off.
  std::mutex snap_mu;
  std::vector<GpuProgress> progress(static_cast<std::size_t>(n));
  for (auto& p : progress) {
    p.so_far.resize(cases.size());
    p.done.assign(cases.size(), false);
  }
  std::map<std::string, std::size_t> position;
  for (std::size_t i = 0; i < cases.size(); ++i) position[cases[i]->name] = i;
  auto last_snapshot = std::chrono::steady_clock::now();
  auto snapshot = [&]() {
    for (int i = 0; i < n; ++i) {
      const auto gi = static_cast<std::size_t>(i);
      // Only a regular file is rewritten as the run goes; stdout or a FIFO gets the final report once.
      if (json_of[gi].empty() || !output_replaces_file(json_of[gi])) continue;
      RunReport snap = common;
      snap.cut_off = "running";
      snap.finished_utc = utc_now_iso8601();
      snap.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - process_start).count();
      fill_entries(snap, cases, progress[gi].so_far, progress[gi].done);
      write_file_atomically(json_of[gi], results_json(snap));
    }
  };

  NodeRunOptions no;
  no.gpus = gpus;
  no.reruns = po.reruns;
  no.unhealthy_before = preflight_gpus(gpus, &identity, std::cout);  // NVML's view of each GPU, before any case
  SuperviseOptions& so = no.base;
  so.specs_dir = cat.dir;
  so.stop = &g_stop;
  // Before the first line it prints: a signal after it is a stop the results record.
  catch_stop_signals();
  apply_plan_options(po, &so);
  so.gpus_on_host = n;
  // Without a GPU the reason is said once, here, and the cases it makes not-supported are counted,
  // not listed one by one (--verbose lists them): a whole run printed ~3,000 identical lines.
  const bool quiet_no_gpu = all_gpus.empty() && !verbose;
  std::atomic<int> no_gpu_cases{0};
  if (all_gpus.empty())
    std::cout << "no GPU: " << why_none << "; every case that needs one is not-supported"
              << (verbose ? "" : " (counted at the end, not listed: --verbose lists them)") << "\n";
  no.on_result = [&](int gpu, const Case& c, const CaseResult& r) {
    const bool for_want_of_gpu = r.obs.verdict == Verdict::not_supported &&
                                 (r.obs.reason.rfind("no CUDA driver", 0) == 0 || r.obs.reason.rfind("no GPU", 0) == 0);
    if (quiet_no_gpu && for_want_of_gpu) {
      ++no_gpu_cases;
    } else {
      if (n > 1) std::cout << (gpu < 0 ? "[node] " : "[gpu" + std::to_string(gpus[static_cast<std::size_t>(gpu)].ordinal) + "] ");
      print_case_line(std::cout, c, r, verbose);
    }
    std::cout.flush();
    std::lock_guard<std::mutex> lock(snap_mu);
    auto it = position.find(c.name);
    if (it == position.end()) return;
    for (int i = 0; i < n; ++i)
      if (gpu < 0 || gpu == i) {
        progress[static_cast<std::size_t>(i)].so_far[it->second] = r;
        progress[static_cast<std::size_t>(i)].done[it->second] = true;
      }
    if (std::chrono::steady_clock::now() - last_snapshot > std::chrono::seconds(5)) {
      last_snapshot = std::chrono::steady_clock::now();
      try {
        snapshot();
      } catch (const std::exception&) {
        // a snapshot is a courtesy; the final write reports errors
      }
    }
  };
  NodeOutcome node = run_node(cases, no);
  if (!node.health_note.empty()) std::cout << node.health_note << "\n";
  if (no_gpu_cases.load()) std::cout << "not-supported for want of a GPU: " << no_gpu_cases.load() << " case(s), not listed (no GPU: " << why_none << ")\n";

  // Each GPU's report: its GPU cases, and the host-only cases the node ran once.
  std::map<std::string, std::size_t> host_at, gpu_at;
  for (std::size_t k = 0; k < node.host_cases.size(); ++k) host_at[node.host_cases[k]->name] = k;
  for (std::size_t k = 0; k < node.gpu_cases.size(); ++k) gpu_at[node.gpu_cases[k]->name] = k;
  std::vector<RunReport> runs(static_cast<std::size_t>(n), common);
  int exit_code = kExitOk;
  auto worse = [](int a, int b) {
    auto rank = [](int c) { return c == kExitBadInput ? 4 : c == kExitUnhealthy ? 3 : c == kExitFailed ? 2 : c == kExitNoGpu ? 1 : 0; };
    return rank(b) > rank(a) ? b : a;
  };
  for (int i = 0; i < n; ++i) {
    const auto gi = static_cast<std::size_t>(i);
    RunReport& run = runs[gi];
    SuperviseOutcome& g = node.gpu[gi];
    run.device = g.device;
    if (!gpus.empty()) run.device.json = with_identity(g.device.json, identity[gi]);
    run.health_json = gi < node.health_json.size() && !gpus.empty() ? node.health_json[gi] : "";
    run.workers_started = g.workers_started + (i == 0 ? node.host.workers_started : 0);
    run.timing = g.timing;
    const SuperviseTiming& ht = node.host.timing;
    run.timing.host_lanes_s = ht.host_lanes_s;
    run.timing.host_lane_count = ht.host_lane_count;
    run.timing.host_cases_s = ht.host_cases_s;
    run.timing.host_tool_s += ht.host_tool_s;
    run.timing.steps.insert(run.timing.steps.begin(), ht.steps.begin(), ht.steps.end());  // the node's host step
    std::vector<CaseResult> results(cases.size());
    std::vector<bool> finished(cases.size(), false);
    for (std::size_t k = 0; k < cases.size(); ++k) {
      const std::string& name = cases[k]->name;
      if (auto h = host_at.find(name); h != host_at.end()) {
        results[k] = node.host.results[h->second];
        finished[k] = node.host.finished[h->second];
        if (n > 1 && finished[k]) results[k].obs.fact("ran_for_node", "true");
      } else if (auto c = gpu_at.find(name); c != gpu_at.end() && c->second < g.results.size()) {
        results[k] = g.results[c->second];
        finished[k] = g.finished[c->second];
      }
    }
    std::lock_guard<std::mutex> lock(snap_mu);  // no snapshot may land after the final write
    fill_entries(run, cases, results, finished);
    if (const int sig = g_stop.load()) run.cut_off = std::string("SIG") + sigabbrev_np(sig);
  }
  std::lock_guard<std::mutex> lock(snap_mu);
  std::vector<Fleet> parts;
  try {
    for (int i = 0; i < n; ++i) {
      const auto gi = static_cast<std::size_t>(i);
      RunReport& run = runs[gi];
      run.finished_utc = utc_now_iso8601();
      const auto report_start = std::chrono::steady_clock::now();
      run.wall_s = std::chrono::duration<double>(report_start - process_start).count();
      if (!json_of[gi].empty()) write_file_atomically(json_of[gi], results_json(run));
      if (!junit_of[gi].empty()) write_file_atomically(junit_of[gi], junit_xml(run));
      if (!json_of[gi].empty() && output_replaces_file(json_of[gi]))  // the action, from what the file says
        run.action_json = json_text(action_json(decide_action(action_facts(load_results(json_of[gi]), 0, known ? &*known : nullptr))), false);
      run.report_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - report_start).count();
      // The recorded wall time runs from process start to the reports written.
      run.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - process_start).count();
      if (!json_of[gi].empty()) {
        write_file_atomically(json_of[gi], results_json(run));
        if (node_mode) parts.push_back(load_results(json_of[gi]));
      }
    }
    // The node's matrix, written last: its presence says every GPU's file is complete.
    if (node_mode && !json_path.empty()) write_file_atomically(json_path, fleet_json(merge_fleets(parts)));
    if (o.has("--metrics-dir")) {  // Prometheus text for node_exporter's textfile collector
      std::vector<std::string> files;
      for (auto& f : json_of)
        if (!f.empty() && output_replaces_file(f)) files.push_back(f);
      FleetView view = build_fleet_view(night_of_files(files, known ? &*known : nullptr));
      write_metrics(o.get("--metrics-dir"), view, fleet_actions(view));
      std::cout << "metrics: " << o.get("--metrics-dir") << "\n";
    }
  } catch (const std::exception& e) {
    std::cerr << "cuconform run: " << e.what() << "\n";
    return kExitBadInput;
  }
  for (int i = 0; i < n; ++i) {
    const auto gi = static_cast<std::size_t>(i);
    const RunReport& run = runs[gi];
    if (n > 1) std::cout << "\n== gpu" << gpus[gi].ordinal << " " << gpus[gi].uuid << " (" << gpus[gi].pci_bus_id << ")";
    print_summary(std::cout, run);
    if (known && !json_of[gi].empty()) {
      try {
        std::cout << known_failures_summary(load_results(json_of[gi]), *known);
      } catch (const std::exception& e) {
        std::cerr << "cuconform run: the known list was not applied: " << e.what() << "\n";
      }
    }
    if (!node.unhealthy[gi].empty())
      std::cout << "GPU UNHEALTHY: " << node.unhealthy[gi] << "; its remaining cases were not run (exit code " << kExitUnhealthy << ")\n";
    if (o.has("--timing")) print_timing(std::cout, run);
    if (!json_of[gi].empty()) std::cout << "results: " << json_of[gi] << "\n";
    if (!junit_of[gi].empty()) std::cout << "junit:   " << junit_of[gi] << "\n";
    int code = kExitOk;
    if (!node.unhealthy[gi].empty()) code = kExitUnhealthy;
    else if (run.no_gpu_ran()) {
      std::cout << "NO GPU: no case could run on a GPU (" << run.device.error
                << "). This run proves nothing about a device; exit code 3.\n";
      code = kExitNoGpu;
    } else if (run.failures()) {
      code = kExitFailed;
    }
    exit_code = worse(exit_code, code);
  }
  if (const std::string left = smoke_left_out(cat, o.sel); !left.empty()) std::cout << left << "\n";
  if (node_mode && !json_path.empty()) std::cout << "node:    " << json_path << "\n";
  if (!shuffle_seed.empty()) std::cout << "shuffle seed: " << shuffle_seed << " (repeat with --shuffle " << shuffle_seed << ")\n";
  if (const int sig = g_stop.load()) return 128 + sig;
  return exit_code;
}

}  // namespace

const VerbRegistration kRunVerb("run", "run the selected cases on the local GPU; reports go to results/", cmd_run, [](Verb& v) {
  v.filters()
      .about("Exit 0: nothing failed, 1: something failed (known findings too: compare gates a night against its "
             "baseline), 3: no case could run on a GPU, 4: a GPU became unhealthy during the run (its remaining cases "
             "not-run), 128+N: stopped by signal N (the results of the finished cases are still written, marked cut "
             "off). With several GPUs the worst: 2, 4, 1, 3, 0.")
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
      .value("--devices", "all|0,2|GPU-UUID,...",
             "every chosen GPU of the node at once ($CUCONFORM_DEVICES): a results file per GPU (DIR/results.gpuN.json) "
             "and the node's matrix (DIR/node.json, written last); host-only cases run once for the node")
      .value("--shuffle", "SEED|nightly",
             "the cases in an order drawn from SEED (nightly: a new seed each run, recorded in the results); compare "
             "against an ordered run names order-dependent cases, bisect the case before them")
      .flag("--plan",
            "print the plan (steps: cases, worker kind, GPU lock, phase, environment, lanes, prestart; every scheduling "
            "option and where it came from) and run nothing: no worker starts, no GPU is opened; with --json FILE "
            "('-': standard output) the plan as JSON; --verbose lists each worker's cases")
      .value("--metrics-dir", "DIR",
             "also write Prometheus text files (cuconform_NODE_gpuN.prom, cuconform_NODE.prom) into DIR for node_exporter's "
             "textfile collector: counts by verdict, new and known failures, the action, health, start and duration",
             ValueHint::dir)
      .flag("--timing", "where the run's time went, and the 20 slowest rules")
      .flag("--verbose", "every case's expected and observed values")
      .flag("--isolated-beside",
            "run the isolated cases beside the parallel lanes: faster, and unsafe (twice a fault beside running work "
            "left an H100 needing a reset)");
});

}  // namespace cuconform
