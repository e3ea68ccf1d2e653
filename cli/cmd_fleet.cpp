// cuconform fleet NIGHT_DIR | RESULTS.json... [--history DB] [--format text|md|json|html]
//                [--html F] [--md F] [--json F]       (its options: kFleetVerb below)
// A night of every node (docs/fleet.md): which nodes and GPUs ran and which did not, the versions
// in the fleet, the odd one out (since which night, with --history), the nodes to drain as
// scontrol lines (printed, never run). Exit: the night's status, 2 > 4 > 1 > 3 > 0
// (reporters/fleet_view.hpp); bad input 2.
#include <filesystem>
#include <iostream>

#include "cli/verbs.hpp"
#include "history/odd_since.hpp"
#include "history/schema.hpp"
#include "reporters/fleet_actions.hpp"
#include "reporters/fleet_view.hpp"
#include "harness/util/output_file.hpp"  // write_file_atomically

namespace cuconform {

namespace {

// For each odd GPU with a uuid: since when its differing verdicts have been what they are tonight.
void add_since(FleetView& v, const std::string& url) {
  v.history_given = true;
  std::unique_ptr<Db> db;
  try {
    db = open_history(url, DbMode::read);
  } catch (const std::exception& e) {
    v.history_note = std::string("history not read: ") + e.what();
    return;
  }
  v.history_note = "history: " + db->name();
  for (auto& o : v.odd.odd) {
    const std::string uuid = v.night.fleet.runs[o.run].dev("uuid");
    if (uuid.empty() || o.verdicts.empty()) continue;
    std::vector<std::pair<std::string, std::string>> cases;
    for (auto& d : o.verdicts) cases.emplace_back(d.case_name, d.category);
    OddSinceNote note;
    for (auto& s : odd_since(*db, uuid, cases)) {
      note.detail += (note.detail.empty() ? "" : "; ") + s.case_name + ": " + s.category + " since " + (s.since.empty() ? "(not stored)" : s.since);
      if (!s.since.empty() && (note.since.empty() || s.since < note.since)) note.since = s.since, note.runs = s.runs;
    }
    if (note.since.empty()) note.since = "not in the history";
    v.since[o.run] = note;
  }
}

int fleet(const Options& o) {
  const std::string format = o.get("--format", "text");
  if (format != "text" && format != "md" && format != "json" && format != "html") {
    std::cerr << "cuconform fleet: --format '" << format << "': expected text, md, json or html\n";
    return kExitBadInput;
  }
  const bool one_dir = o.positional.size() == 1 && std::filesystem::is_directory(o.positional[0]);
  // The known list first: each GPU's action facts are read with it while its file is in memory.
  auto known = load_known_list(o, specs_dir_of(o), nullptr);
  const KnownList* k = known ? &*known : nullptr;
  FleetView v = build_fleet_view(one_dir ? load_night(o.positional[0], k) : night_of_files(o.positional, k));
  if (o.has("--history")) add_since(v, o.get("--history"));
  // The action per GPU and node (reporters/action_table.hpp), named first in each drain line.
  const std::vector<NodeActionRow> actions = fleet_actions(v);
  name_actions_in_drain_lines(v, actions);
  const std::string action_lines = actions_text(actions);
  auto text = [&] { return fleet_view_text(v) + "\nactions (docs/fleet.md, Actions)\n" + action_lines; };
  auto md = [&] { return fleet_view_markdown(v) + "\n## Actions\n\n```\n" + action_lines + "```\n"; };
  auto json = [&] {
    Json j = Json::parse(fleet_view_json(v));
    j["actions"] = actions_json(actions, v.night.fleet)["nodes"];
    return json_text(j, true);
  };
  if (format == "text") std::cout << text();
  if (format == "md") std::cout << md();
  if (format == "json") std::cout << json();
  if (format == "html") std::cout << fleet_view_html(v);
  if (o.has("--html")) write_file_atomically(o.get("--html"), fleet_view_html(v));
  if (o.has("--md")) write_file_atomically(o.get("--md"), md());
  if (o.has("--json")) write_file_atomically(o.get("--json"), json());
  return v.status;
}

int cmd_fleet(const Options& o) {
  try {
    return fleet(o);
  } catch (const std::exception& e) {
    std::cerr << "cuconform fleet: " << e.what() << "\n";
    return kExitBadInput;
  }
}

}  // namespace

const VerbRegistration kFleetVerb("fleet", "a night of every node: which nodes and GPUs ran, versions, the odd one out, nodes to drain",
                                  cmd_fleet, [](Verb& v) {
  v.args(1, -1, "NIGHT_DIR | RESULTS.json ...")
      .about("NIGHT_DIR: a night's folder (plan.tsv, attempts.tsv, nodes/NODE/ with complete.json; docs/fleet.md), or "
             "results and fleet files named one by one (nodes by host, GPUs by ordinal). The drain lines (scontrol update "
             "... state=drain) are printed, never run. Exit: the night's status, the worst in the order 2 > 4 > 1 > 3 > 0: "
             "2 bad input, 4 a GPU became unhealthy, 1 a node or GPU missing or failed or a GPU whose verdicts differ from "
             "its peers', 3 GPUs that saw no GPU.")
      .value("--known", "FILE",
             "the known list that tells new failures from known ones for the actions (default: $CUCONFORM_KNOWN, else "
             "ci/baselines/known.yaml beside the specs; '' for none)", ValueHint::file)
      .value("--history", "DB", "since which night each odd GPU has differed, from this history database (SQLite file or postgresql://...)",
             ValueHint::file)
      .choice("--format", {"text", "md", "json", "html"}, "what goes to stdout (default text)")
      .value("--html", "FILE", "the fleet view as one self-contained HTML page", ValueHint::file)
      .value("--md", "FILE", "the fleet view as Markdown", ValueHint::file)
      .value("--json", "FILE", "the fleet view as JSON (cuconform-fleet-view/1)", ValueHint::file);
});

}  // namespace cuconform
