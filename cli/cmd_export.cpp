// cuconform export RESULTS.json... | NIGHT_DIR --metrics DIR [--known K] [--format text|json]
// What a fleet's control plane reads of results that exist: the action per GPU and per node
// (reporters/action_table.hpp, printed one line each) and, with --metrics, the Prometheus text
// files for node_exporter's textfile collector (reporters/metrics_text.hpp). `run --metrics-dir`
// writes the same files for the run it made.
#include <filesystem>
#include <iostream>

#include "cli/verbs.hpp"
#include "reporters/metrics_text.hpp"

namespace cuconform {

namespace {

int export_results(const Options& o) {
  const std::string format = o.get("--format", "text");
  if (format != "text" && format != "json") {
    std::cerr << "cuconform export: --format '" << format << "': expected text or json\n";
    return kExitBadInput;
  }
  const bool one_dir = o.positional.size() == 1 && std::filesystem::is_directory(o.positional[0]);
  auto known = load_known_list(o, specs_dir_of(o), format == "text" ? &std::cerr : nullptr);
  const KnownList* k = known ? &*known : nullptr;
  FleetView v = build_fleet_view(one_dir ? load_night(o.positional[0], k) : night_of_files(o.positional, k));
  const std::vector<NodeActionRow> rows = fleet_actions(v);
  if (format == "text") std::cout << actions_text(rows);
  else std::cout << json_text(actions_json(rows, v.night.fleet), true);
  if (o.has("--metrics")) {
    const std::vector<std::string> files = write_metrics(o.get("--metrics"), v, rows);
    std::cerr << "metrics: " << files.size() << " file(s) in " << o.get("--metrics") << "\n";
  }
  return kExitOk;
}

int cmd_export(const Options& o) {
  try {
    return export_results(o);
  } catch (const std::exception& e) {
    std::cerr << "cuconform export: " << e.what() << "\n";
    return kExitBadInput;
  }
}

}  // namespace

const VerbRegistration kExportVerb("export", "the action per GPU and node of existing results; Prometheus metrics files (--metrics)",
                                   cmd_export, [](Verb& v) {
  v.args(1, -1, "RESULTS.json ... | NIGHT_DIR")
      .about("Prints one line per GPU and per node: `action node=N gpu=I action=A row=R why=\"...\"` (docs/fleet.md, "
             "Actions). With --metrics DIR, writes cuconform_NODE_gpuI.prom per GPU and cuconform_NODE.prom per node "
             "into DIR for node_exporter's textfile collector, each atomically. Exit 0 written, 2 bad input.")
      .value("--metrics", "DIR", "write the Prometheus text files into DIR (made where missing)", ValueHint::dir)
      .value("--known", "FILE",
             "the known list new failures are told from (default: $CUCONFORM_KNOWN, else ci/baselines/known.yaml beside the "
             "specs; '' for none)", ValueHint::file)
      .choice("--format", {"text", "json"}, "the actions as lines (default) or JSON (cuconform-actions/1)");
});

}  // namespace cuconform
