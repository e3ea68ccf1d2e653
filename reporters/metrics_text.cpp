#include "reporters/metrics_text.hpp"

#include <cmath>
#include <ctime>
#include <filesystem>
#include <map>
#include <sstream>

#include "harness/util/output_file.hpp"
#include "harness/util/utc_time.hpp"
#include "reporters/throughput_table.hpp"

namespace cuconform {

namespace {

using Labels = std::vector<std::pair<std::string, std::string>>;

// Label values escape backslash, double quote and newline (the exposition format).
std::string label_value(const std::string& v) {
  std::string out;
  for (char c : v) {
    if (c == '\\') out += "\\\\";
    else if (c == '"') out += "\\\"";
    else if (c == '\n') out += "\\n";
    else out += c;
  }
  return out;
}

std::string number(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  std::ostringstream s;
  s.precision(17);
  s << v;
  return s.str();
}

// One metric family: HELP and TYPE once, then its samples.
class Family {
 public:
  Family(std::ostringstream* o, const std::string& name, const std::string& type, const std::string& help) : o_(o), name_(name) {
    *o_ << "# HELP " << name << " " << help << "\n# TYPE " << name << " " << type << "\n";
  }
  void sample(const Labels& base, const Labels& extra, double v) {
    *o_ << name_;
    bool first = true;
    for (const Labels* ls : {&base, &extra})
      for (auto& [k, val] : *ls) {
        *o_ << (first ? "{" : ",") << k << "=\"" << label_value(val) << "\"";
        first = false;
      }
    *o_ << (first ? "" : "}") << " " << number(v) << "\n";
  }

