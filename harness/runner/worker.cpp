#include "harness/runner/worker.hpp"

#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "harness/driver/cuda_api.hpp"
#include "harness/driver/gpu.hpp"
#include "harness/runner/execute.hpp"
#include "harness/runner/protocol.hpp"
#include "harness/spec/catalog.hpp"

namespace cuconform {

static void emit(const std::string& line) {
  std::string l = line + "\n";
  const char* p = l.data();
  std::size_t left = l.size();
  while (left) {
    ssize_t n = write(kProtocolFd, p, left);
    if (n <= 0) _exit(4);  // supervisor gone
    p += n;
    left -= static_cast<std::size_t>(n);
  }
}

// Runs one case and reports it (START, RESULT); a case that poisoned the context ends the process.
static void run_and_report(const Case& c, Gpu* gpu, const std::string& why_not) {
  emit("START " + c.name);
  CaseResult r = execute_case(c, gpu, why_not.empty() ? "no GPU opened" : why_not);
  if ((c.records || c.rule->has_tag("faults")) && gpu && !r.obs.context_poisoned) {
    // Undefined behaviour (and a finding that faults on some GPU) may share a worker with
    // records: a fault that none of this case's calls saw is this case's outcome, and the worker
    // ends with it.
    const std::string err = gpu->context_error();
    if (!err.empty()) {
      r.obs.context_poisoned = true;
      r.obs.fact("context_after", err);
      if (r.obs.verdict == Verdict::recorded)
        r.obs.record(r.obs.fact_value("outcome") + "; context faulted after the case: " + err, r.obs.observed);
    }
  }
  emit("RESULT " + encode_result(r));
  if (r.obs.context_poisoned) {
    std::fflush(nullptr);
    _exit(0);  // no CUDA teardown in a poisoned context
  }
}

// A line from the gate (fd 4); false at its end.
static bool read_gate_line(std::string* line) {
  line->clear();
  for (char ch = 0; ch != '\n';) {
    ssize_t n = read(kGateFd, &ch, 1);
    if (n < 0 && errno == EINTR) continue;
    if (n != 1) return false;
    if (ch != '\n') *line += ch;
  }
  return true;
}

int worker_main(int argc, char** argv) {
  // One hardware work queue, not the driver's default 8: every fixture uses one stream, and a
  // context with one connection is made in half the time (0.060 vs 0.121 s alone, 0.080 vs
  // 0.211 s a process with 16 starting at once: ci/probes/context_cost.py on an H100,
  // 2026-11-25). The driver serialises context creation, so with isolated cases in processes of
  // their own this is most of a run's floor. A value set outside wins.
  setenv("CUDA_DEVICE_MAX_CONNECTIONS", "1", 0);
  std::string specs;
  std::vector<std::string> files;  // --spec-file: only these (the supervisor names its cases' files)
  bool gated = false;              // --gate: get ready, then wait for the supervisor's go on kGateFd
  bool stream = false;             // --stream: open the GPU, READY, then run the cases named on kGateFd
  std::size_t skip = 0;            // cases of the list already run by a worker before this one
  bool open_early = false;         // --open-gpu: a case of the list needs the driver (the supervisor knows)
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--gate") gated = true;
    if (a == "--stream") stream = true;
    if (a == "--open-gpu") open_early = true;
    if (i + 1 >= argc) continue;
    if (a == "--specs") specs = argv[i + 1];
    if (a == "--spec-file") files.push_back(argv[i + 1]);
  }
  if (specs.empty()) specs = default_specs_dir();
  Gpu* gpu = nullptr;
  std::string why_not;
  bool opened = false;
  double open_s = 0;
  auto open_gpu = [&] {
    const auto t = std::chrono::steady_clock::now();
    gpu = Gpu::open(&why_not);
    opened = true;
    open_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
  };
  auto report_open = [&] {
    emit("TIMING gpu_open_s " + std::to_string(open_s));
    emit("DEVICE " + encode_device(gpu, why_not));
  };
  // A worker whose cases need the GPU makes its context while it reads the spec files: the two
  // are a worker's start, and a spare of the records' worker is waited for when records fault
  // one after another (2026-11-28, four H200s: 73 processes waited 15.5 s after their go).
  std::thread opener;
  if (stream || open_early) opener = std::thread(open_gpu);
  auto t0 = std::chrono::steady_clock::now();
  // Files named by the supervisor were read with the YAML bounds by it in this run.
  Catalog cat = files.empty() ? load_catalog(specs) : load_spec_files(files, specs, SpecRead::checked_before);
  emit("TIMING catalog_s " + std::to_string(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()));
  if (opener.joinable()) {
    opener.join();
    // A context is current in the thread that made it: the cases run on this one.
    if (gpu) CU_API.cuCtxSetCurrent(gpu->context());
    report_open();
  }
  if (!cat.ok()) {
    for (auto& e : cat.errors) std::cerr << e.str() << "\n";
    return 2;
  }
  if (stream) {
    // The case server's worker: every case it is handed needs the GPU, so the context is made
    // before the first; then one case a line, until the gate closes or a case poisons the context.
    emit("READY");
    for (std::string name; read_gate_line(&name);) {
      const Case* c = cat.find_case(name);
      if (!c) {
        std::cerr << "worker: unknown case " << name << "\n";
        return 2;
      }
      run_and_report(*c, gpu, why_not);
    }
    return 0;
  }
  std::vector<const Case*> cases;
  for (std::string name; std::getline(std::cin, name);) {
    const Case* c = cat.find_case(name);
    if (!c) {
      std::cerr << "worker: unknown case " << name << "\n";
      return 2;
    }
    cases.push_back(c);
  }
  if (gated) {
    // Started ahead of its turn: make the context now (while the case before runs), run nothing
    // until the supervisor says go. End of file instead of a go: the run is over, leave.
    for (const Case* c : cases)
      if (!opened && case_needs_driver(*c)) {
        open_gpu();
        report_open();
      }
    // Stamps on the steady clock (CLOCK_MONOTONIC, the supervisor's too): how long a worker
    // started ahead was still getting ready after its go, and how long the go took to arrive.
    emit("TIMING ready_at " + std::to_string(std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count()));
    emit("READY");
    // The go is a line: how many of its cases to skip (a spare worker of a batch takes over
    // after the case that ended the one before it).
    std::string go;
    if (!read_gate_line(&go)) return 0;
    skip = std::strtoul(go.c_str(), nullptr, 10);
    emit("TIMING go_at " + std::to_string(std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count()));
  }
  for (std::size_t i = skip; i < cases.size(); ++i) {
    if (!opened && case_needs_driver(*cases[i])) {
      open_gpu();
      report_open();
    }
    run_and_report(*cases[i], gpu, why_not);
  }
  return 0;
}

}  // namespace cuconform
