#pragma once
// What a fleet's control plane should do with a GPU or a node, in the words operators' tools use
// (docs/fleet.md, "Actions"): none, watch, rerun, drain, reset, replace, in rising severity. A
// node's action is the most severe of its GPUs'. The pre-flight (harness/runner/preflight.hpp)
// and the table over a run's results (reporters/action_table.hpp) both answer in it.
#include <string>

namespace cuconform {

enum class Action { none, watch, rerun, drain, reset, replace };

const char* to_string(Action a);
bool parse_action(const std::string& s, Action* out);
// 0 (none) to 5 (replace): the order of severity, and the value of the metric cuconform_action_severity.
int severity(Action a);
// The more severe of the two.
Action worse(Action a, Action b);
// Whether a scheduler should take the node out of service for it (drain, reset, replace).
bool takes_out_of_service(Action a);

}  // namespace cuconform
