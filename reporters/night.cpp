#include "reporters/night.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <thread>

#include "harness/util/json_read.hpp"
#include "reporters/results_json.hpp"

namespace fs = std::filesystem;

namespace cuconform {

const char* to_string(NightGpu::State s) {
  switch (s) {
    case NightGpu::State::ran: return "ran";
    case NightGpu::State::no_gpu: return "no GPU";
    case NightGpu::State::unreadable: return "unreadable";
    case NightGpu::State::missing: return "missing";
  }
  return "?";
}

std::string NightNode::state() const {
  if (complete) return "ran";
  if (skipped) return "skipped";
  return attempts.empty() ? "missing" : "failed";
}

int NightNode::expected_gpus() const {
  if (planned_gpus >= 0) return planned_gpus;
  if (held_gpus >= 0) return held_gpus;
  return static_cast<int>(gpus.size());
}

namespace {

// Tab-separated lines; '#' starts a comment line. Each row keeps its line number for messages.
std::vector<std::pair<int, std::vector<std::string>>> read_tsv(const std::string& path, std::size_t min_fields) {
  std::ifstream in(path);
  if (!in) throw ResultsError(path + ": cannot open");
  std::vector<std::pair<int, std::vector<std::string>>> rows;
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string x; std::getline(ss, x, '\t');) f.push_back(x);
    if (f.size() < min_fields)
      throw ResultsError(path + ":" + std::to_string(n) + ": expected " + std::to_string(min_fields) + " tab-separated fields, got " +
                         std::to_string(f.size()));
    rows.emplace_back(n, std::move(f));
  }
  return rows;
}

int int_field(const std::string& path, int line, const std::string& what, const std::string& text, int lo) {
  try {
    std::size_t used = 0;
    long v = std::stol(text, &used);
    if (used == text.size() && v >= lo && v <= 1000000) return static_cast<int>(v);
  } catch (const std::exception&) {
  }
  throw ResultsError(path + ":" + std::to_string(line) + ": " + what + ": expected a whole number, got '" + text + "'");
}

NightNode& node_named(Night& n, const std::string& name) {
  for (auto& x : n.nodes)
    if (x.name == name) return x;
  n.nodes.push_back({});
  n.nodes.back().name = name;
  return n.nodes.back();
}

void read_marker(const std::string& path, NightNode* node) {
  try {
    JsonDoc doc = JsonDoc::from_file(path);
    JsonField root = doc.root();
    if (!root.is_object()) root.fail("not a completion marker (expected a JSON object)");
    if (root["schema"].required().str() != kNodeDoneSchema) root["schema"].fail("expected '" + std::string(kNodeDoneSchema) + "'");
    double exit = root["exit"].required().num(), gpus = root["gpus"].num();
    if (!(exit >= 0 && exit < 256)) root["exit"].fail("expected an exit code 0..255");
    node->complete = true;
    node->run_exit = static_cast<int>(exit);
    node->held_gpus = gpus >= 0 ? static_cast<int>(gpus) : -1;
    node->job_id = root["job_id"].text();
    node->finished = root["finished"].str();
  } catch (const JsonError& e) {
    throw ResultsError(e.what());
  }
}

// A GPU's file read (whole), or why it did not read.
struct LoadedGpu {
  int index = 0;
  std::string file;
  Fleet fleet;
  bool ok = false;
  std::string why;
};

void load_gpu(LoadedGpu* l) {
  try {
    l->fleet = load_results_for_digest(l->file);  // the digest's fields only
    l->ok = true;
  } catch (const std::exception& e) {
    l->why = e.what();
  }
}

