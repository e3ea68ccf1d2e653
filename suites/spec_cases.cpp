#include "suites/spec_cases.hpp"

#define CATCH_CONFIG_EXTERNAL_INTERFACES  // TestEventListenerBase
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <iostream>
#include <memory>

#include "harness/driver/codegen.hpp"
#include "harness/runner/case_server.hpp"
#include "harness/runner/execute.hpp"
#include "harness/runner/gpu_lock.hpp"
#include "harness/runner/supervisor.hpp"
#include "harness/spec/catalog.hpp"
#include "harness/util/number_text.hpp"
#include "harness/util/tools.hpp"
#include "reporters/known_list.hpp"

namespace cuconform {
namespace {

SpecCaseTally g_tally;

// The spec file to load alone, when the process runs one case by name (CTest runs each test
// as `cuconform-tests NAME`): its area's file, named by the case's first component. Parsing
// one file instead of all of them saves about 0.1 s a test, which is most of a test's start.
std::string g_only_file;

Catalog& catalog() {
  static Catalog cat = g_only_file.empty() ? load_catalog(default_specs_dir())
                                           : load_spec_files({g_only_file}, default_specs_dir());
  return cat;
}

// The baseline of recorded findings (ci/baselines/known.yaml, or $CUCONFORM_KNOWN): a
// case listed there (a known failure or a known flake) that fails is reported as skipped with its reason (CTest has no
// expected-failure state, and it is not a pass); one that passes again fails, so the
// list is brought up to date.
const KnownList* known_list() {
  static std::unique_ptr<KnownList> list = [] {
    const char* env = std::getenv("CUCONFORM_KNOWN");
    std::string path = env ? env : CUCONFORM_KNOWN_FILE;
    try {
      return std::make_unique<KnownList>(load_known(path));
    } catch (const std::exception& e) {
      std::cerr << "cuconform: known failures not loaded: " << e.what() << "\n";
      return std::unique_ptr<KnownList>();
    }
  }();
  return list.get();
}

const KnownEntry* known_entry(const Case& c, const DeviceReport& device, const KnownEntry** flake) {
  *flake = nullptr;
  const KnownList* list = known_list();
  if (!list) return nullptr;
  CaseRow row;
  row.name = c.name;
  row.rule = c.rule->id;
  // The code path and the tool that made the machine code, as `run` records them, so an entry
  // scoped to a tool's version (a finding of one ptxas) applies as it does there; without a
  // device the run has no device fields, and entries scoped to a GPU or driver still do
  // (KnownEntry::applies_to).
  static const std::vector<std::pair<std::string, std::string>> toolchain = [] {
    const Codegen& cg = run_codegen();
    if (cg.path == Codegen::Path::jit) return decltype(toolchain){{"toolchain.codegen", "jit"}};
    if (cg.path == Codegen::Path::ptxas)
      return decltype(toolchain){{"toolchain.codegen", "ptxas"}, {"toolchain.compiler", "ptxas " + ptxas_info(cg.ptxas).version}};
    const std::string ptxas = find_tool("ptxas");
    return decltype(toolchain){{"toolchain.codegen", "sass"},
                               {"toolchain.compiler", "nvcc (SASS built in)"},
                               {"toolchain.ptxas_version", ptxas.empty() ? "" : ptxas_info(ptxas).version}};
  }();
  RunInfo run;
  run.run = toolchain;
  run.suite = {{"built_with_cuda", CUCONFORM_TOOLKIT}};
  if (!device.json.empty()) run.device = {{"name", device.name}, {"driver_version", device.driver}};
  if (const KnownEntry* f = list->failure(row, &run)) return f;
  *flake = list->flake(row, &run);  // a known flake that failed this time: shown, not a failure
  return *flake;
}

class SpecCaseInvoker : public Catch::ITestInvoker {
 public:
  explicit SpecCaseInvoker(const Case* c) : c_(c) {}
  void invoke() const override {
    ++g_tally.ran;
    const char* sock = std::getenv("CUCONFORM_CASE_SERVER");
    const char* dev = std::getenv("CUCONFORM_DEVICE");
    const int device_id = dev ? std::atoi(dev) : 0;
    // Shared with the other GPU tests, or the GPU to itself (suites/CMakeLists.txt). A case that
    // needs two GPUs holds both locks, the lower device first (two such tests never wait on each
    // other in a circle).
    const char* peer_env = std::getenv("CUCONFORM_PEER_DEVICE");
    const int peer_id = c_->rule->needs(Requirement::peer) && peer_env && *peer_env ? std::atoi(peer_env) : -1;
    const int first = peer_id >= 0 ? std::min(device_id, peer_id) : device_id;
    // A two-GPU case holds both exclusively: its threads line up iteration by iteration across the
    // GPUs, and time-slicing with other tests' contexts stalled them (ctest on two H200s, 2026-11-26:
    // 84 of 4000 iterations lined up).
    GpuLock lock(gpu_lock_path(sock ? sock : "", first), *c_, peer_id >= 0);
    std::unique_ptr<GpuLock> second;
    if (peer_id >= 0 && peer_id != device_id)
      second = std::make_unique<GpuLock>(gpu_lock_path(sock ? sock : "", std::max(device_id, peer_id)), *c_, true);
    if (!lock.error().empty()) UNSCOPED_INFO("GPU lock: " << lock.error());
    if (lock.waited_s() > 0.5) UNSCOPED_INFO("waited " << number_text(lock.waited_s()) << " s for the GPU (" << lock.mode() << ")");
    CaseResult r;
    DeviceReport device;
    if (!(sock && *sock && run_served(sock, device_id, &r, &device))) {
      SuperviseOptions so;
      so.specs_dir = catalog().dir;
      SuperviseOutcome out = supervise({c_}, so);
      r = out.results.front();
      device = out.device;
    }
    const Observation& o = r.obs;
    std::string summary = std::string(to_string(o.verdict)) + ": " + o.reason;
    for (auto& [k, v] : o.measurements) UNSCOPED_INFO(k << " = " << number_text(v));
    for (auto& [k, v] : o.facts) UNSCOPED_INFO(k << " = " << v);
    const KnownEntry* flake = nullptr;
    const KnownEntry* known = known_entry(*c_, device, &flake);
    if (known && is_failure(o.verdict)) {
      ++g_tally.skipped;
      WARN("SKIPPED (" << (flake ? "known flake" : "known failure") << ", a recorded finding: " << known->where << "): " << known->reason << "\n  "
                                                           << summary << "\n  expected: " << o.expected
                                                           << "\n  observed: " << o.observed);
      return;
    }
    if (known && !flake && o.verdict == Verdict::pass)
      FAIL("known failure " << known->what() << " (" << known->where << ") now passes: update ci/baselines/known.yaml");
    if (c_->rule->basis == Basis::toolchain && is_failure(o.verdict)) {
      // What a compiler emits today, which no document promises: a change to look at, never a
      // conformance failure (compare lists it as "toolchain observation changed").
      ++g_tally.skipped;
      WARN("SKIPPED (toolchain observation changed, not a conformance failure): " << summary << "\n  expected: " << o.expected
                                                                                  << "\n  observed: " << o.observed);
      return;
    }
    switch (o.verdict) {
      case Verdict::pass:
        SUCCEED(summary);
        break;
      case Verdict::not_supported:
      case Verdict::planned:
      case Verdict::inconclusive:  // a rate missed while the GPU slowed itself down: says nothing
      case Verdict::recorded:  // undefined behaviour: what happened is shown, never passed
        ++g_tally.skipped;
        // Catch2 2.13 has no SKIP: a warning and no assertion, and exit code 77 for CTest.
        WARN("SKIPPED (" << to_string(o.verdict) << "): " << o.reason
                         << (o.verdict == Verdict::recorded ? "\n  observed: " + o.observed : std::string()));
        break;
      default:
        FAIL(summary << "\n  expected: " << o.expected << "\n  observed: " << o.observed);
    }
  }

