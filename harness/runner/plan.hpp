#pragma once
// A run as data: from the selected cases, the GPUs and the options, the ordered steps that run
// them (`cuconform run --plan` prints it; the supervisor and the node run execute it). Pure: it
// starts no process and opens no GPU, so host tests check plans as data.
//
// A step is a set of cases in one kind of worker under one resource:
//   gpu     which GPU of the run (-1: none, the host lanes), and its peer for two-GPU cases;
//   lock    none, shared (beside the other shared steps on that GPU) or exclusive (the GPU to
//           itself), the CTest path's GpuLock meaning;
//   phase   the node's class: parallel, alone or isolated. A node's GPUs run the same phase at
//           once and wait for each other between phases (no GPU faults on purpose while another
//           runs its parallel lanes); host steps run beside every phase.
// The options are every scheduling switch of the run, each with where it came from, so a switch
// that does nothing shows at once.
#include <string>
#include <utility>
#include <vector>

#include "harness/driver/gpu_list.hpp"
#include "harness/spec/spec.hpp"
#include "harness/util/json_write.hpp"

namespace cuconform {

struct PlanOptions {
  int gpu_lanes = 0;        // parallel GPU lanes a GPU (--jobs, $CUCONFORM_JOBS); 0: from the GPU and the cores
  int host_lanes = 0;       // $CUCONFORM_HOST_LANES; 0: default_host_lanes (schedule.hpp)
  // $CUCONFORM_HOST_LANES_LATE: the host lanes once the GPU's alone step is over (its isolated step
  // runs one process at a time and leaves the cores idle); 0: late_host_lanes (schedule.hpp).
  int host_lanes_late = 0;
  // The host cases run in an executor of their own beside one GPU's (the node run's host step):
  // that GPU's alone step gives the late lanes their go.
  bool host_beside_gpu = false;
  int cores = 0;            // the host's CPU cores (0: std::thread::hardware_concurrency())
  bool prestart = true;     // $CUCONFORM_PRESTART: isolated workers started (gated) while the one before runs
  int prestart_depth = 3;   // $CUCONFORM_PRESTART_DEPTH
  // $CUCONFORM_LANE_CHUNKS: worker processes (chunks) a parallel lane runs one after another. Two
  // even out the lanes' ends; each is a context, and a node's contexts queue at the host.
  int lane_chunks = 2;
  bool records_share = true;   // $CUCONFORM_BATCH_RECORDS: records share a worker, one at a time
  // Lever (off by default): findings tagged `faults` that expect no fault join the records' worker
  // ($CUCONFORM_FAULTS_SHARE=1): one that faults ends it after its result, as a record does, and
  // one that does not (on this GPU) costs no process and context of its own.
  bool faults_share = false;
  bool isolated_alone = true;  // --isolated-beside, $CUCONFORM_ISOLATED_ALONE=0: the isolated lane beside the parallel lanes (unsafe)
  std::string shuffle_seed;    // --shuffle: empty for the order of the specs
  int reruns = 0;              // --rerun: a failure runs again up to N times, a fresh worker each time
  std::string codegen = "sass";
  // Where each option came from ("default", "--jobs", "$CUCONFORM_PRESTART", ...), by name.
  std::vector<std::pair<std::string, std::string>> sources;
};

// Whether isolated case `c` runs in the records' shared worker (one at a time, alone on the GPU)
// rather than a process of its own: the supervisor and the plan both ask this.
bool joins_records_worker(const Case& c, bool records_share, bool faults_share);

// Reads the scheduling switches from the environment into `o` (recording their sources); false
// with `error` naming the variable for a value it does not take.
bool plan_options_from_env(PlanOptions* o, std::string* error);

enum class Phase { host, parallel, alone, isolated, pairs_shared, pairs, rerun };
const char* to_string(Phase p);

struct PlanStep {
  Phase phase = Phase::host;
  int gpu = -1, peer = -1;     // indices into the run's GPUs (-1: none)
  WorkerKind worker = WorkerKind::shared;
  const char* lock = "none";   // "none", "shared", "exclusive"
  std::vector<const Case*> cases;
  std::vector<std::vector<const Case*>> workers;  // the cases of each worker process, in order (the plan's chunks)
  int lanes = 1;               // workers at once
  int lanes_late = 0;          // host step: lanes once the GPU's alone step is over (0: no more)
  std::string lanes_why;
  int prestart = 0;            // workers started ahead (isolated steps)
  int round = 0;               // two-GPU steps: the round (no GPU in two pairs of a round)
  std::vector<std::string> env;  // "KEY=VALUE" every worker of the step gets
  double cost = 0;             // summed placement costs
  std::string why;
};

struct Plan {
  int gpus = 1;                // GPUs run at once (at least 1: without GPUs, the driver's default device)
  std::vector<PlanStep> steps; // in order: host, then per phase every GPU's step
  std::vector<std::pair<std::string, std::string>> options;  // name, "value (source)"
  // The steps of `gpu` (its own cases, not the two-GPU ones), and the host step.
  std::vector<const PlanStep*> steps_of(int gpu) const;
  const PlanStep* first(Phase phase) const;  // the first step of `phase`, null when none
  int processes() const;       // worker processes the plan starts at least (spares and re-runs aside)
};

// The plan for `cases` on `gpus` (empty: the driver's default device, as workers find it).
Plan make_plan(const std::vector<const Case*>& cases, const std::vector<NodeGpu>& gpus, const PlanOptions& o);

// Cases in chunks of neighbours, one worker each, cut where a chunk's cost reaches its share:
// `per_lane` chunks a lane, at least `min_cost`; a case that costs a share by itself is a chunk of
// its own. Costliest first, so that no lane ends on a long one.
std::vector<std::vector<const Case*>> make_chunks(const std::vector<const Case*>& cases, int lanes, int per_lane,
                                                  double min_cost);

// What every worker on GPU `gpu` (with `peer`, -1 for none) sees: that GPU alone (and its peer),
// as device 0 (and 1). Empty without GPUs: the driver's default device.
std::vector<std::string> worker_env_for(const std::vector<NodeGpu>& gpus, int gpu, int peer);

// How many GPU lanes from a GPU's SMs and memory and the cores: one per 16 SMs, at most one per
// two cores (of the cores' share of each of `gpus` GPUs), one per 4 GiB, at most 8.
int gpu_lanes_for(int sms, std::size_t mem_bytes, int cores, int gpus, std::string* why);

// The executor's options from the plan's (the supervisor and the node run read these), and back:
// the supervisor plans its own GPU's steps from its options.
struct SuperviseOptions;
void apply_plan_options(const PlanOptions& o, SuperviseOptions* so);
PlanOptions plan_options_of(const SuperviseOptions& so);

std::string plan_text(const Plan& p, bool cases);
Json plan_json(const Plan& p);

}  // namespace cuconform