// One GPU's file, read, into the night's fleet; a file that does not read is that GPU's state.
void add_gpu(Night& night, NightNode& node, LoadedGpu& l, const KnownList* known) {
  NightGpu g;
  g.index = l.index;
  g.file = l.file;
  if (!l.ok) {
    g.state = NightGpu::State::unreadable;
    g.why = l.why;
    node.gpus.push_back(g);
    return;
  }
  try {
    Fleet& f = l.fleet;
    for (std::size_t i = 0; i < f.runs.size(); ++i) {  // a node.json holds several
      NightGpu x = g;
      if (f.runs.size() > 1) {
        std::string ord = f.runs[i].dev("ordinal");
        x.index = ord.empty() ? static_cast<int>(i) : std::atoi(ord.c_str());
      }
      x.run = night.fleet.runs.size() + i;
      x.state = f.runs[i].available() ? NightGpu::State::ran : NightGpu::State::no_gpu;
      if (x.state == NightGpu::State::no_gpu) x.why = f.runs[i].dev("error");
      node.gpus.push_back(x);
    }
    night.fleet.add(f, known);
  } catch (const std::exception& e) {
    g.state = NightGpu::State::unreadable;
    g.why = e.what();
    node.gpus.push_back(g);
  }
  l.fleet = Fleet();  // the whole file goes once it is in the digest
}

// A node's files: read side by side, as many at a time as the machine has cores (reading and
// parsing is most of a night's time), then added to the digest one at a time in index order,
// as a serial read adds them; at most that many whole files are in memory at once.
void add_gpus(Night& night, NightNode& node, const std::vector<std::pair<int, std::string>>& files, const KnownList* known) {
  const std::size_t width = std::max(1u, std::thread::hardware_concurrency());
  for (std::size_t at = 0; at < files.size(); at += width) {
    const std::size_t n = std::min(width, files.size() - at);
    std::vector<LoadedGpu> batch(n);
    for (std::size_t k = 0; k < n; ++k) {
      batch[k].index = files[at + k].first;
      batch[k].file = files[at + k].second;
    }
    std::vector<std::thread> threads;  // none for a batch of one
    for (std::size_t k = 1; k < n; ++k) threads.emplace_back(load_gpu, &batch[k]);
    load_gpu(&batch[0]);
    for (auto& t : threads) t.join();
    for (auto& l : batch) add_gpu(night, node, l, known);
  }
}

void read_node_dir(Night& night, const fs::path& dir, const KnownList* known) {
  const std::string name = dir.filename().string();
  if (!fs::exists(dir / "complete.json")) {
    night.ignored.push_back((dir / "").string() + ": no complete.json (an attempt still being written, or copied in half): not read");
    return;
  }
  NightNode& node = node_named(night, name);
  read_marker((dir / "complete.json").string(), &node);
  static const std::regex per_gpu(R"(results\.gpu([0-9]+)\.json(\.gz)?)");
  std::vector<std::pair<int, std::string>> files;
  std::string single, merged;
  for (auto& e : fs::directory_iterator(dir)) {
    const std::string f = e.path().filename().string();
    std::smatch m;
    if (std::regex_match(f, m, per_gpu)) files.emplace_back(std::stoi(m[1]), e.path().string());
    else if (f == "results.json" || f == "results.json.gz") single = e.path().string();
    else if (f == "node.json" || f == "node.json.gz") merged = e.path().string();
  }
  std::sort(files.begin(), files.end());
  // The per-GPU files are the record; node.json is their merge, read only when they are absent.
  if (!files.empty()) {
    add_gpus(night, node, files, known);
  } else if (!merged.empty()) {
    add_gpus(night, node, {{0, merged}}, known);
  } else if (!single.empty()) {
    add_gpus(night, node, {{0, single}}, known);
  }
}

// GPUs the node should have had and has no file for: missing, by index. Where the node's run
// opened no GPU at all, `run --devices` writes one file for the node (no driver, nothing to
// enumerate): then the others saw no GPU either, the same state and reason, not missing. Several
// files (a run per GPU) keep a GPU without one missing.
void add_missing(NightNode& node) {
  if (!node.complete) return;
  const int want = node.expected_gpus();
  const bool all_none = node.gpus.size() == 1 && node.gpus[0].state == NightGpu::State::no_gpu;
  const std::string why = all_none ? node.gpus[0].why : "";
  for (int i = 0; i < want; ++i) {
    bool have = false;
    for (auto& g : node.gpus) have = have || g.index == i;
    if (!have) {
      NightGpu g;
      g.index = i;
      g.state = all_none ? NightGpu::State::no_gpu : NightGpu::State::missing;
      g.why = why;
      node.gpus.push_back(g);
    }
  }
  std::sort(node.gpus.begin(), node.gpus.end(), [](const NightGpu& a, const NightGpu& b) { return a.index < b.index; });
}

}  // namespace