 private:
  // Through the case server CTest started (suites/CMakeLists.txt), when there is one and the case
  // is one it runs (serves: case_server.hpp). false: run it in a worker of this process.
  bool run_served(const std::string& sock, int device_id, CaseResult* r, DeviceReport* device) const {
    // The server's workers see one GPU; a case that needs two, or expects a fault, runs in a
    // worker of this test.
    if (c_->placement.gpus != 1 || !serves(*c_)) return false;
    ServedCase served;
    std::string why;
    if (!run_on_case_server(sock, *c_, device_id, &served, &why)) {
      UNSCOPED_INFO("run in a worker of this test's own: " << why);
      return false;
    }
    *r = served.result;
    *device = served.device;
    return true;
  }

  const Case* c_;
};

class SpecLoadFailure : public Catch::ITestInvoker {
 public:
  void invoke() const override {
    std::string all;
    for (auto& e : catalog().errors) all += e.str() + "\n";
    FAIL("specs did not load:\n" << all);
  }
};

// Counts non-spec test cases so a binary that also ran host tests never exits 77.
struct TallyListener : Catch::TestEventListenerBase {
  using TestEventListenerBase::TestEventListenerBase;
  void testCaseStarting(Catch::TestCaseInfo const& info) override {
    if (info.tags.empty() || std::find(info.tags.begin(), info.tags.end(), "host") != info.tags.end())
      ++g_tally.others;
  }
  void testRunEnded(Catch::TestRunStats const&) override {
    if (g_tally.ran)
      std::cout << "cuconform: " << g_tally.ran << " spec case(s) run, " << g_tally.skipped
                << " skipped (not-supported/planned), never counted as passed\n";
  }
};

}  // namespace

CATCH_REGISTER_LISTENER(TallyListener)

const SpecCaseTally& spec_case_tally() { return g_tally; }

void register_spec_cases(int argc, char** argv) {
  if (argc == 2) {
    const std::string name = argv[1];
    const bool plain = !name.empty() && name.find_first_not_of(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.") == std::string::npos;
    const std::string file = default_specs_dir() + "/" + name.substr(0, name.find('.')) + ".yaml";
    std::error_code ec;
    if (plain && name.find('.') != std::string::npos && std::filesystem::is_regular_file(file, ec)) g_only_file = file;
  }
  static std::deque<std::string> strings;  // Catch2 keeps StringRefs to these
  Catalog& cat = catalog();
  if (!cat.ok()) {
    strings.push_back("specs.load");
    strings.push_back("[specs]");
    Catch::AutoReg(new SpecLoadFailure(), CATCH_INTERNAL_LINEINFO, "", Catch::NameAndTags{strings[strings.size() - 2], strings.back()});
    return;
  }
  for (const Case& c : cat.cases) {
    std::string tags;
    for (auto& t : c.tags) tags += "[" + t + "]";
    // Under CTest these take the GPU lock exclusively (gpu_lock.hpp): they need the GPU to themselves.
    if (c.placement.exclusive()) tags += "[gpu-alone]";
    strings.push_back(c.name);
    const std::string& name = strings.back();
    strings.push_back(tags);
    const std::string& tagstr = strings.back();
    Catch::AutoReg(new SpecCaseInvoker(&c), Catch::SourceLineInfo(c.rule->loc.file.c_str(), static_cast<std::size_t>(c.rule->loc.line)),
                   "", Catch::NameAndTags{name, tagstr});
  }
}

}  // namespace cuconform
