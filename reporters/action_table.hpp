#pragma once
// The action per GPU and per node (docs/fleet.md, "Actions"): what a fleet's control plane should
// do with a GPU after a run, from one table over what the run found: the pre-flight's judgement
// (harness/runner/preflight.hpp), the health watch's events during the run (critical Xids, ECC,
// row remaps, a lost GPU), the verdicts against the known list (new failures, known failures,
// flakes, toolchain observations), a cut-off run, a GPU without results, and the odd one out.
// The first row that applies decides; a node's action is the most severe of its GPUs'. `decide`
// is pure (host-tested row by row); `action_facts` reads the facts of one run of a results file.
#include <string>
#include <vector>

#include "harness/runner/action.hpp"
#include "harness/util/json_write.hpp"
#include "reporters/known_list.hpp"
#include "reporters/results_file.hpp"

namespace cuconform {

struct ActionFacts {
  bool results = true;               // false: the GPU gave no results (missing, unreadable)
  std::string no_results_why;
  bool no_gpu = false;               // the run could not open the GPU
  std::string no_gpu_why;
  bool preflight_stopped = false;    // unhealthy before the run: nothing ran on it
  Action preflight_action = Action::none;
  std::string preflight_reason;
  std::string unhealthy;             // the health watch stopped it during the run: why ("Xid 79 at case X")
  std::string cut_off;               // "SIGTERM" when the run was stopped; "" when it finished
  int new_failures = 0;              // failures the known list does not explain
  std::string first_new_failure;
  int known_failures = 0, known_flakes = 0;
  int flakes = 0;                    // verdict flake (failed, then passed on a re-run), not a known flake
  std::string first_flake;
  int toolchain_changes = 0;         // toolchain observations that changed (not conformance failures)
  std::string odd_verdict;           // a failing case where its peers (same model, driver, path) pass
  std::string odd_measurement;       // a measurement off its peers'
};

struct GpuAction {
  Action action = Action::none;
  std::string why;          // one line: "new failure ldgsts.x (+2 more)"
  std::string row;          // the table row that decided: "new-failure"
  std::string first_new_failure;
};

// The table: pure.
GpuAction decide_action(const ActionFacts& f);
// The rows in order, as docs/fleet.md lists them: {row, action, when}.
struct ActionRow {
  const char* row;
  Action action;
  const char* when;
};
const std::vector<ActionRow>& action_rows();

// The facts of run `run` of `f` (a results file, or one GPU of a fleet file), with `known` (null:
// no known list, every failure is new).
ActionFacts action_facts(const Fleet& f, std::size_t run, const KnownList* known);

// The results file's "action" object: action, why, row, first_new_failure.
Json action_json(const GpuAction& a);
// A node's action: the most severe of its GPUs', its reason that GPU's ("gpu3: ..."); none when empty.
GpuAction node_action(const std::vector<std::pair<std::string, GpuAction>>& gpus);
// The reason a scheduler records when it drains: "cuconform action=drain gpu1: new failure X".
std::string drain_reason(const GpuAction& node);

}  // namespace cuconform
