#pragma once
// Every chosen GPU of a node at once (`cuconform run --devices`). Each GPU has its own
// supervisor (harness/runner/supervisor.hpp): its own lanes, GPU-alone phase, isolated phase and
// workers, which see that GPU alone (CUDA_VISIBLE_DEVICES=<its UUID>); the GPUs keep their phases
// in step: every GPU runs its parallel lanes, then its GPU-alone phase, then
// its isolated lane, and the GPUs wait for each other between phases (staggering them, the odd GPUs'
// isolated lane first, measured 60 s against 52 s on two H200s, 2026-11-26, and was removed). Host-only cases (ptxas, cuobjdump, nvcc, planned) run once for the node, beside
// everything. Cases that need two GPUs (requires: [peer]) run last, GPU i with GPU i+1 of the
// selection as its peer, in rounds in which no GPU is in two pairs. A GPU that faults, hangs or
// drops out costs that GPU's cases, not the others': the health watch (health_watch.hpp) raises
// its stop flag and its cases left get the verdict not-run.
#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "harness/driver/gpu_list.hpp"
#include "harness/runner/health_watch.hpp"
#include "harness/runner/supervisor.hpp"

namespace cuconform {

struct NodeRunOptions {
  // specs_dir, lanes, isolated_alone, prestart, shuffle, the stop flag a signal sets; its
  // on_result, on_start, worker_env and phase_done are the node runner's own.
  SuperviseOptions base;
  // The GPUs, in the order of their results; empty: the driver's default device as workers find
  // it (no driver: none, and every GPU case says why).
  std::vector<NodeGpu> gpus;
  // Each result as it comes; `gpu` is the index in `gpus` (0 without GPUs), or -1 for a host-only
  // case (it ran once for the node).
  std::function<void(int gpu, const Case&, const CaseResult&)> on_result;
  // Per GPU (as `gpus`): "" or why the pre-flight found it unhealthy before the run
  // (harness/runner/preflight.hpp); such a GPU runs nothing and its cases are not-run.
  std::vector<std::string> unhealthy_before;
  // The plan's re-run step: each failure again up to this many times, a fresh worker each
  // (rerun.hpp); after every GPU's phases, never on a GPU the watch stopped.
  int reruns = 0;
};

struct NodeOutcome {
  SuperviseOutcome host;             // host-only cases, in the order of the selection
  std::vector<SuperviseOutcome> gpu;  // per GPU (at least one): every other case of the selection
  std::vector<std::string> unhealthy;  // per GPU: "" or why the watch stopped it
  std::vector<std::string> health_json;  // per GPU: its health section
  std::string health_note;           // the watch's note for the run ("" when it watched)
  std::vector<const Case*> host_cases, gpu_cases;  // which cases went where
};

// `healthy_stop` lets a caller (a test) see the per-GPU stop flags; null is fine.
NodeOutcome run_node(const std::vector<const Case*>& cases, const NodeRunOptions& opt);

// Which peer GPU i runs its two-GPU cases with (the next of the selection), and in which order
// the pairs run: rounds in which no GPU is in two pairs. Exposed for tests.
std::vector<std::vector<std::pair<int, int>>> peer_rounds(int gpus);

}  // namespace cuconform