 private:
  std::ostringstream* o_;
  std::string name_;
};

std::string tier_of(const RunInfo& r) {
  // The run's selection names the tier it chose ("--tier core"), where it chose one.
  const std::string sel = r.get(r.run, "selection");
  const std::size_t at = sel.find("--tier ");
  if (at == std::string::npos) return "";
  std::string t = sel.substr(at + 7);
  return t.substr(0, t.find_first_of(", ]"));
}

std::string file_part(const std::string& s) {
  std::string out;
  for (char c : s) out += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' ? c : '_';
  return out.empty() ? "unknown" : out;
}

void action_state_set(std::ostringstream& o, const std::string& name, const std::string& help, const Labels& labels, Action act) {
  Family fam(&o, name, "gauge", help);
  for (Action a : {Action::none, Action::watch, Action::rerun, Action::drain, Action::reset, Action::replace})
    fam.sample(labels, {{"action", to_string(a)}}, a == act ? 1 : 0);
}

}  // namespace

std::string gpu_metrics_text(const FleetDigest& f, const std::string& node, const GpuActionRow& g) {
  std::ostringstream o;
  Labels labels = {{"node", node}, {"gpu_index", std::to_string(g.index)}};
  const RunInfo* r = g.run ? &f.runs[*g.run] : nullptr;
  if (r) {
    labels = {{"node", node},
              {"gpu_uuid", r->dev("uuid")},
              {"gpu_index", r->dev("ordinal").empty() ? std::to_string(g.index) : r->dev("ordinal")},
              {"model", r->dev("name")},
              {"driver", r->dev("driver_version")},
              {"suite_version", r->get(r->suite, "version")}};
    if (const std::string t = tier_of(*r); !t.empty()) labels.emplace_back("tier", t);
  }
  action_state_set(o, "cuconform_action", "What to do with the GPU after its last run (docs/fleet.md, Actions): 1 for the action, 0 for the others.", labels, g.action.action);
  Family(&o, "cuconform_action_severity", "gauge", "The action's severity: 0 none, 1 watch, 2 rerun, 3 drain, 4 reset, 5 replace.")
      .sample(labels, {}, severity(g.action.action));
  Family(&o, "cuconform_results_present", "gauge", "1 when the GPU's last run left readable results, else 0.").sample(labels, {}, r ? 1 : 0);
  if (!r) return o.str();
  const ActionFacts& x = g.facts;
  {
    Family fam(&o, "cuconform_cases", "gauge", "Cases of the GPU's last run, by verdict.");
    for (auto& [verdict, n] : f.facts[*g.run].counts) fam.sample(labels, {{"verdict", verdict}}, n);
  }
  Family(&o, "cuconform_new_failures", "gauge", "Failures of the last run that the known list does not explain.").sample(labels, {}, x.new_failures);
  Family(&o, "cuconform_known_failures", "gauge", "Failures of the last run that the known list explains (recorded findings).").sample(labels, {}, x.known_failures);
  Family(&o, "cuconform_known_flakes", "gauge", "Failures of the last run that the known list lists as flaky.").sample(labels, {}, x.known_flakes);
  Family(&o, "cuconform_flakes", "gauge", "Cases that failed and then passed on a re-run, not in the known list.").sample(labels, {}, x.flakes);
  Family(&o, "cuconform_gpu_opened", "gauge", "1 when the run could open the GPU, else 0.").sample(labels, {}, x.no_gpu ? 0 : 1);
  Family(&o, "cuconform_healthy", "gauge", "1 when the GPU was healthy before and during the run (pre-flight and health watch), else 0.")
      .sample(labels, {}, x.preflight_stopped || !x.unhealthy.empty() ? 0 : 1);
  Family(&o, "cuconform_preflight_passed", "gauge", "1 when the pre-flight let the GPU run, 0 when it found it unhealthy before the run.")
      .sample(labels, {}, x.preflight_stopped ? 0 : 1);
  Family(&o, "cuconform_run_cut_off", "gauge", "1 when the run was stopped before it finished, else 0.").sample(labels, {}, x.cut_off.empty() ? 0 : 1);
  Family(&o, "cuconform_run_start_timestamp_seconds", "gauge", "When the GPU's last run started, seconds since the epoch (UTC).")
      .sample(labels, {}, utc_seconds_of(r->get(r->run, "started")));
  const std::string wall = r->get(r->run, "wall_s");
  Family(&o, "cuconform_run_duration_seconds", "gauge", "How long the GPU's last run took, seconds.")
      .sample(labels, {}, wall.empty() ? NAN : std::strtod(wall.c_str(), nullptr));
  const std::vector<ThroughputRow>& tp = f.facts[*g.run].throughput;
  if (!tp.empty()) {
    Family d2d(&o, "cuconform_throughput_d2d_ratio", "gauge", "A rate case's throughput as a fraction of the same run's device-to-device copy.");
    for (const ThroughputRow& t : tp) d2d.sample(labels, {{"case", t.case_name}}, t.frac_d2d);
    Family ds(&o, "cuconform_throughput_datasheet_ratio", "gauge", "A rate case's throughput as a fraction of the model's datasheet figure.");
    for (const ThroughputRow& t : tp)
      if (t.frac_datasheet) ds.sample(labels, {{"case", t.case_name}}, *t.frac_datasheet);
  }
  Labels info = labels;
  info.emplace_back("code_path", r->toolchain_line());
  info.emplace_back("suite_commit", r->get(r->suite, "commit"));
  info.emplace_back("row", g.action.row);
  info.emplace_back("first_new_failure", x.first_new_failure);
  Family(&o, "cuconform_run_info", "gauge", "Always 1: the last run's code path, suite commit, the action table's row and first new failure.")
      .sample(info, {}, 1);
  return o.str();
}

std::string node_metrics_text(const NodeActionRow& n) {
  std::ostringstream o;
  const Labels labels = {{"node", n.node}};
  action_state_set(o, "cuconform_node_action", "What to do with the node: the most severe of its GPUs' actions, 1 for it, 0 for the others.", labels, n.action.action);
  Family(&o, "cuconform_node_action_severity", "gauge", "The node action's severity: 0 none, 1 watch, 2 rerun, 3 drain, 4 reset, 5 replace.")
      .sample(labels, {}, severity(n.action.action));
  Family(&o, "cuconform_node_gpus", "gauge", "The node's GPUs the run accounted for.").sample(labels, {}, static_cast<double>(n.gpus.size()));
  return o.str();
}

std::vector<std::string> write_metrics(const std::string& dir, const FleetView& v, const std::vector<NodeActionRow>& rows) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (!fs::is_directory(dir)) throw std::runtime_error(dir + ": cannot make the metrics folder (" + ec.message() + ")");
  std::vector<std::string> written;
  for (const NodeActionRow& n : rows) {
    for (const GpuActionRow& g : n.gpus) {
      const std::string path = (fs::path(dir) / ("cuconform_" + file_part(n.node) + "_gpu" + std::to_string(g.index) + ".prom")).string();
      write_file_atomically(path, gpu_metrics_text(v.night.fleet, n.node, g));
      written.push_back(path);
    }
    const std::string path = (fs::path(dir) / ("cuconform_" + file_part(n.node) + ".prom")).string();
    write_file_atomically(path, node_metrics_text(n));
    written.push_back(path);
  }
  return written;
}

}  // namespace cuconform