Night load_night(const std::string& dir, const KnownList* known) {
  Night night;
  night.dir = dir;
  night.name = fs::path(dir).lexically_normal().filename().string();
  if (night.name.empty() || night.name == ".") night.name = fs::path(dir).lexically_normal().parent_path().filename().string();
  if (!fs::is_directory(dir)) throw ResultsError(dir + ": not a folder");
  const fs::path root(dir);
  const bool has_plan = fs::exists(root / "plan.tsv") || fs::exists(root / "skipped.tsv"), has_nodes = fs::is_directory(root / "nodes");
  if (!has_plan && !has_nodes && !fs::exists(root / "attempts.tsv"))
    throw ResultsError(dir + ": not a night folder (no plan.tsv, attempts.tsv or nodes/; docs/fleet.md)");
  if (fs::exists(root / "plan.tsv")) {
    const std::string p = (root / "plan.tsv").string();
    for (auto& [line, f] : read_tsv(p, 2)) node_named(night, f[0]).planned_gpus = int_field(p, line, "GPUs", f[1], 0);
  }
  if (fs::exists(root / "skipped.tsv")) {
    const std::string p = (root / "skipped.tsv").string();
    for (auto& [line, f] : read_tsv(p, 3)) {
      NightNode& n = node_named(night, f[0]);
      n.skipped = true;
      n.planned_gpus = int_field(p, line, "GPUs", f[1], 0);
      n.skip_state = f[2];
      n.skip_reason = f.size() > 3 ? f[3] : "";
    }
  }
  if (fs::exists(root / "attempts.tsv")) {
    const std::string p = (root / "attempts.tsv").string();
    for (auto& [line, f] : read_tsv(p, 5)) {
      NightAttempt a{int_field(p, line, "attempt", f[1], 1), f[2], f[3], f[4] == "-" ? -1 : int_field(p, line, "exit", f[4], 0)};
      node_named(night, f[0]).attempts.push_back(a);
    }
  }
  if (has_nodes) {
    std::vector<fs::path> dirs;
    for (auto& e : fs::directory_iterator(root / "nodes"))
      if (e.is_directory()) dirs.push_back(e.path());
    std::sort(dirs.begin(), dirs.end());
    for (auto& d : dirs) read_node_dir(night, d, known);
  }
  if (fs::is_directory(root / "cutoff"))
    for (auto& e : fs::directory_iterator(root / "cutoff"))
      night.ignored.push_back(e.path().string() + ": the cut-off results of a node whose every attempt was killed (in the history as a cut-off run, not judged here)");
  if (fs::is_directory(root / ".partial"))
    for (auto& e : fs::directory_iterator(root / ".partial"))
      night.ignored.push_back(e.path().string() + ": an attempt that did not finish (never read)");
  for (auto& n : night.nodes) add_missing(n);
  night.fleet.number_labels();
  return night;
}

Night night_of_files(const std::vector<std::string>& files, const KnownList* known) {
  Night night;
  night.name = "the files given";
  for (auto& file : files) {
    Fleet f = load_results_for_digest(file);  // bad input here is the command's bad input: named, exit 2
    for (std::size_t i = 0; i < f.runs.size(); ++i) {
      const RunInfo& r = f.runs[i];
      std::string host = r.dev("node").empty() ? r.get(r.run, "host") : r.dev("node");
      NightNode& node = node_named(night, host.empty() ? "(unknown node)" : host);
      node.complete = true;
      NightGpu g;
      g.file = file;
      g.index = r.dev("ordinal").empty() ? static_cast<int>(node.gpus.size()) : std::atoi(r.dev("ordinal").c_str());
      g.run = night.fleet.runs.size() + i;
      g.state = r.available() ? NightGpu::State::ran : NightGpu::State::no_gpu;
      if (!r.available()) g.why = r.dev("error");
      node.gpus.push_back(g);
    }
    night.fleet.add(f, known);
  }
  night.fleet.number_labels();
  return night;
}

}  // namespace cuconform
