#include "reporters/results_file.hpp"

#include <algorithm>
#include <cmath>

#include "harness/util/outcome_json.hpp"
#include "reporters/results_json.hpp"

namespace cuconform {

namespace {

// The scalar fields of "suite", "run" or "device" as text, for display and the known list's
// device match; "selection" (the filters) joined, "toolchain" and "timing" one level deep.
std::vector<std::pair<std::string, std::string>> scalars(const JsonField& object) {
  std::vector<std::pair<std::string, std::string>> kv;
  for (auto& [k, v] : object.members()) {
    if (v.value().is_array()) {
      std::string joined;
      for (auto& e : v.elements()) joined += (joined.empty() ? "" : " ") + e.text();
      kv.emplace_back(k, joined);
    } else if (v.is_object()) {
      for (auto& [k2, v2] : v.members())
        if (!v2.value().is_structured()) kv.emplace_back(k + "." + k2, v2.text());
    } else {
      kv.emplace_back(k, v.text());
    }
  }
  return kv;
}

RunInfo read_run(const std::string& file, const JsonField& holder) {
  auto compact = [](const JsonField& f) { return f.is_object() ? json_text(f.value(), false) : std::string("{}"); };
  RunInfo r;
  r.file = file;
  r.suite = scalars(holder["suite"]);  // these fail unless an object (or absent)
  r.run = scalars(holder["run"]);
  r.device = scalars(holder["device"]);
  r.suite_json = compact(holder["suite"]);
  r.run_json = compact(holder["run"]);
  r.device_json = compact(holder["device"]);
  r.health_json = compact(holder["health"]);
  r.action_json = compact(holder["action"]);
  r.has_device = !r.device.empty();
  r.label = holder["label"].str();
  const JsonField health = holder["health"];
  if (health.is_object()) {
    r.health_json = json_text(health.value(), false);
    r.health_verdict = health["verdict"].str();
    for (auto& e : health["events"].is_null() ? std::vector<JsonField>{} : health["events"].elements())
      if (!e["expected"].boolean())
        r.xids.push_back(e["what"].str() + (e["case"].str().empty() ? "" : " at case " + e["case"].str()));
  } else if (!health.is_null()) {
    health.fail("expected an object");
  }
  return r;
}

void read_case_head(const JsonField& c, CaseRow* row) {
  if (!c.is_object()) c.fail("a case must be an object");
  row->name = c["name"].required().str();
  row->rule = c["rule"].str();
  row->area = c["area"].str();
  if (row->area.empty()) row->area = row->name.substr(0, row->name.find('.'));
  row->kind = c["kind"].str();
  row->min_cc = c["min_cc"].str();
  row->arch = c["arch"].str();
  row->basis = c["basis"].str();
  row->tier = c["tier"].str();
  row->definition = c["definition"].str();
  row->shadow = c["shadow"].boolean();
  row->source = c["source"].str();
  for (auto& [k, v] : c["params"].members()) row->params.emplace_back(k, v.text());
  if (!c["tags"].is_null())
    for (auto& t : c["tags"].elements()) row->tags.push_back(t.text());
  if (!c["relies"].is_null())
    for (auto& t : c["relies"].elements()) row->relies.push_back(t.text());
}

Outcome read_outcome(const JsonField& c) {
  if (!c.is_object()) c.fail("a result must be an object");
  Outcome o;
  read_outcome_fields(c, &o);
  double d = c["duration_s"].num();
  o.duration_s = std::isnan(d) ? 0 : d;
  // Where it ran (bisect); files written before the run recorded it have neither.
  auto count = [&](const char* key) {
    const double v = c[key].num();
    if (std::isnan(v)) return 0;
    if (v < 0 || v > 1e9 || v != std::floor(v)) c[key].fail("expected a whole number from 0 to 1e9");
    return static_cast<int>(v);
  };
  o.worker = count("worker");
  o.order = count("order");
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
  // Two GPUs of one model differ by their UUID: "NVIDIA H200 #1 5f0c2a9e @ node7".
  std::string uuid = r.dev("uuid");
  if (uuid.rfind("GPU-", 0) == 0) uuid = uuid.substr(4, 8);
  std::string d = r.available() ? r.dev("name") + " #" + r.dev("ordinal") : r.has_device ? "no GPU" : "unknown device";
  if (!uuid.empty()) d += (r.available() ? " " : " #" + r.dev("ordinal") + " ") + uuid;
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

std::string RunInfo::cut_off() const {
  const std::string by = get(run, "cut_off.by");
  if (by.empty()) return "";
  const std::string finished = get(run, "cut_off.finished"), of = get(run, "cut_off.of");
  return (by == "running" ? "a snapshot of a run still going" : "cut off by " + by) +
         (finished.empty() ? "" : ", " + finished + " of " + of + " cases finished");
}

std::string RunInfo::device_line() const {
  if (!has_device) return "unknown device: the file has no device section (which GPU ran it, or whether one did, is not recorded)";
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

std::string RunInfo::tool_line() const {
  const std::string codegen = get(run, "toolchain.codegen");
  if (codegen == "jit") return "driver JIT " + dev("driver_version");
  if (codegen == "ptxas") return get(run, "toolchain.compiler");
  const std::string version = get(run, "toolchain.ptxas_version");
  return "ptxas " + (version.empty() ? get(suite, "built_with_cuda") : version);
}

namespace {
std::vector<std::string> selection_items(const RunInfo& r) {
  std::vector<std::string> items;
  try {
    auto run = nlohmann::ordered_json::parse(r.run_json);
    auto sel = run.find("selection");
    if (sel != run.end() && sel->is_array())
      for (auto& item : *sel)
        if (item.is_string()) items.push_back(item.get<std::string>());
  } catch (const std::exception&) {
    // run_json is what the reader re-encoded: it parses; nothing picked otherwise.
  }
  return items;
}
}  // namespace

std::string case_selection(const RunInfo& r) {
  std::vector<std::string> picked;
  for (auto& f : selection_items(r))
    for (const char* flag : {"--area ", "--rule ", "--tag ", "--kind ", "--tier ", "--profile "})
      if (f.rfind(flag, 0) == 0) picked.push_back(f);
  std::sort(picked.begin(), picked.end());
  std::string s;
  for (auto& f : picked) s += (s.empty() ? "" : " ") + f;
  return s;
}

std::string run_devices(const RunInfo& r) {
  for (auto& f : selection_items(r))
    if (f.rfind("--devices ", 0) == 0) return f.substr(10);
  return "";
}

const CaseRow* Fleet::find(const std::string& name) const {
  auto it = index.find(name);
  return it == index.end() ? nullptr : &cases[it->second];
}

const std::vector<Verdict>& all_verdicts() {
  static const std::vector<Verdict> v = {Verdict::pass,    Verdict::fail,          Verdict::timeout,
                                         Verdict::crash,   Verdict::not_run,       Verdict::inconclusive,
                                         Verdict::flake,   Verdict::not_supported, Verdict::planned,
                                         Verdict::recorded};
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

namespace {

void read_results(const std::string& path, const JsonField& root, Fleet* f, bool with_cases) {
  f->runs.push_back(read_run(path, root));
  if (!with_cases) return;
  for (auto& c : root["cases"].required().elements()) {
    CaseRow head;
    read_case_head(c, &head);
    CaseRow& row = row_for(*f, head, 1);
    if (row.by_run[0]) c.fail("case '" + head.name + "' appears twice");
    row.by_run[0] = read_outcome(c);
  }
}

void read_fleet(const std::string& path, const JsonField& root, Fleet* f, bool with_cases) {
  for (auto& r : root["runs"].required().elements()) {
    if (!r.is_object()) r.fail("a run must be an object");
    std::string file = r["file"].str();
    f->runs.push_back(read_run(file.empty() ? path : file, r));
  }
  if (!with_cases) return;
  for (auto& c : root["cases"].required().elements()) {
    CaseRow head;
    read_case_head(c, &head);
    std::vector<JsonField> results = c["results"].required().elements();
    if (results.size() != f->runs.size())
      c["results"].fail("expected one entry per run (" + std::to_string(f->runs.size()) + "), got " + std::to_string(results.size()));
    CaseRow& row = row_for(*f, head, f->runs.size());
    for (std::size_t i = 0; i < results.size(); ++i)
      if (!results[i].is_null()) row.by_run[i] = read_outcome(results[i]);
  }
}

// The members load_results_for_digest leaves out: a case's (results file) or a result's (fleet
// file) text fields and facts, which are most of a file; "outcome" is a recorded case's category.
bool digest_never_reads(const std::string& object, const std::string& key) {
  if (object == "cases[]" || object == "cases[].results[]")
    return key == "source" || key == "params" || key == "tags" || key == "relies" || key == "reason" || key == "expected" ||
           key == "observed";
  if (object == "cases[].facts" || object == "cases[].results[].facts") return key != "outcome";
  return false;
}

// The member load_results_runs leaves out: every case.
bool runs_only(const std::string& object, const std::string& key) { return object.empty() && key == "cases"; }

// `prune`: the members left out as the text is parsed; `with_cases` false: the runs alone are read.
Fleet read_results_file(const std::string& path, JsonPrune prune, bool with_cases) {
  Fleet f;
  try {
    JsonDoc doc = JsonDoc::from_file(path, prune);
    JsonField root = doc.root();
    if (!root.is_object()) root.fail("not a cuconform results file (expected a JSON object)");
    f.schema = root["schema"].required().str();
    if (f.schema == kResultsSchema)
      read_results(path, root, &f, with_cases);
    else if (f.schema == kFleetSchema)
      read_fleet(path, root, &f, with_cases);
    else
      root["schema"].fail("unknown schema '" + f.schema + "' (this cuconform reads " + kResultsSchema + " and " + kFleetSchema +
                          (f.schema.rfind("cuconform-", 0) == 0 ? "; another version of the schema: a newer cuconform wrote it?)" : ")"));
  } catch (const JsonError& e) {
    throw ResultsError(e.what());
  }
  unique_labels(f);
  return f;
}

}  // namespace

Fleet load_results(const std::string& path) { return read_results_file(path, nullptr, true); }

Fleet load_results_for_digest(const std::string& path) { return read_results_file(path, digest_never_reads, true); }

Fleet load_results_runs(const std::string& path) { return read_results_file(path, runs_only, false); }

RunInfo run_info_from_json(const std::string& file, const std::string& suite_json, const std::string& run_json,
                           const std::string& device_json) {
  try {
    JsonDoc doc("{\"suite\":" + suite_json + ",\"run\":" + run_json + ",\"device\":" + device_json + "}", file);
    return read_run(file, doc.root());
  } catch (const JsonError& e) {
    throw ResultsError(e.what());
  }
}

bool is_results_file_name(const std::string& path) {
  auto ends = [&](const std::string& tail) { return path.size() > tail.size() && path.compare(path.size() - tail.size(), tail.size(), tail) == 0; };
  return ends(".json") || ends(".json.gz");
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

static Json outcome_json(const Outcome& o) {
  Json j = Json::object();
  write_outcome_fields(j, o);
  j["duration_s"] = json_number(o.duration_s);
  if (o.worker) {
    j["worker"] = o.worker;
    j["order"] = o.order;
  }
  return j;
}

std::string fleet_json(const Fleet& f) {
  Json j = {{"schema", kFleetSchema}, {"generated", utc_now_iso8601()}};
  Json& runs = j["runs"] = Json::array();
  for (std::size_t i = 0; i < f.runs.size(); ++i) {
    const RunInfo& r = f.runs[i];
    int total = 0;
    for (auto& c : f.cases) total += c.by_run[i].has_value();
    Json summary = {{"total", total}};
    for (auto& [k, v] : f.counts(i)) summary[k] = v;
    runs.push_back({{"label", r.label},
                    {"file", r.file},
                    {"suite", Json::parse(r.suite_json)},
                    {"run", Json::parse(r.run_json)},
                    {"device", Json::parse(r.device_json)}});
    if (!r.health_json.empty() && r.health_json != "{}") runs.back()["health"] = Json::parse(r.health_json);
    if (!r.action_json.empty() && r.action_json != "{}") runs.back()["action"] = Json::parse(r.action_json);
    runs.back()["summary"] = summary;
  }
  Json& cases = j["cases"] = Json::array();
  for (auto& c : f.cases) {
    Json row = {{"name", c.name}, {"rule", c.rule}, {"area", c.area}, {"kind", c.kind}, {"min_cc", c.min_cc}};
    if (!c.arch.empty()) row["arch"] = c.arch;
    if (!c.basis.empty()) row["basis"] = c.basis;
    if (!c.tier.empty()) row["tier"] = c.tier;
    if (c.shadow) row["shadow"] = true;
    if (!c.definition.empty()) row["definition"] = c.definition;
    row["source"] = c.source;
    Json& params = row["params"] = Json::object();
    for (auto& [k, v] : c.params) params[k] = v;
    row["tags"] = c.tags;
    if (!c.relies.empty()) row["relies"] = c.relies;
    Json& results = row["results"] = Json::array();
    for (auto& o : c.by_run) results.push_back(o ? outcome_json(*o) : Json(nullptr));
    cases.push_back(std::move(row));
  }
  return json_text(j, true);
}

}  // namespace cuconform
