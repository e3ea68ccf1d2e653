#pragma once
// A run's results as Prometheus text (the exposition format node_exporter's textfile collector
// reads, docs/fleet.md "Metrics"): one file per GPU, its series labelled node, gpu_uuid,
// gpu_index, model, driver, suite_version (and tier where the run chose one); one file per node
// with the node's action. Written atomically (a temporary file, then a rename) into a folder the
// collector reads, named so that the next run of the same GPU replaces its file.
#include <string>
#include <vector>

#include "reporters/fleet_actions.hpp"

namespace cuconform {

// The text of one GPU's file (`run` of the fleet; none: the GPU gave no results) and of the node's.
std::string gpu_metrics_text(const FleetDigest& f, const std::string& node, const GpuActionRow& g);
std::string node_metrics_text(const NodeActionRow& n);
// Writes every GPU's and node's file into `dir` (made where missing): cuconform_NODE_gpuN.prom
// and cuconform_NODE.prom. Returns the files written; throws std::runtime_error naming the file.
std::vector<std::string> write_metrics(const std::string& dir, const FleetView& v, const std::vector<NodeActionRow>& rows);

}  // namespace cuconform
