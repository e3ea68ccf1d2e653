#pragma once
// A night's results folder, as ci/slurm/nightly.sh and the ci/k8s jobs lay it out
// (docs/fleet.md, "The night folder"):
//   NIGHT/plan.tsv        the nodes expected and their GPU counts: "NODE<TAB>GPUS" (optional)
//   NIGHT/attempts.tsv    one line per job attempt: NODE, ATTEMPT, JOB ID, STATE, EXIT (optional)
//   NIGHT/skipped.tsv     nodes not submitted: NODE, GPUS, STATE, REASON (drained, down...; optional)
//   NIGHT/nodes/NODE/     a node's finished attempt, moved into place whole: results.gpuN.json
//                         (or today's results.json, or a node.json fleet file), junit files,
//                         and complete.json, the completion marker, written last
//   NIGHT/.partial/       attempts still being written: never read
// Every node and GPU is accounted for: it ran, it saw no GPU, its file is unreadable, or it is
// missing (planned or held by the job, no file), and a node whose job wrote nothing has failed.
#include <optional>
#include <string>
#include <vector>

#include "reporters/fleet_digest.hpp"
#include "reporters/results_file.hpp"

namespace cuconform {

constexpr const char* kNodeDoneSchema = "cuconform-node-done/1";

struct NightGpu {
  int index = 0;                   // N of results.gpuN.json: the GPU's place among those the job held
  std::string file;                // empty when missing
  std::optional<std::size_t> run;  // into Night::fleet.runs
  enum class State { ran, no_gpu, unreadable, missing } state = State::missing;
  std::string why;                 // no_gpu: the run's error; unreadable: the reader's message
};
const char* to_string(NightGpu::State s);

struct NightAttempt {
  int attempt = 0;
  std::string job_id, state;  // the scheduler's words: COMPLETED, FAILED, NODE_FAIL, DEADLINE, ...
  int exit = -1;              // the job's exit code; -1 unknown
};

struct NightNode {
  std::string name;
  int planned_gpus = -1;  // from plan.tsv; -1: not planned
  // From skipped.tsv: not submitted, because the scheduler had it drained, down or in
  // maintenance at planning; its state and the operator's reason, kept as they were.
  bool skipped = false;
  std::string skip_state, skip_reason;
  bool complete = false;  // nodes/NAME/complete.json was there
  int run_exit = -1;      // cuconform run's exit code, from complete.json
  int held_gpus = -1;     // GPUs the job held, from complete.json
  std::string job_id, finished;
  std::vector<NightAttempt> attempts;
  std::vector<NightGpu> gpus;
  // ran: results are there; failed: attempted, no finished results; missing: planned, no attempt;
  // skipped: drained or down at planning, not submitted.
  std::string state() const;
  bool retried() const { return attempts.size() > 1; }
  int expected_gpus() const;  // planned, else held, else found
};

struct Night {
  std::string dir, name;  // name: the folder's base name ("night-20261126")
  std::vector<NightNode> nodes;
  FleetDigest fleet;                 // every readable GPU results file, read one at a time
  std::vector<std::string> ignored;  // what was not read, and why (partial attempts, unmarked folders)
};

// Throws ResultsError ("FILE:LINE: ...") for a plan, attempts or marker file that does not read,
// and for a folder that holds none of them. A GPU results file that does not read is that GPU's
// state (unreadable), so one bad file never hides the rest of the night.
// `known` (null: none) is the known list each run's action facts are read with, while its file is
// in memory (FleetDigest::facts).
Night load_night(const std::string& dir, const KnownList* known = nullptr);
// Results or fleet files named one by one: nodes by host, GPUs by device ordinal; nothing planned.
Night night_of_files(const std::vector<std::string>& files, const KnownList* known = nullptr);

}  // namespace cuconform
