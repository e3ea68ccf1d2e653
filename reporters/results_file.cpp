#include "reporters/results_file.hpp"

#include "harness/util/outcome_json.hpp"

#include <yaml-cpp/yaml.h>

#include <cmath>
#include <limits>
#include <set>

#include "harness/util/json.hpp"
#include "reporters/results_json.hpp"

namespace cuconform {

namespace {

// "FILE:LINE" for a node that has a position, "FILE" for one that does not (absent keys).
std::string where(const std::string& file, const YAML::Node& n) {
  if (n.IsDefined() && n.Mark().line >= 0) return file + ":" + std::to_string(n.Mark().line + 1);
  return file;
}

[[noreturn]] void bad(const std::string& file, const YAML::Node& n, const std::string& what) {
  throw ResultsError(where(file, n) + ": " + what);
}

// yaml-cpp tags quoted scalars "!" and plain ones "?": that is how a JSON string "1" stays a
// string while 1 stays a number when we write the value back.
bool quoted(const YAML::Node& n) { return n.Tag() == "!"; }

std::string to_json(const YAML::Node& n) {
  if (!n.IsDefined() || n.IsNull()) return "null";
  if (n.IsScalar()) {
    const std::string& s = n.Scalar();
    if (quoted(n)) return json_quote(s);
    if (s == "true" || s == "false" || s == "null") return s;
    try {
      std::size_t used = 0;
      std::stod(s, &used);
      if (used == s.size()) return s;
    } catch (...) {
    }
    return json_quote(s);
  }
  std::string o;
  if (n.IsSequence()) {
    o = "[";
    for (std::size_t i = 0; i < n.size(); ++i) o += (i ? "," : "") + to_json(n[i]);
    return o + "]";
  }
  o = "{";
  bool first = true;
  for (auto it = n.begin(); it != n.end(); ++it) {
    o += (first ? "" : ",") + json_quote(it->first.Scalar()) + ":" + to_json(it->second);
    first = false;
  }
  return o + "}";
}

std::string str(const std::string& file, const YAML::Node& parent, const char* key, bool required = false) {
  YAML::Node n = parent[key];
  if (!n.IsDefined() || n.IsNull()) {
    if (required) bad(file, parent, std::string("missing \"") + key + "\"");
    return "";
  }
  if (!n.IsScalar()) bad(file, n, std::string("\"") + key + "\" must be a string");
  return n.Scalar();
}

double num(const std::string& file, const YAML::Node& n, const std::string& what) {
  if (!n.IsDefined() || n.IsNull()) return std::numeric_limits<double>::quiet_NaN();
  if (!n.IsScalar() || quoted(n)) bad(file, n, what + " must be a number");
  try {
    std::size_t used = 0;
    double v = std::stod(n.Scalar(), &used);
    if (used == n.Scalar().size()) return v;
  } catch (...) {
  }
  bad(file, n, what + " must be a number, got '" + n.Scalar() + "'");
}

std::vector<std::pair<std::string, std::string>> scalars(const YAML::Node& m) {
  std::vector<std::pair<std::string, std::string>> kv;
  if (!m.IsMap()) return kv;
  for (auto it = m.begin(); it != m.end(); ++it) {
    if (it->second.IsScalar()) {
      kv.emplace_back(it->first.Scalar(), it->second.Scalar());
    } else if (it->second.IsSequence()) {  // "selection": the filters, joined for display
      std::string joined;
      for (auto v : it->second) joined += (joined.empty() ? "" : " ") + (v.IsScalar() ? v.Scalar() : to_json(v));
      kv.emplace_back(it->first.Scalar(), joined);
    } else if (it->second.IsMap()) {  // "toolchain", "timing": one level, as "toolchain.codegen"
      for (auto jt = it->second.begin(); jt != it->second.end(); ++jt)
        if (jt->second.IsScalar()) kv.emplace_back(it->first.Scalar() + "." + jt->first.Scalar(), jt->second.Scalar());
    }
  }
  return kv;
}

RunInfo read_run(const std::string& file, const YAML::Node& holder) {
  RunInfo r;
  r.file = file;
  for (const char* k : {"suite", "run", "device"}) {
    YAML::Node n = holder[k];
    if (n.IsDefined() && !n.IsNull() && !n.IsMap()) bad(file, n, std::string("\"") + k + "\" must be an object");
  }
  r.suite_json = holder["suite"].IsMap() ? to_json(holder["suite"]) : "{}";
  r.run_json = holder["run"].IsMap() ? to_json(holder["run"]) : "{}";
  r.device_json = holder["device"].IsMap() ? to_json(holder["device"]) : "{}";
  r.suite = scalars(holder["suite"]);
  r.run = scalars(holder["run"]);
  r.device = scalars(holder["device"]);
  r.label = str(file, holder, "label");
  return r;
}

void read_case_head(const std::string& file, const YAML::Node& c, CaseRow* row) {
  if (!c.IsMap()) bad(file, c, "a case must be an object");
  row->name = str(file, c, "name", true);
  row->rule = str(file, c, "rule");
  row->area = str(file, c, "area");
  if (row->area.empty()) row->area = row->name.substr(0, row->name.find('.'));
  row->kind = str(file, c, "kind");
  row->min_cc = str(file, c, "min_cc");
  row->arch = str(file, c, "arch");
  row->source = str(file, c, "source");
  if (c["params"].IsMap())
    for (auto it = c["params"].begin(); it != c["params"].end(); ++it)
      row->params.emplace_back(it->first.Scalar(), it->second.IsScalar() ? it->second.Scalar() : to_json(it->second));
  if (c["tags"].IsSequence())
    for (auto t : c["tags"]) row->tags.push_back(t.IsScalar() ? t.Scalar() : to_json(t));
}

Outcome read_outcome(const std::string& file, const YAML::Node& c) {
  Outcome o;
  std::string v = str(file, c, "verdict", true);
  if (!parse_verdict(v, &o.verdict))
    bad(file, c["verdict"], "unknown verdict '" + v + "' (pass, fail, not-supported, timeout, crash, planned, flake)");
  o.reason = str(file, c, "reason");
  o.expected = str(file, c, "expected");
  o.observed = str(file, c, "observed");
  YAML::Node m = c["measurements"];
  if (m.IsDefined() && !m.IsNull()) {
    if (!m.IsMap()) bad(file, m, "\"measurements\" must be an object");
    for (auto it = m.begin(); it != m.end(); ++it)
      o.measurements.emplace_back(it->first.Scalar(), num(file, it->second, "measurement '" + it->first.Scalar() + "'"));
  }
  YAML::Node f = c["facts"];
  if (f.IsMap())
    for (auto it = f.begin(); it != f.end(); ++it)
      o.facts.emplace_back(it->first.Scalar(), it->second.IsScalar() ? it->second.Scalar() : to_json(it->second));
  double d = num(file, c["duration_s"], "\"duration_s\"");
  o.duration_s = std::isnan(d) ? 0 : d;
  return o;
}

CaseRow& row_for(Fleet& f, const CaseRow& head, std::size_t nruns) {
  auto it = f.index.find(head.name);
  if (it != f.index.end()) return f.cases[it->second];
  f.index[head.name] = f.cases.size();
  f.cases.push_back(head);
  f.cases.back().by_run.assign(nruns, std::nullopt);
  return f.cases.back();
}

std::string default_label(const RunInfo& r) {
  std::string host = r.get(r.run, "host");
  std::string d = r.available() ? r.dev("name") + " #" + r.dev("ordinal") : "no GPU";
  d = host.empty() ? d : d + " @ " + host;
  // Runs of one device on several code paths sit side by side: the column says which.
  const std::string codegen = r.get(r.run, "toolchain.codegen");
  return codegen.empty() || codegen == "sass" ? d : d + " [" + r.toolchain_line() + "]";
}

void unique_labels(Fleet& f) {
  std::map<std::string, int> seen;
  for (auto& r : f.runs) {
    if (r.label.empty()) r.label = default_label(r);
    int n = ++seen[r.label];
    if (n > 1) r.label += " (" + std::to_string(n) + ")";
  }
}

}  // namespace

std::string RunInfo::get(const std::vector<std::pair<std::string, std::string>>& kv, const std::string& k) const {
  for (auto& [key, v] : kv)
    if (key == k) return v;
  return "";
}

std::string RunInfo::device_line() const {
  if (!available()) {
    std::string e = dev("error");
    return "no GPU" + (e.empty() ? std::string() : ": " + e);
  }
  std::string s = dev("name") + ", cc " + dev("cc");
  if (!dev("sm_count").empty()) s += ", " + dev("sm_count") + " SMs";
  std::string drv = dev("driver_version").empty() ? "CUDA " + dev("driver_cuda_version") : dev("driver_version");
  return s + ", driver " + drv;
}

std::string RunInfo::toolchain_line() const {
  const std::string codegen = get(run, "toolchain.codegen"), compiler = get(run, "toolchain.compiler");
  if (codegen.empty()) return "sass (nvcc " + get(suite, "built_with_cuda") + ", built in)";
  if (codegen == "jit") return "jit (driver " + dev("driver_version") + ")";
  return codegen == "sass" ? "sass (" + compiler + ")" : compiler;
}

const CaseRow* Fleet::find(const std::string& name) const {
  auto it = index.find(name);
  return it == index.end() ? nullptr : &cases[it->second];
}

const std::vector<Verdict>& all_verdicts() {
  static const std::vector<Verdict> v = {Verdict::pass,          Verdict::fail,    Verdict::timeout, Verdict::crash,
                                         Verdict::flake,         Verdict::not_supported, Verdict::planned};
  return v;
}

bool is_failure_name(const std::string& verdict) {
  Verdict v;
  return parse_verdict(verdict, &v) && is_failure(v);
}

std::map<std::string, int> Fleet::counts(std::size_t run) const {
  std::map<std::string, int> m;
  for (Verdict v : all_verdicts()) m[to_string(v)] = 0;
  for (auto& c : cases)
    if (c.by_run[run]) ++m[to_string(c.by_run[run]->verdict)];
  return m;
}

Fleet load_results(const std::string& path) {
  YAML::Node root;
  try {
    root = parse_json_file(path);
  } catch (const YAML::Exception& e) {
    throw ResultsError(path + ": " + e.what());
  } catch (const std::runtime_error& e) {
    throw ResultsError(e.what());
  }
  if (!root.IsMap()) bad(path, root, "not a cuconform results file (expected a JSON object)");
  Fleet f;
  f.schema = str(path, root, "schema", true);
  YAML::Node cases = root["cases"];
  if (!cases.IsSequence()) bad(path, cases.IsDefined() ? cases : root, "\"cases\" must be an array");
  try {
    if (f.schema == std::string(kResultsSchema)) {
      f.runs.push_back(read_run(path, root));
      for (auto c : cases) {
        CaseRow head;
        read_case_head(path, c, &head);
        CaseRow& row = row_for(f, head, 1);
        if (row.by_run[0]) bad(path, c, "case '" + head.name + "' appears twice");
        row.by_run[0] = read_outcome(path, c);
      }
    } else if (f.schema == kFleetSchema) {
      YAML::Node runs = root["runs"];
      if (!runs.IsSequence()) bad(path, runs.IsDefined() ? runs : root, "\"runs\" must be an array");
      for (auto r : runs) {
        if (!r.IsMap()) bad(path, r, "a run must be an object");
        f.runs.push_back(read_run(str(path, r, "file").empty() ? path : str(path, r, "file"), r));
      }
      for (auto c : cases) {
        CaseRow head;
        read_case_head(path, c, &head);
        YAML::Node results = c["results"];
        if (!results.IsSequence() || results.size() != f.runs.size())
          bad(path, results.IsDefined() ? results : c,
              "\"results\" must be an array with one entry per run (" + std::to_string(f.runs.size()) + ")");
        CaseRow& row = row_for(f, head, f.runs.size());
        for (std::size_t i = 0; i < results.size(); ++i)
          if (results[i].IsMap()) row.by_run[i] = read_outcome(path, results[i]);
      }
    } else {
      bad(path, root["schema"], "unknown schema '" + f.schema + "' (expected " + std::string(kResultsSchema) + " or " + kFleetSchema + ")");
    }
  } catch (const YAML::Exception& e) {  // a type conversion the checks above did not foresee
    throw ResultsError(path + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg);
  }
  unique_labels(f);
  return f;
}

Fleet merge_fleets(const std::vector<Fleet>& parts) {
  Fleet f;
  f.schema = kFleetSchema;
  std::size_t total = 0;
  for (auto& p : parts) total += p.runs.size();
  std::size_t base = 0;
  for (auto& p : parts) {
    for (auto& r : p.runs) f.runs.push_back(r);
    for (auto& c : p.cases) {
      CaseRow& row = row_for(f, c, total);
      if (row.by_run.size() < total) row.by_run.resize(total);
      for (std::size_t i = 0; i < c.by_run.size(); ++i) row.by_run[base + i] = c.by_run[i];
    }
    base += p.runs.size();
  }
  // Labels from the parts may collide ("NVIDIA H200 #0 @ node1" twice): number them.
  std::map<std::string, int> n;
  for (auto& r : f.runs) ++n[r.label];
  std::map<std::string, int> k;
  for (auto& r : f.runs)
    if (n[r.label] > 1) r.label += " (" + std::to_string(++k[r.label]) + ")";
  return f;
}

static void write_outcome(JsonWriter& w, const Outcome& o) {
  w.begin_object();
  write_outcome_fields(w, o);
  w.field("duration_s", o.duration_s);
  w.end_object();
}

std::string fleet_json(const Fleet& f) {
  JsonWriter w(true);
  w.begin_object();
  w.field("schema", kFleetSchema).field("generated", utc_now_iso8601());
  w.key("runs").begin_array();
  for (std::size_t i = 0; i < f.runs.size(); ++i) {
    const RunInfo& r = f.runs[i];
    w.begin_object().field("label", r.label).field("file", r.file);
    w.key("suite").raw(r.suite_json).key("run").raw(r.run_json).key("device").raw(r.device_json);
    w.key("summary").begin_object();
    int total = 0;
    for (auto& c : f.cases) total += c.by_run[i].has_value();
    w.field("total", total);
    for (auto& [k, v] : f.counts(i)) w.field(k, v);
    w.end_object().end_object();
  }
  w.end_array();
  w.key("cases").begin_array();
  for (auto& c : f.cases) {
    w.begin_object().field("name", c.name).field("rule", c.rule).field("area", c.area).field("kind", c.kind);
    w.field("min_cc", c.min_cc);
    if (!c.arch.empty()) w.field("arch", c.arch);
    w.field("source", c.source);
    w.key("params").begin_object();
    for (auto& [k, v] : c.params) w.field(k, v);
    w.end_object();
    w.key("tags").begin_array();
    for (auto& t : c.tags) w.value(t);
    w.end_array();
    w.key("results").begin_array();
    for (auto& o : c.by_run) {
      if (o) write_outcome(w, *o);
      else w.null();
    }
    w.end_array().end_object();
  }
  w.end_array().end_object();
  return w.str() + "\n";
}

}  // namespace cuconform
