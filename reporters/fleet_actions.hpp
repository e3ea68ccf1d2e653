#pragma once
// The action table (reporters/action_table.hpp) over a night or a set of results files: one
// action per GPU (its facts with the known list, and the odd one out among its peers) and per
// node (the most severe of its GPUs', or of the node itself: a job that left no results). The
// fleet view, `cuconform export` and `run --metrics-dir` all take their actions from here.
#include <optional>
#include <string>
#include <vector>

#include "reporters/action_table.hpp"
#include "reporters/fleet_view.hpp"

namespace cuconform {

struct GpuActionRow {
  int index = 0;                   // N of results.gpuN.json, or the device ordinal
  std::optional<std::size_t> run;  // into the fleet; none when the GPU gave no readable results
  ActionFacts facts;
  GpuAction action;
};

struct NodeActionRow {
  std::string node;
  GpuAction action;  // the node's: its worst GPU's, or the node's own (no results at all)
  std::vector<GpuActionRow> gpus;
};

// Each GPU's facts are those its night was read with (load_night's known list).
std::vector<NodeActionRow> fleet_actions(const FleetView& v);

// Text lines a script reads, one per GPU and one per node:
//   action node=gpu07 gpu=1 uuid=GPU-... action=drain why="new failure ldgsts.x"
//   action node=gpu07 action=drain why="gpu1: new failure ldgsts.x"
std::string actions_text(const std::vector<NodeActionRow>& rows);
Json actions_json(const std::vector<NodeActionRow>& rows, const FleetDigest& f);
// The fleet view's drain lines with the action named first ("action=drain gpu1: new failure X; ..."),
// and a drain line for every node whose action takes it out of service and had none.
void name_actions_in_drain_lines(FleetView& v, const std::vector<NodeActionRow>& rows);

}  // namespace cuconform
