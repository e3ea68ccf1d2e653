#pragma once
// The fleet view (`cuconform fleet`): a night of every node answered the way a fleet operator
// asks it. Which nodes and GPUs ran and which did not (and which were retried); which driver,
// toolkit and VBIOS versions are in the fleet; which GPUs differ from the rest of their model
// (the odd one out) and since which night; which nodes to drain, and why, as scontrol lines that
// are printed, never run. Text, Markdown and JSON here; HTML in fleet_html.cpp.
#include <map>
#include <string>
#include <vector>

#include "harness/util/json_write.hpp"
#include "reporters/night.hpp"
#include "reporters/odd_one_out.hpp"

namespace cuconform {

// One version seen in the fleet: what it is of, its value, and the GPUs that have it.
struct VersionRow {
  std::string what, value;  // "driver" "580.159.04"; "VBIOS" "96.00.A5.00.1A"; "toolkit" ...
  std::vector<std::size_t> runs;
};
std::vector<VersionRow> fleet_versions(const FleetDigest& f);

struct DrainLine {
  std::string node, reason;
  std::string command() const;  // scontrol update nodename=NODE state=drain reason="cuconform NIGHT: ..."
  std::string night;
};

// Since when an odd GPU has differed, from the history database (filled in by the caller).
struct OddSinceNote {
  std::string since;  // the first stored run of the current streak, UTC
  int runs = 0;       // stored runs of this GPU in the streak (tonight's included)
  std::string detail; // "ldgsts.x: fail since ...; ..."
};

struct FleetView {
  Night night;
  OddResult odd;
  std::vector<VersionRow> versions;
  std::vector<DrainLine> drain;
  std::map<std::size_t, OddSinceNote> since;  // by run
  bool history_given = false;
  std::string history_note;  // the database, or why it could not be asked
  // The night's exit status, the worst of its parts in the order 2 > 4 > 1 > 3 > 0: 2 a file that
  // does not read or a run that had bad input, 4 a GPU that became unhealthy, 1 a node or GPU
  // missing or failed or a GPU whose verdicts differ from its peers', 3 GPUs that saw no GPU.
  int status = 0;
  std::vector<std::string> status_why;
};

// The header's counts: GPUs planned (a node's plan, else what its job held, else its files) of the
// nodes submitted, how many ran, and the nodes skipped at planning with their GPUs.
struct FleetCounts {
  int nodes = 0, planned = 0, ran = 0, skipped_nodes = 0, skipped_gpus = 0;
};
FleetCounts fleet_counts(const Night& night);

FleetView build_fleet_view(Night night, const OddPolicy& p = {});
int worst_exit(int a, int b);  // 2 > 4 > 1 > 3 > 0 (anything else counts as 2)

std::string fleet_view_text(const FleetView& v);
std::string fleet_view_markdown(const FleetView& v);
std::string fleet_view_json(const FleetView& v);
std::string fleet_view_html(const FleetView& v);  // fleet_html.cpp

}  // namespace cuconform
